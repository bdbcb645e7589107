import type {
  AuthTokens,
  ChangePassword,
  UpdateProfile,
  UpdateUserResult,
  User,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { assertSelfOrAdmin } from '../../lib/access';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { availabilityChange } from '../../lib/availability';
import { tooManyAttempts, type AuthLimiters } from '../../lib/auth-limits';
import { hashPassword, verifyPassword } from '../../lib/password';
import { assertPasswordStrongEnough } from '../../lib/password-policy';
import type { RequestMeta } from '../../lib/request-context';
import { REVOKE_REASONS, type Sessions } from '../../lib/sessions';
import { voidSetPasswordLinks } from '../../lib/set-password-links';
import type { UserViews } from '../../lib/user-view';
import type { AuthUser } from '../../plugins/auth';
import type { PendingPhoneChange, PhoneChange } from './phone-change.service';
import type { PhoneVerification } from './phone-verification.service';
import { createUsersRepository, type ProfileChanges } from './users.repository';

export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Your current password is not correct.';
export const BLOOD_TYPE_LOCKED_MESSAGE =
  'Your blood type can only be changed until your account is approved. Contact support to correct it.';

export interface UsersServiceDeps {
  db: Db;
  sessions: Sessions;
  limiters: Pick<AuthLimiters, 'passwordFailures'>;
  userViews: UserViews;
  phoneChange: PhoneChange;
  phoneVerification: PhoneVerification;
  now?: () => number;
}

const notFound = () => new AppError('NOT_FOUND', 'There is no user with this id.');

export function createUsersService(deps: UsersServiceDeps) {
  const { db, sessions, limiters, userViews } = deps;
  const now = deps.now ?? Date.now;
  const repository = createUsersRepository(db);

  async function load(id: string): Promise<UserRow> {
    const user = await repository.findById(id);
    if (!user || user.deletedAt) throw notFound();
    return user;
  }

  return {
    async getUser(caller: AuthUser, id: string): Promise<User> {
      assertSelfOrAdmin(caller, id);
      return userViews.load(await load(id));
    },

    /**
     * Profile fields and `available`. The blood type is verified at approval, so a donor can
     * change it only while pending (else 409 BLOOD_TYPE_LOCKED); an administrator can always
     * correct it. A new phone number is not applied: it waits for the code sent to it
     * (phone-change.service.ts). Every change is in the activity log, by field name only.
     */
    async updateUser(
      caller: AuthUser,
      id: string,
      changes: UpdateProfile,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<UpdateUserResult> {
      assertSelfOrAdmin(caller, id);
      const target = await load(id);
      const isBloodTypeChange =
        changes.bloodType !== undefined && changes.bloodType !== target.bloodType;
      if (
        isBloodTypeChange &&
        caller.role !== 'admin' &&
        target.role === 'donor' &&
        target.status !== 'pending'
      ) {
        throw new AppError('BLOOD_TYPE_LOCKED', BLOOD_TYPE_LOCKED_MESSAGE, [
          { path: 'body.bloodType', message: BLOOD_TYPE_LOCKED_MESSAGE },
        ]);
      }
      const newPhone =
        changes.phone !== undefined && changes.phone !== target.phone ? changes.phone : undefined;
      if (newPhone !== undefined) deps.phoneChange.assertAvailable();
      const { available, phone: _phone, ...profile } = changes;
      const set: ProfileChanges = { ...profile };
      const fields = Object.keys(set).filter(
        (key) => set[key as keyof ProfileChanges] !== target[key as keyof UserRow],
      );
      // Sending `available` always (re)confirms it, as PUT /users/{id}/availability does.
      if (available !== undefined) {
        Object.assign(set, availabilityChange(available, null, now()));
        fields.push('available');
      }
      if (fields.length === 0 && newPhone === undefined) {
        return { user: await userViews.load(target) };
      }
      let pending: PendingPhoneChange | undefined;
      const updated = await db.transaction(async (tx) => {
        let row = target;
        if (fields.length > 0) {
          const changed = await createUsersRepository(tx).updateProfile(id, set);
          if (!changed) throw notFound();
          row = changed;
          await createActivityLog(tx).record({
            action: 'user.updated',
            actorId: caller.id,
            actorRole: caller.role,
            targetType: 'user',
            targetId: id,
            details: { fields },
            requestId: meta.requestId,
          });
        }
        if (newPhone !== undefined) {
          pending = await deps.phoneChange.request(tx, row, newPhone, caller, meta);
        }
        return row;
      });
      const user = await userViews.load(updated);
      if (!pending) return { user };
      pending.deliver();
      return {
        user,
        phoneChange: { phone: pending.phone, expiresAt: pending.expiresAt.toISOString() },
      };
    },

    confirmPhoneChange: (
      caller: AuthUser,
      id: string,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ) => deps.phoneChange.confirm(caller, id, code, meta),

    sendPhoneVerification: (caller: AuthUser, id: string) =>
      deps.phoneVerification.send(caller, id),

    verifyPhone: (
      caller: AuthUser,
      id: string,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ) => deps.phoneVerification.verify(caller, id, code, meta),

    /**
     * The user themself only. A wrong current password is a 400 on `body.currentPassword`, not a
     * 401, so the client's "401 → refresh" rule does not fire; it counts towards the account's
     * wrong-password limit. Every session is signed out and a new one returned for this device.
     */
    async changePassword(
      caller: AuthUser,
      id: string,
      body: ChangePassword,
      meta: RequestMeta,
    ): Promise<AuthTokens> {
      if (caller.id !== id)
        throw new AppError('FORBIDDEN', 'You can only change your own password.');
      const user = await load(id);
      // Counted before checking and forgotten on success, as for sign-in.
      const wait = await limiters.passwordFailures.consume(user.email);
      if (wait > 0) throw tooManyAttempts(wait);
      if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
        throw new AppError('VALIDATION_ERROR', WRONG_CURRENT_PASSWORD_MESSAGE, [
          { path: 'body.currentPassword', message: WRONG_CURRENT_PASSWORD_MESSAGE },
        ]);
      }
      await limiters.passwordFailures.reset(user.email);
      assertPasswordStrongEnough(body.newPassword, 'body.newPassword', [
        user.email,
        user.fullName,
        user.phone ?? '',
      ]);
      const passwordHash = await hashPassword(body.newPassword);
      return db.transaction(async (tx) => {
        await createUsersRepository(tx).setPasswordHash(id, passwordHash);
        // A reset link mailed before (perhaps to a mailbox someone else reads) must not undo it.
        await voidSetPasswordLinks(tx, id, new Date(now()));
        const tokenVersion = await sessions.revokeAll(id, REVOKE_REASONS.passwordChange, tx);
        const tokens = await sessions.issue(
          { id, role: user.role, tokenVersion },
          { ip: meta.ip, userAgent: meta.userAgent },
          tx,
        );
        await createActivityLog(tx).record({
          action: 'user.password_changed',
          actorId: id,
          actorRole: user.role,
          targetType: 'user',
          targetId: id,
          requestId: meta.requestId,
        });
        return tokens;
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
