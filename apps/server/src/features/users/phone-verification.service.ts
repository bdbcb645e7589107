import type { User } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { oneTimeCodes, users, type UserRow } from '../../db/schema';
import { assertSelf } from '../../lib/access';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { DAILY_LIMITS, tooManyAttempts } from '../../lib/auth-limits';
import type { DailyCounters } from '../../lib/daily-counters';
import { consumeCode, takeCodeAttempt, voidCodesOf } from '../../lib/one-time-codes';
import type { RequestMeta } from '../../lib/request-context';
import type { PhoneCodes } from '../../lib/sms/phone-codes';
import { digestsEqual, hashOtpCode } from '../../lib/tokens';
import type { UserViews } from '../../lib/user-view';
import type { AuthUser } from '../../plugins/auth';

const PURPOSE = 'phone_verification';

export const INVALID_VERIFICATION_CODE_MESSAGE =
  'This code is not correct or is no longer valid. Check the SMS, or ask for a new code.';
export const NO_PHONE_MESSAGE = 'There is no phone number on this account to verify.';
export const ALREADY_VERIFIED_MESSAGE = 'This phone number is already verified.';

export interface PhoneVerificationDeps {
  db: Db;
  counters: DailyCounters;
  phoneCodes: PhoneCodes;
  userViews: UserViews;
  config: Pick<Config, 'jwtSecret'>;
  now: () => number;
}

/** A code on its way to the account's phone; `deliver` once the transaction has committed. */
export interface PendingVerification {
  phone: string;
  expiresAt: Date;
  deliver: () => void;
}

/**
 * Verifying the account's phone with a code sent to it by SMS (issue #16): at registration when
 * the `phoneVerification` flag is on, and again on request. Until it is verified the phone may
 * not be used to sign in by code, does not receive SMS or WhatsApp alerts, and does not spare
 * its owner a request's confirmation. A phone change confirmed by code verifies the new number
 * (phone-change.service.ts). Codes: HMAC-hashed, OTP_TTL_MINUTES, OTP_MAX_ATTEMPTS tries, only
 * the newest works; per account and per phone number a day in PostgreSQL.
 */
export function createPhoneVerification(deps: PhoneVerificationDeps) {
  const codeHash = (userId: string, code: string) =>
    hashOtpCode(deps.config.jwtSecret, userId, PURPOSE, code);

  async function issue(tx: Db, user: UserRow): Promise<PendingVerification> {
    const phone = user.phone;
    if (!phone) throw new AppError('CONFLICT', NO_PHONE_MESSAGE);
    const daily = await deps.counters.take(
      `phone-verification:${user.id}`,
      DAILY_LIMITS.phoneVerifications,
      tx,
    );
    if (!daily.allowed) throw tooManyAttempts(daily.retryAfterSeconds);
    await deps.phoneCodes.takeDailyBudget(PURPOSE, phone, tx);
    const issued = deps.phoneCodes.issue(PURPOSE, phone, user.language);
    const at = issued.issuedAt;
    await voidCodesOf(tx, { userId: user.id }, PURPOSE, at);
    await tx.insert(oneTimeCodes).values({
      userId: user.id,
      purpose: PURPOSE,
      phone,
      codeHash: codeHash(user.id, issued.code),
      createdAt: at,
      expiresAt: issued.expiresAt,
    });
    return { phone, expiresAt: issued.expiresAt, deliver: issued.deliver };
  }

  return {
    /** In the registration's transaction: a code to the new account's phone. */
    issue,

    /** `POST /users/{id}/phone/verification`: a new code to the caller's own phone. */
    async send(caller: AuthUser, id: string): Promise<{ phone: string; expiresAt: string }> {
      assertSelf(caller, id);
      deps.phoneCodes.assertAvailable();
      const pending = await deps.db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
        if (!user || user.deletedAt)
          throw new AppError('NOT_FOUND', 'There is no user with this id.');
        if (user.phone && user.phoneVerifiedAt) {
          throw new AppError('CONFLICT', ALREADY_VERIFIED_MESSAGE);
        }
        return issue(tx, user);
      });
      pending.deliver();
      return { phone: pending.phone, expiresAt: pending.expiresAt.toISOString() };
    },

    /** `POST /users/{id}/phone/verify`: the code marks the phone verified. */
    async verify(
      caller: AuthUser,
      id: string,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<User> {
      assertSelf(caller, id);
      const invalid = () =>
        new AppError('INVALID_PHONE_CODE', INVALID_VERIFICATION_CODE_MESSAGE, [
          { path: 'body.code', message: INVALID_VERIFICATION_CODE_MESSAGE },
        ]);
      const at = new Date(deps.now());
      // Committed on its own, so a wrong code still counts.
      const attempt = await takeCodeAttempt(deps.db, { userId: id }, PURPOSE, at);
      if (!attempt || !digestsEqual(codeHash(id, code), attempt.codeHash)) throw invalid();
      const row = await deps.db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
        // The code was sent to the phone the account had then; a change since voids it.
        if (!user || user.deletedAt || !user.phone || user.phone !== attempt.phone) throw invalid();
        if (!(await consumeCode(tx, attempt.id, at))) throw invalid();
        const [updated] = await tx
          .update(users)
          .set({ phoneVerifiedAt: at })
          .where(eq(users.id, id))
          .returning();
        await createActivityLog(tx).record({
          action: 'user.phone_verified',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'user',
          targetId: id,
          requestId: meta.requestId,
        });
        return updated;
      });
      if (!row) throw invalid();
      return deps.userViews.load(row);
    },
  };
}

export type PhoneVerification = ReturnType<typeof createPhoneVerification>;
