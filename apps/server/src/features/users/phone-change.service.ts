import type { User } from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { assertSelfOrAdmin } from '../../lib/access';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { DAILY_LIMITS, tooManyAttempts } from '../../lib/auth-limits';
import type { DailyCounters } from '../../lib/daily-counters';
import { uniqueViolation } from '../../lib/db-errors';
import type { RequestMeta } from '../../lib/request-context';
import type { PhoneCodes } from '../../lib/sms/phone-codes';
import { digestsEqual, hashOtpCode } from '../../lib/tokens';
import type { UserViews } from '../../lib/user-view';
import type { AuthUser } from '../../plugins/auth';
import { createPhoneChangeRepository } from './phone-change.repository';

export const SMS_UNAVAILABLE_MESSAGE =
  'Changing the phone number needs a code sent by SMS to the new number, and SMS is not available yet. Contact support to change it.';
export const INVALID_PHONE_CODE_MESSAGE =
  'This code is not correct or is no longer valid. Check the SMS, or change the number again to get a new code.';
export const PHONE_UNUSABLE_MESSAGE =
  'This phone number cannot be used for this account. Contact support if the number is yours.';

const PURPOSE = 'phone_change';

export interface PhoneChangeDeps {
  db: Db;
  counters: DailyCounters;
  /** Without a provider a phone change is refused (SMS_UNAVAILABLE). */
  phoneCodes: PhoneCodes;
  userViews: UserViews;
  config: Pick<Config, 'jwtSecret'>;
  now?: () => number;
}

/** A requested change, to deliver once its transaction has committed. */
export interface PendingPhoneChange {
  phone: string;
  expiresAt: Date;
  deliver: () => void;
}

/**
 * A new phone number replaces the old one only once a code sent to it is confirmed (issue #14):
 * otherwise anyone could claim a number they do not own, and `PATCH /users/{id}` would answer
 * "is this number registered?" without limit. The request answers the same way whether the
 * number is free or not; the code goes out only to a free number, and uniqueness is checked
 * again when the code is confirmed. Requests are capped per account per day in PostgreSQL.
 */
export function createPhoneChange(deps: PhoneChangeDeps) {
  const now = deps.now ?? Date.now;
  const codeHash = (userId: string, code: string) =>
    hashOtpCode(deps.config.jwtSecret, userId, PURPOSE, code);

  return {
    /** 409 SMS_UNAVAILABLE when no code can be sent, before anything is changed. */
    assertAvailable(): void {
      deps.phoneCodes.assertAvailable('body.phone', SMS_UNAVAILABLE_MESSAGE);
    },

    /** Records the pending change in `tx` (voiding any earlier one); call `deliver` after commit. */
    async request(
      tx: Db,
      target: UserRow,
      phone: string,
      caller: AuthUser,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<PendingPhoneChange> {
      deps.phoneCodes.assertAvailable('body.phone', SMS_UNAVAILABLE_MESSAGE);
      const daily = await deps.counters.take(
        `phone-change:${target.id}`,
        DAILY_LIMITS.phoneChanges,
        tx,
      );
      if (!daily.allowed) throw tooManyAttempts(daily.retryAfterSeconds);
      // Counted for every number, free or not, so the 429 reveals nothing either.
      await deps.phoneCodes.takeDailyBudget(PURPOSE, phone, tx);
      const repo = createPhoneChangeRepository(tx);
      const { code, issuedAt, expiresAt, deliver } = deps.phoneCodes.issue(
        PURPOSE,
        phone,
        target.language,
      );
      await repo.voidPending(target.id, issuedAt);
      await repo.insertPending({
        userId: target.id,
        phone,
        codeHash: codeHash(target.id, code),
        createdAt: issuedAt,
        expiresAt,
      });
      // Read either way, so both answers take the same path; the reply never says which.
      const isTaken = await repo.isPhoneUsedByOther(phone, target.id);
      await createActivityLog(tx).record({
        action: 'user.phone_change_requested',
        actorId: caller.id,
        actorRole: caller.role,
        targetType: 'user',
        targetId: target.id,
        requestId: meta.requestId,
      });
      return {
        phone,
        expiresAt,
        deliver() {
          if (isTaken) return;
          deliver();
        },
      };
    },

    /** Applies the pending change when `code` is its code. */
    async confirm(
      caller: AuthUser,
      id: string,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<User> {
      assertSelfOrAdmin(caller, id);
      const invalid = () =>
        new AppError('INVALID_PHONE_CODE', INVALID_PHONE_CODE_MESSAGE, [
          { path: 'body.code', message: INVALID_PHONE_CODE_MESSAGE },
        ]);
      const at = new Date(now());
      // The try is committed on its own, so a wrong code still counts.
      const attempt = await createPhoneChangeRepository(deps.db).takeAttempt(id, at);
      if (!attempt?.phone || !digestsEqual(codeHash(id, code), attempt.codeHash)) throw invalid();
      const phone = attempt.phone;
      const unusable = () =>
        new AppError('PHONE_TAKEN', PHONE_UNUSABLE_MESSAGE, [
          { path: 'body.code', message: PHONE_UNUSABLE_MESSAGE },
        ]);
      try {
        const updated = await deps.db.transaction(async (tx) => {
          const repo = createPhoneChangeRepository(tx);
          if (!(await repo.consume(attempt.id, at))) throw invalid();
          if (await repo.isPhoneUsedByOther(phone, id)) throw unusable();
          // The code reached this number: it is verified from now on (issue #16).
          const row = await repo.setPhone(id, phone, at);
          await createActivityLog(tx).record({
            action: 'user.phone_changed',
            actorId: caller.id,
            actorRole: caller.role,
            targetType: 'user',
            targetId: id,
            requestId: meta.requestId,
          });
          return row;
        });
        if (!updated) throw new AppError('NOT_FOUND', 'There is no user with this id.');
        return deps.userViews.load(updated);
      } catch (error) {
        if (uniqueViolation(error)?.includes('phone')) throw unusable();
        throw error;
      }
    },
  };
}

export type PhoneChange = ReturnType<typeof createPhoneChange>;
