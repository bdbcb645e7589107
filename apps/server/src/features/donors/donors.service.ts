import {
  AVAILABILITY_TTL_DAYS,
  PERMANENT_CONDITIONS,
  evaluateEligibility,
  todayInIndia,
  type Availability,
  type FeatureFlags,
  type OnboardingStatus,
  type Questionnaire,
  type QuestionnaireAnswers,
  type QuestionnaireReviewReason,
  type SetAvailability,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { assertSelf, assertSelfOrAdmin } from '../../lib/access';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { availabilityChange, toAvailabilityView } from '../../lib/availability';
import { createDonorReads } from '../../lib/donor-reads';
import {
  currentEligibility,
  loadDonorFacts,
  onboardingState,
  refreshLastDonation,
  toOnboardingStatus,
  toQuestionnaireView,
} from '../../lib/donor-facts';
import type { Notifier } from '../notifications/notifier';
import { afterDonorInputChanged } from '../../lib/onboarding';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser, CallerFacts } from '../../plugins/auth';
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
/** Dates are Indian dates: "today" is today in Asia/Kolkata, also between 00:00 and 05:30 IST. */
const today = (now: number) => todayInIndia(now);

const PERMANENT = new Set<string>(PERMANENT_CONDITIONS);

/** Permanent conditions (Schedule F XII-B 1.C / NBTC 2017) declared before and not any more. */
function removedPermanentConditions(
  before: QuestionnaireAnswers,
  after: QuestionnaireAnswers,
): string[] {
  return before.conditions.filter(
    (code) => PERMANENT.has(code) && !after.conditions.includes(code),
  );
}

const REVIEW_NOTIFICATION = {
  changed_after_rejection: 'questionnaire.review_reopened',
  permanent_deferral_removed: 'questionnaire.permanent_deferral_removed',
} as const satisfies Record<QuestionnaireReviewReason, string>;

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
  const reads = createDonorReads(db);

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
     *
     * An administrator's review stands while the answers stay the same (saving them again keeps
     * it). Changed answers clear it, and need a new one before the donor is matched again — the
     * administrators are told — when the review had rejected them, or when an approved donor
     * removes a permanent deferral (HIV, hepatitis B/C…: NBTC 2017, such a deferral does not end).
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
        // A review an administrator still has to give stays required until they give it.
        let requiredReason = (previous?.reviewRequiredReason ??
          null) as QuestionnaireReviewReason | null;
        let newReason: QuestionnaireReviewReason | null = null;
        if (previous && isChange) {
          const wasApproved = user.status === 'approved' || user.status === 'suspended';
          if (wasApproved && removedPermanentConditions(previous.answers, answers).length > 0) {
            newReason = 'permanent_deferral_removed';
          } else if (previous.reviewDecision === 'rejected') {
            newReason = 'changed_after_rejection';
          }
          requiredReason = newReason ?? requiredReason;
        }
        const review = isChange ? { requiredReason } : ('keep' as const);
        // The verdict stored with the answers, for the record; replies recompute it.
        const placeholder = evaluateEligibility({
          dateOfBirth: user.dateOfBirth,
          gender: user.gender,
          answers,
          lastDonationAt: user.lastDonationAt,
          now: new Date(at),
        });
        let row = await repo.saveQuestionnaire(
          {
            userId: id,
            answers,
            eligible: placeholder.eligible,
            nextEligibleAt: placeholder.nextEligibleAt
              ? new Date(placeholder.nextEligibleAt)
              : null,
            deferrals: placeholder.deferrals,
            submittedAt: new Date(at),
          },
          review,
        );
        const lastDonationAt = await refreshLastDonation(tx, id);
        const verdict = currentEligibility({ ...user, lastDonationAt }, row, at)!;
        row = await repo.saveQuestionnaire(
          {
            userId: id,
            answers,
            eligible: verdict.eligible,
            nextEligibleAt: verdict.nextEligibleAt ? new Date(verdict.nextEligibleAt) : null,
            deferrals: verdict.deferrals,
            submittedAt: new Date(at),
          },
          'keep',
        );
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
        if (newReason) {
          await createActivityLog(tx).record({
            action: 'questionnaire.review_required',
            actorId: caller.id,
            actorRole: caller.role,
            targetType: 'user',
            targetId: id,
            // The reason only: which condition was removed is health data.
            details: { reason: newReason },
            requestId: meta.requestId,
          });
          await notifier.notifyAdmins(tx, {
            // No name and no condition: notifications may show on a lock screen (web push).
            type: REVIEW_NOTIFICATION[newReason],
            link: `/admin/verification?donor=${id}`,
          });
        }
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

    /** A donor's own availability with what authenticates them, in one statement (issue #20). */
    async selfAvailability(
      id: string,
    ): Promise<{ caller: CallerFacts; value: Availability } | undefined> {
      const found = await reads.userWithCaller(id);
      return found && { caller: found.caller, value: toAvailabilityView(found.user, now()) };
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
