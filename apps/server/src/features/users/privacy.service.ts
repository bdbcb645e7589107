import type { AccountExport, ActivityPage, DeleteAccount } from '@bdms/shared';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { assertSelfOrAdmin } from '../../lib/access';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { tooManyAttempts, type AuthLimiters } from '../../lib/auth-limits';
import { toAvailabilityView } from '../../lib/availability';
import { loadDonorFacts, toDocumentView, toQuestionnaireView } from '../../lib/donor-facts';
import { verifyPassword } from '../../lib/password';
import type { RequestMeta } from '../../lib/request-context';
import type { UserViews } from '../../lib/user-view';
import type { AuthUser } from '../../plugins/auth';
import { toActivityItem } from '../../lib/activity-messages';
import { createUsersRepository } from './users.repository';

export const WRONG_PASSWORD_MESSAGE = 'Your password is not correct.';
/** The export holds at most this many activity entries, newest first. */
export const EXPORT_ACTIVITY_LIMIT = 5000;

/**
 * What other features keep about a person and must forget on erasure, composed in services.ts
 * (features do not import each other). Runs inside the erasure's transaction, before the
 * account becomes a tombstone.
 */
export interface ErasureParticipant {
  /** Blood requests: cancels their open requests, removes their contact details from all. */
  forgetRequester(
    tx: Db,
    requester: { id: string; fullName: string; phone: string | null; email: string },
    caller: AuthUser,
    meta: Pick<RequestMeta, 'requestId'>,
  ): Promise<number>;
  /**
   * Issue #32 item 6: an erased donor's open matches are voided (their acceptances leave the
   * accepted count; the requester and hospital are told they are not coming).
   */
  voidDonorMatches(
    tx: Db,
    donorId: string,
    why: 'erased',
    caller: AuthUser,
    meta: Pick<RequestMeta, 'requestId'>,
  ): Promise<{ unanswered: number; accepted: number }>;
}

export interface PrivacyServiceDeps {
  db: Db;
  bloodRequests: ErasureParticipant;
  /** Told to deliver after commit (donors on their way to a cancelled request). */
  notifier: { kick(): void };
  userViews: UserViews;
  limiters: Pick<AuthLimiters, 'passwordFailures'>;
  now?: () => number;
  logger?: { error(object: object, message: string): void };
}

const notFound = () => new AppError('NOT_FOUND', 'There is no user with this id.');
const passwordProblem = (message: string) =>
  new AppError('VALIDATION_ERROR', message, [{ path: 'body.password', message }]);

/**
 * The user's rights over their data (Digital Personal Data Protection Act 2023): the activity
 * list, a copy of everything (access/portability), and erasure.
 */
export function createPrivacyService(deps: PrivacyServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const repository = createUsersRepository(db);

  async function load(caller: AuthUser, id: string): Promise<UserRow> {
    assertSelfOrAdmin(caller, id);
    const user = await repository.findById(id);
    if (!user || user.deletedAt) throw notFound();
    return user;
  }

  return {
    async activity(
      caller: AuthUser,
      id: string,
      page: number,
      pageSize: number,
    ): Promise<ActivityPage> {
      await load(caller, id);
      const { items, total } = await repository.listActivity(id, pageSize, (page - 1) * pageSize);
      return { items: items.map(toActivityItem), total, page, pageSize };
    },

    async exportData(caller: AuthUser, id: string, meta: RequestMeta): Promise<AccountExport> {
      const user = await load(caller, id);
      const at = now();
      const [profile, facts, rows, activity] = await Promise.all([
        deps.userViews.load(user),
        loadDonorFacts(db, id),
        repository.exportRows(id),
        repository.listActivity(id, EXPORT_ACTIVITY_LIMIT),
      ]);
      await createActivityLog(db).record({
        action: 'user.data_exported',
        actorId: caller.id,
        actorRole: caller.role,
        targetType: 'user',
        targetId: id,
        requestId: meta.requestId,
      });
      return {
        exportedAt: new Date(at).toISOString(),
        profile,
        account: {
          language: user.language,
          latitude: user.latitude,
          longitude: user.longitude,
          lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
          availabilityConfirmedAt: user.availabilityConfirmedAt?.toISOString() ?? null,
        },
        consents: rows.consents.map((row) => ({
          version: row.version,
          purposes: row.purposes,
          agreedAt: row.agreedAt.toISOString(),
          ip: row.ip,
          userAgent: row.userAgent,
        })),
        documents: facts.documents.map(toDocumentView),
        questionnaire: facts.questionnaire
          ? toQuestionnaireView(facts.questionnaire, user, at)
          : null,
        donations: rows.donations.map((row) => ({
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
        availability: toAvailabilityView(user, at),
        notifications: rows.notifications.map((row) => ({
          id: row.id,
          type: row.type,
          title: row.title,
          message: row.message,
          link: row.link,
          readAt: row.readAt?.toISOString() ?? null,
          createdAt: row.createdAt.toISOString(),
        })),
        pushSubscriptions: rows.subscriptions.map((row) => ({
          service: new URL(row.endpoint).host,
          userAgent: row.userAgent,
          createdAt: row.createdAt.toISOString(),
          lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
        })),
        activity: activity.items.map(toActivityItem),
      };
    },

    /**
     * Erases the account. The user themself confirms with the password (a wrong one is 400 on
     * `body.password` and counts towards the sign-in limit); an administrator may erase donor and
     * hospital accounts. The last administrator cannot erase themself. Their open blood requests
     * are cancelled (donors who accepted are told not to travel) and their contact details and
     * patients' names leave every request they made; their client logs lose the user id.
     */
    async erase(
      caller: AuthUser,
      id: string,
      body: DeleteAccount,
      meta: RequestMeta,
    ): Promise<void> {
      const user = await load(caller, id);
      const isSelf = caller.id === id;
      if (isSelf) {
        if (!body.password) throw passwordProblem('Enter your password to confirm.');
        const wait = await deps.limiters.passwordFailures.consume(user.email);
        if (wait > 0) throw tooManyAttempts(wait);
        if (!(await verifyPassword(user.passwordHash, body.password))) {
          throw passwordProblem(WRONG_PASSWORD_MESSAGE);
        }
        await deps.limiters.passwordFailures.reset(user.email);
        if (user.role === 'admin' && (await repository.countLiveAdmins()) <= 1) {
          throw new AppError('CONFLICT', 'The last administrator account cannot be erased.');
        }
      } else if (user.role === 'admin') {
        throw new AppError(
          'FORBIDDEN',
          'An administrator account can only be erased by its owner.',
        );
      }
      const toDeliver = await db.transaction(async (tx) => {
        const cancelledRequests = await deps.bloodRequests.forgetRequester(
          tx,
          { id, fullName: user.fullName, phone: user.phone, email: user.email },
          caller,
          meta,
        );
        const voided = await deps.bloodRequests.voidDonorMatches(tx, id, 'erased', caller, meta);
        await createUsersRepository(tx).erase(id, new Date(now()));
        // Nothing personal: who was erased is the id, by whom is the role.
        await createActivityLog(tx).record({
          action: 'user.erased',
          actorId: isSelf ? null : caller.id,
          actorRole: caller.role,
          targetType: 'user',
          targetId: id,
          details: { by: isSelf ? 'self' : 'admin', cancelledRequests },
          requestId: meta.requestId,
        });
        return cancelledRequests + voided.accepted;
      });
      // The documents' bytes went with their rows (document_chunks, ON DELETE CASCADE).
      if (toDeliver > 0) deps.notifier.kick();
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
