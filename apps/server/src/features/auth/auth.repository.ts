import { OTP_MAX_ATTEMPTS } from '@bdms/shared';
import { and, desc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  consentRecords,
  hospitals,
  oneTimeCodes,
  passwordResetTokens,
  pushSubscriptions,
  users,
  type NewUserRow,
  type ResetTokenPurpose,
  type UserRow,
} from '../../db/schema';
import { isEmailTaken, isPhoneTaken } from '../../lib/account-uniqueness';
import { voidOneTimeCodes } from '../../lib/one-time-codes';

/** Live sign-in codes a try is compared with: the daily cap keeps them fewer anyway. */
const DAILY_LOGIN_CODES_CHECKED = 10;

export function createAuthRepository(db: Db) {
  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(eq(users.email, email.toLowerCase()))
        .limit(1);
      return row;
    },

    /** The live-or-not account whose phone is `phone` and was verified by a code. */
    async findByVerifiedPhone(phone: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(eq(users.phone, phone), isNotNull(users.phoneVerifiedAt)))
        .limit(1);
      return row;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    isEmailTaken: (email: string) => isEmailTaken(db, email),
    isPhoneTaken: (phone: string) => isPhoneTaken(db, phone),

    async hasActiveAdmin(): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))
        .limit(1);
      return row !== undefined;
    },

    /** Inserts unless the e-mail is taken; returns the new row or undefined. */
    async insertIfEmailFree(user: NewUserRow): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values({ ...user, email: user.email.toLowerCase() })
        .onConflictDoNothing({ target: users.email })
        .returning();
      return row;
    },

    /** Throws the driver's unique violation for a taken e-mail or phone. */
    async insertUser(user: NewUserRow): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ ...user, email: user.email.toLowerCase() })
        .returning();
      if (!row) throw new Error('users insert returned no row');
      return row;
    },

    async recordConsent(consent: {
      userId: string;
      version: string;
      purposes: string[];
      agreedAt: Date;
      ip: string | null;
      userAgent: string | null;
    }): Promise<void> {
      await db.insert(consentRecords).values(consent);
    },

    /** A hospital account whose hospital an administrator disabled. */
    async isDisabled(user: Pick<UserRow, 'role' | 'hospitalId'>): Promise<boolean> {
      if (user.role !== 'hospital' || !user.hospitalId) return false;
      const [row] = await db
        .select({ disabledAt: hospitals.disabledAt })
        .from(hospitals)
        .where(eq(hospitals.id, user.hospitalId))
        .limit(1);
      return row?.disabledAt != null;
    },

    async markSignedIn(userId: string, at: Date): Promise<void> {
      await db.update(users).set({ lastLoginAt: at }).where(eq(users.id, userId));
    },

    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
    },

    // One-time sign-in codes.

    /** Voids every unconsumed code of the user (a new request, a reset). */
    voidLoginCodes: (userId: string, at: Date) => voidOneTimeCodes(db, userId, 'login', at),

    async insertLoginCode(code: {
      userId: string;
      codeHash: string;
      requestedFrom: string;
      createdAt: Date;
      expiresAt: Date;
      /** The verified phone it was sent to; null when mailed. */
      phone: string | null;
    }): Promise<void> {
      await db.insert(oneTimeCodes).values({ ...code, purpose: 'login' });
    },

    /**
     * Tries a code against the user's live sign-in codes, newest first. Each try is taken from
     * the code's budget for `from` (the asking address's own `attempts`, or `foreign_attempts`
     * for any other address), raised only while below OTP_MAX_ATTEMPTS so concurrent guesses
     * cannot exceed it. The matching code is consumed and the others voided; true on success.
     */
    async useLoginCode(
      userId: string,
      attempt: { at: Date; from: string; isMatch: (codeHash: string) => boolean },
    ): Promise<boolean> {
      const live = await db
        .select({ id: oneTimeCodes.id, requestedFrom: oneTimeCodes.requestedFrom })
        .from(oneTimeCodes)
        .where(
          and(
            eq(oneTimeCodes.userId, userId),
            eq(oneTimeCodes.purpose, 'login'),
            isNull(oneTimeCodes.consumedAt),
            gt(oneTimeCodes.expiresAt, attempt.at),
          ),
        )
        .orderBy(desc(oneTimeCodes.createdAt))
        .limit(DAILY_LOGIN_CODES_CHECKED);
      for (const code of live) {
        const isOwn = code.requestedFrom === null || code.requestedFrom === attempt.from;
        const counter = isOwn ? oneTimeCodes.attempts : oneTimeCodes.foreignAttempts;
        const [tried] = await db
          .update(oneTimeCodes)
          .set(
            isOwn
              ? { attempts: sql`${oneTimeCodes.attempts} + 1` }
              : { foreignAttempts: sql`${oneTimeCodes.foreignAttempts} + 1` },
          )
          .where(
            and(
              eq(oneTimeCodes.id, code.id),
              isNull(oneTimeCodes.consumedAt),
              lt(counter, OTP_MAX_ATTEMPTS),
            ),
          )
          .returning({ codeHash: oneTimeCodes.codeHash });
        if (!tried || !attempt.isMatch(tried.codeHash)) continue;
        const [used] = await db
          .update(oneTimeCodes)
          .set({ consumedAt: attempt.at })
          .where(and(eq(oneTimeCodes.id, code.id), isNull(oneTimeCodes.consumedAt)))
          .returning({ id: oneTimeCodes.id });
        if (!used) return false;
        // The other live codes are void once one is used.
        await db
          .update(oneTimeCodes)
          .set({ consumedAt: attempt.at })
          .where(
            and(
              eq(oneTimeCodes.userId, userId),
              eq(oneTimeCodes.purpose, 'login'),
              isNull(oneTimeCodes.consumedAt),
            ),
          );
        return true;
      }
      return false;
    },

    /** This device's push subscription, when it is the user's (sign-out on a shared phone). */
    async deletePushSubscription(userId: string, endpoint: string): Promise<boolean> {
      const removed = await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
        .returning({ id: pushSubscriptions.id });
      return removed.length > 0;
    },

    // Password reset links.

    async voidResetTokens(userId: string, at: Date): Promise<void> {
      await db
        .update(passwordResetTokens)
        .set({ usedAt: at })
        .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    },

    /**
     * Uses a live reset token of a live account in one step; returns the account and what the
     * link was for, or undefined for an unknown, expired or used token (a second use finds it used).
     */
    async useResetToken(
      tokenHash: string,
      at: Date,
    ): Promise<{ user: UserRow; purpose: ResetTokenPurpose } | undefined> {
      const [token] = await db
        .update(passwordResetTokens)
        .set({ usedAt: at })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, at),
          ),
        )
        .returning({ userId: passwordResetTokens.userId, purpose: passwordResetTokens.purpose });
      if (!token) return undefined;
      const [user] = await db
        .select()
        .from(users)
        .where(and(eq(users.id, token.userId), isNull(users.deletedAt)))
        .limit(1);
      return user ? { user, purpose: token.purpose } : undefined;
    },

    /**
     * Serialises start-up work across server processes sharing one database; the lock is
     * released when the surrounding transaction ends.
     */
    async lockForStartup(name: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
