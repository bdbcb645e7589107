import {
  AVAILABILITY_TTL_DAYS,
  evaluateEligibility,
  type Availability,
  type FeatureFlags,
  type OnboardingStatus,
  type Questionnaire,
  type QuestionnaireAnswers,
  type SetAvailability,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { assertSelf, assertSelfOrAdmin } from '../../lib/access';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { availabilityChange, toAvailabilityView } from '../../lib/availability';
import {
  currentEligibility,
  loadDonorFacts,
  onboardingState,
  refreshLastDonation,
  toOnboardingStatus,
  toQuestionnaireView,
} from '../../lib/donor-facts';
import type { Notifier } from '../../lib/notifications/notifier';
import { afterDonorInputChanged } from '../../lib/onboarding';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import { createDonorsRepository } from './donors.repository';

const DAY_MS = 86_400_000;

export interface DonorsServiceDeps {
  db: Db;
  notifier: Pick<Notifier, 'notify' | 'notifyAdmins' | 'kick'>;
  flags: { getFlags(): Promise<FeatureFlags> };
  now?: () => number;
}

const notFound = () => new AppError('NOT_FOUND', 'There is no user with this id.');
const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', message, [{ path, message }]);
const today = (now: number) => new Date(now).toISOString().slice(0, 10);

/** Dates a donor cannot know yet are typing mistakes: refuse them with the field's path. */
function assertPastDates(answers: QuestionnaireAnswers, now: number): void {
  const limit = today(now);
  if (answers.lastDonationDate && answers.lastDonationDate > limit) {
    throw invalid('body.answers.lastDonationDate', 'This date is in the future.');
  }
  for (const [code, date] of Object.entries(answers.conditionDates ?? {})) {
    if (date > limit)
      throw invalid(`body.answers.conditionDates.${code}`, 'This date is in the future.');
  }
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined)
        .map((key) => [key, canonical(record[key])]),
    );
  }
  return value;
}

/** The same answers, whatever the order of keys and conditions. */
function sameAnswers(a: QuestionnaireAnswers, b: QuestionnaireAnswers): boolean {
  const normal = (value: QuestionnaireAnswers) =>
    JSON.stringify(canonical({ ...value, conditions: [...new Set(value.conditions)].sort() }));
  return normal(a) === normal(b);
}

export function createDonorsService(deps: DonorsServiceDeps) {
  const { db, notifier } = deps;
  const now = deps.now ?? Date.now;
  const repository = createDonorsRepository(db);

  async function loadUser(caller: AuthUser, id: string): Promise<UserRow> {
    assertSelfOrAdmin(caller, id);
    const user = await repository.findUser(id);
    if (!user || user.deletedAt) throw notFound();
    return user;
  }

  function assertDonor(user: UserRow): void {
    if (user.role !== 'donor') {
      throw new AppError('FORBIDDEN', 'Only donors have a health questionnaire.');
    }
  }

  return {
    async getQuestionnaire(caller: AuthUser, id: string): Promise<Questionnaire | null> {
      const user = await loadUser(caller, id);
      const row = await repository.findQuestionnaire(id);
      return row ? toQuestionnaireView(row, user, now()) : null;
    },

    /**
     * The donor's own answers, with the verdict computed from them, their date of birth, gender
     * and latest donation. A rejected donor who changes them goes back to pending.
     */
    async putQuestionnaire(
      caller: AuthUser,
      id: string,
      answers: QuestionnaireAnswers,
      meta: RequestMeta,
    ): Promise<Questionnaire> {
      assertSelf(caller, id, 'You can only answer your own questionnaire.');
      const user = await loadUser(caller, id);
      assertDonor(user);
      const at = now();
      assertPastDates(answers, at);
      const idProofRequired = (await deps.flags.getFlags()).documentUpload;
      const view = await db.transaction(async (tx) => {
        const repo = createDonorsRepository(tx);
        const previous = await repo.findQuestionnaire(id);
        const isChange = !previous || !sameAnswers(previous.answers, answers);
        // The verdict stored with the answers, for the record; replies recompute it.
        const placeholder = evaluateEligibility({
          dateOfBirth: user.dateOfBirth,
          gender: user.gender,
          answers,
          lastDonationAt: user.lastDonationAt,
          now: new Date(at),
        });
        let row = await repo.saveQuestionnaire({
          userId: id,
          answers,
          eligible: placeholder.eligible,
          nextEligibleAt: placeholder.nextEligibleAt ? new Date(placeholder.nextEligibleAt) : null,
          deferrals: placeholder.deferrals,
          submittedAt: new Date(at),
        });
        const lastDonationAt = await refreshLastDonation(tx, id);
        const verdict = currentEligibility({ ...user, lastDonationAt }, row, at)!;
        row = await repo.saveQuestionnaire({
          userId: id,
          answers,
          eligible: verdict.eligible,
          nextEligibleAt: verdict.nextEligibleAt ? new Date(verdict.nextEligibleAt) : null,
          deferrals: verdict.deferrals,
          submittedAt: new Date(at),
        });
        await createActivityLog(tx).record({
          action: 'questionnaire.submitted',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'user',
          targetId: id,
          // The verdict only: health answers stay in their own table.
          details: { eligible: verdict.eligible, changed: isChange },
          requestId: meta.requestId,
        });
        if (isChange) {
          await afterDonorInputChanged(tx, id, {
            notifier,
            idProofRequired,
            actorId: caller.id,
            actorRole: caller.role,
            requestId: meta.requestId,
            now: at,
          });
        }
        return toQuestionnaireView(row, { ...user, lastDonationAt }, at);
      });
      notifier.kick();
      return view;
    },

    async onboardingStatus(caller: AuthUser, id: string): Promise<OnboardingStatus> {
      const user = await loadUser(caller, id);
      const [facts, flags] = await Promise.all([loadDonorFacts(db, id), deps.flags.getFlags()]);
      return toOnboardingStatus(user, onboardingState(facts, flags.documentUpload));
    },

    async getAvailability(caller: AuthUser, id: string): Promise<Availability> {
      return toAvailabilityView(await loadUser(caller, id), now());
    },

    /**
     * Sets and reconfirms availability: it lapses AVAILABILITY_TTL_DAYS later unless confirmed
     * again. `until` (inclusive) must be from today to 90 days ahead.
     */
    async setAvailability(
      caller: AuthUser,
      id: string,
      body: SetAvailability,
      meta: RequestMeta,
    ): Promise<Availability> {
      assertSelf(caller, id, 'You can only change your own availability.');
      const user = await loadUser(caller, id);
      if (user.role !== 'donor') throw new AppError('FORBIDDEN', 'Only donors set availability.');
      const at = now();
      const until = body.available ? (body.until ?? null) : null;
      if (until) {
        const latest = today(at + AVAILABILITY_TTL_DAYS * DAY_MS);
        if (until < today(at) || until > latest) {
          throw invalid('body.until', `Choose a date from today to ${latest}.`);
        }
      }
      const updated = await db.transaction(async (tx) => {
        const row = await createDonorsRepository(tx).setAvailability(
          id,
          availabilityChange(body.available, until, at),
        );
        if (!row) throw notFound();
        await createActivityLog(tx).record({
          action: 'availability.updated',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'user',
          targetId: id,
          details: { available: body.available, until },
          requestId: meta.requestId,
        });
        return row;
      });
      return toAvailabilityView(updated, at);
    },
  };
}

export type DonorsService = ReturnType<typeof createDonorsService>;
