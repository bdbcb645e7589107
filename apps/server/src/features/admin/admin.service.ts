import {
  AVAILABILITY_TTL_DAYS,
  todayInIndia,
  type AdminDonorPage,
  type DonorDetails,
  type DonorStatsAdmin,
  type DonorStatus,
  type FeatureFlags,
  type ListDonorsQuery,
  type PendingDonorsResult,
  type Questionnaire,
  type RecentActivityItem,
  type RequestsSummary,
  type ReviewQuestionnaire,
  type User,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { ActivityLogRow } from '../../db/schema';
import { toActivityItem } from '../../lib/activity-messages';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import {
  loadDonorFacts,
  onboardingState,
  toDocumentView,
  toQuestionnaireView,
} from '../../lib/donor-facts';
import type { Notifier } from '../notifications/notifier';
import type { NotificationType } from '../notifications/templates';
import type { RequestMeta } from '../../lib/request-context';
import { REVOKE_REASONS, type Sessions } from '../../lib/sessions';
import type { UserViews } from '../../lib/user-view';
import type { AuthUser } from '../../plugins/auth';
import { createAdminRepository, type AdminRepository } from './admin.repository';

const DAY_MS = 86_400_000;
/** The details screen shows this many of the newest donations and activity entries. */
export const DETAILS_DONATIONS_LIMIT = 50;
export const DETAILS_ACTIVITY_LIMIT = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DONOR_ACTIONS = ['approve', 'reject', 'suspend', 'reactivate'] as const;
export type DonorAction = (typeof DONOR_ACTIONS)[number];

interface Transition {
  from: DonorStatus;
  to: DonorStatus;
  /** The activity log's action and the notification's type. */
  event: NotificationType & `donor.${string}`;
  /** Where the donor's notification leads. */
  link: string;
  verb: string;
}

/**
 * API.md "Donor status": pending → approved | rejected (reason); approved → suspended (reason)
 * → approved (reactivate). `rejected → pending` happens only through the donor's own changes
 * (lib/onboarding.ts). Anything else is 409 INVALID_TRANSITION.
 */
export const DONOR_TRANSITIONS: Record<DonorAction, Transition> = {
  approve: {
    from: 'pending',
    to: 'approved',
    event: 'donor.approved',
    link: '/dashboard',
    verb: 'approved',
  },
  reject: {
    from: 'pending',
    to: 'rejected',
    event: 'donor.rejected',
    link: '/onboarding',
    verb: 'rejected',
  },
  suspend: {
    from: 'approved',
    to: 'suspended',
    event: 'donor.suspended',
    link: '/profile',
    verb: 'suspended',
  },
  reactivate: {
    from: 'suspended',
    to: 'approved',
    event: 'donor.reactivated',
    link: '/dashboard',
    verb: 'reactivated',
  },
};

export const ONBOARDING_INCOMPLETE_MESSAGE =
  'This donor has not completed onboarding yet (health questionnaire and, when required, an ID proof), so they cannot be approved.';

export interface AdminServiceDeps {
  db: Db;
  notifier: Pick<Notifier, 'notify' | 'kick'>;
  sessions: Pick<Sessions, 'revokeAll'>;
  flags: { getFlags(): Promise<FeatureFlags> };
  userViews: UserViews;
  /**
   * Issue #32 item 6: a suspended donor's open matches are voided in the suspension's
   * transaction (blood-requests' `voidDonorMatches`, composed in services.ts).
   */
  matches: {
    voidDonorMatches(
      tx: Db,
      donorId: string,
      why: 'suspended',
      caller: AuthUser,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<unknown>;
  };
  now?: () => number;
}

const donorNotFound = () => new AppError('NOT_FOUND', 'There is no donor with this id.');
/** Dates are Indian dates (an availability `until` day ends at 24:00 IST). */
const today = (at: number) => todayInIndia(at);

/** The donor sees the reason inside a sentence that ends with its own full stop. */
const reasonParam = (reason: string) => reason.trim().replace(/[.!?।]+$/u, '');

export function createAdminService(deps: AdminServiceDeps) {
  const { db, notifier, userViews } = deps;
  const now = deps.now ?? Date.now;
  const repository = createAdminRepository(db);

  async function toRecentItems(
    rows: ActivityLogRow[],
    repo: AdminRepository,
  ): Promise<RecentActivityItem[]> {
    const userIds = new Set<string>();
    const hospitalIds = new Set<string>();
    for (const row of rows) {
      if (row.actorId) userIds.add(row.actorId);
      if (row.targetId && UUID.test(row.targetId)) {
        if (row.targetType === 'user') userIds.add(row.targetId);
        if (row.targetType === 'hospital') hospitalIds.add(row.targetId);
      }
    }
    const [people, places] = await Promise.all([
      repo.userLabels([...userIds]),
      repo.hospitalLabels([...hospitalIds]),
    ]);
    const person = new Map(people.map((row) => [row.id, row]));
    const place = new Map(places.map((row) => [row.id, row.name]));
    return rows.map((row) => {
      const actor = row.actorId ? person.get(row.actorId) : undefined;
      let label = row.targetId ?? row.targetType ?? '';
      if (row.targetType === 'user' && row.targetId) {
        label = person.get(row.targetId)?.name ?? 'Unknown user';
      } else if (row.targetType === 'hospital' && row.targetId) {
        label = place.get(row.targetId) ?? 'Unknown hospital';
      } else if (row.targetType === 'settings' && row.targetId === 'notifications') {
        label = 'Notification settings';
      }
      return {
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actorId
          ? {
              id: row.actorId,
              name: actor?.name ?? 'Deleted user',
              role: row.actorRole ?? actor?.role ?? 'unknown',
            }
          : null,
        action: row.action,
        target: row.targetType ? { type: row.targetType, id: row.targetId ?? '', label } : null,
        details: row.details ?? null,
      };
    });
  }

  return {
    /**
     * Moves a donor along the status machine, in one transaction with the activity log entry
     * and the donor's notification (in-app, push, and e-mail while mail is on). A suspension
     * also signs the donor out everywhere. Approval needs onboarding completed.
     */
    async changeStatus(
      caller: AuthUser,
      id: string,
      action: DonorAction,
      reason: string | null,
      meta: RequestMeta,
    ): Promise<User> {
      const transition = DONOR_TRANSITIONS[action];
      // Read before the transaction: the flags service does not read through it.
      const flags = await deps.flags.getFlags();
      const updated = await db.transaction(async (tx) => {
        const repo = createAdminRepository(tx);
        const donor = await repo.lockDonor(id);
        if (!donor) throw donorNotFound();
        if (donor.status !== transition.from) {
          throw new AppError(
            'INVALID_TRANSITION',
            `A ${donor.status} donor cannot be ${transition.verb}; only ${transition.from} donors can.`,
            { status: donor.status, action },
          );
        }
        if (action === 'approve') {
          const state = onboardingState(await loadDonorFacts(tx, id), flags.documentUpload);
          if (!state.onboardingCompleted) {
            throw new AppError('ONBOARDING_INCOMPLETE', ONBOARDING_INCOMPLETE_MESSAGE, {
              questionnaireCompleted: state.questionnaireCompleted,
              documentsUploaded: state.documentsUploaded,
              idProofRequired: state.idProofRequired,
            });
          }
        }
        const change: Parameters<AdminRepository['setStatus']>[1] = { status: transition.to };
        if (action === 'approve')
          Object.assign(change, { rejectionReason: null, suspensionReason: null });
        if (action === 'reject') change.rejectionReason = reason;
        if (action === 'suspend') change.suspensionReason = reason;
        if (action === 'reactivate') change.suspensionReason = null;
        const row = await repo.setStatus(id, change);
        if (!row) throw donorNotFound();
        if (action === 'suspend') {
          await deps.sessions.revokeAll(id, REVOKE_REASONS.suspension, tx);
          // A YES to an alert sent before the suspension must find nothing to accept, and the
          // hospital must stop counting on a donor it will turn away.
          await deps.matches.voidDonorMatches(tx, id, 'suspended', caller, meta);
        }
        await createActivityLog(tx).record({
          action: transition.event,
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'user',
          targetId: id,
          details: { from: donor.status, to: transition.to, ...(reason ? { reason } : {}) },
          requestId: meta.requestId,
        });
        await notifier.notify(tx, id, {
          type: transition.event,
          params: reason ? { reason: reasonParam(reason) } : {},
          link: transition.link,
          reachOut: true,
        });
        return row;
      });
      notifier.kick();
      return userViews.load(updated, db, flags);
    },

    /** An administrator's review of the donor's health questionnaire (logged, not notified). */
    async reviewQuestionnaire(
      caller: AuthUser,
      id: string,
      body: ReviewQuestionnaire,
      meta: RequestMeta,
    ): Promise<Questionnaire> {
      return db.transaction(async (tx) => {
        const repo = createAdminRepository(tx);
        const donor = await repo.findDonor(id);
        if (!donor) throw donorNotFound();
        if (!(await repo.findQuestionnaire(id))) {
          throw new AppError('NOT_FOUND', 'This donor has not submitted a health questionnaire.');
        }
        const row = await repo.saveReview(id, {
          reviewDecision: body.decision,
          reviewNotes: body.notes ? body.notes : null,
          reviewedAt: new Date(now()),
          reviewedBy: caller.id,
        });
        if (!row) throw donorNotFound();
        await createActivityLog(tx).record({
          action: 'questionnaire.reviewed',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'user',
          targetId: id,
          // The decision only: notes may describe health and stay with the questionnaire.
          details: { decision: body.decision, hasNotes: Boolean(body.notes) },
          requestId: meta.requestId,
        });
        return toQuestionnaireView(row, donor, now());
      });
    },

    async listDonors(query: ListDonorsQuery): Promise<AdminDonorPage> {
      const { status, bloodType, q, page, pageSize } = query;
      const flags = await deps.flags.getFlags();
      const { rows, total } = await repository.listDonors(
        { status, bloodType, q: q || undefined },
        page,
        pageSize,
      );
      return { items: await userViews.loadMany(rows, db, flags), total, page, pageSize };
    },

    async listPending(page: number, pageSize: number): Promise<PendingDonorsResult> {
      const flags = await deps.flags.getFlags();
      const { rows, total } = await repository.listPending(flags.documentUpload, page, pageSize);
      return { donors: await userViews.loadMany(rows, db, flags), total, page, pageSize };
    },

    async donorStats(): Promise<DonorStatsAdmin> {
      const at = now();
      return repository.donorStats({
        since7d: new Date(at - 7 * DAY_MS),
        lapsedBefore: new Date(at - AVAILABILITY_TTL_DAYS * DAY_MS),
        today: today(at),
      });
    },

    /**
     * Everything about one donor, contact details included, for an administrator. Looking is
     * itself recorded (`donor.viewed`): administrators see personal data, and that is audited.
     */
    async donorDetails(caller: AuthUser, id: string, meta: RequestMeta): Promise<DonorDetails> {
      const donor = await repository.findDonor(id);
      if (!donor) throw donorNotFound();
      await createActivityLog(db).record({
        action: 'donor.viewed',
        actorId: caller.id,
        actorRole: caller.role,
        targetType: 'user',
        targetId: id,
        requestId: meta.requestId,
      });
      const at = now();
      const [view, docs, facts, donationRows, activity] = await Promise.all([
        userViews.load(donor),
        repository.listDocuments(id),
        loadDonorFacts(db, id),
        repository.listDonations(id, DETAILS_DONATIONS_LIMIT),
        repository.listDonorActivity(id, DETAILS_ACTIVITY_LIMIT),
      ]);
      return {
        donor: view,
        documents: docs.map(toDocumentView),
        questionnaire: facts.questionnaire
          ? toQuestionnaireView(facts.questionnaire, donor, at)
          : null,
        donations: donationRows.map((row) => ({
          id: row.id,
          donatedAt: row.donatedAt.toISOString(),
          units: row.units,
          place: row.place,
          facilityId: row.facilityId,
          requestId: row.requestId,
          verified: row.verified,
          certificateAvailable: row.verified && row.certificateNumber !== null,
          certificateNumber: row.certificateNumber,
        })),
        activity: activity.map(toActivityItem),
      };
    },

    async recentActivity(limit: number): Promise<RecentActivityItem[]> {
      return toRecentItems(await repository.listRecentActivity(limit), repository);
    },

    async requestsSummary(): Promise<RequestsSummary> {
      return repository.summarizeBloodRequests(new Date(now() - 30 * DAY_MS));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
