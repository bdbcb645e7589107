import { OTP_MAX_ATTEMPTS } from '@bdms/shared';
import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { oneTimeCodes, users, type UserRow } from '../../db/schema';
import { voidOneTimeCodes } from '../../lib/one-time-codes';

/** Pending phone number changes: one_time_codes rows of purpose `phone_change`. */
export function createPhoneChangeRepository(db: Db) {
  return {
    /** Voids the user's pending changes: only the newest request's code works. */
    voidPending: (userId: string, at: Date) => voidOneTimeCodes(db, userId, 'phone_change', at),

    async insertPending(change: {
      userId: string;
      phone: string;
      codeHash: string;
      createdAt: Date;
      expiresAt: Date;
    }): Promise<void> {
      await db.insert(oneTimeCodes).values({ ...change, purpose: 'phone_change' });
    },

    /**
     * Takes one try of the user's live change: `attempts` is raised only while below the
     * maximum, so concurrent guesses cannot exceed it. Undefined when none is left to try.
     */
    async takeAttempt(
      userId: string,
      at: Date,
    ): Promise<{ id: string; phone: string | null; codeHash: string } | undefined> {
      const [live] = await db
        .select({ id: oneTimeCodes.id })
        .from(oneTimeCodes)
        .where(
          and(
            eq(oneTimeCodes.userId, userId),
            eq(oneTimeCodes.purpose, 'phone_change'),
            isNull(oneTimeCodes.consumedAt),
            gt(oneTimeCodes.expiresAt, at),
          ),
        )
        .orderBy(desc(oneTimeCodes.createdAt))
        .limit(1);
      if (!live) return undefined;
      const [row] = await db
        .update(oneTimeCodes)
        .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
        .where(
          and(
            eq(oneTimeCodes.id, live.id),
            isNull(oneTimeCodes.consumedAt),
            lt(oneTimeCodes.attempts, OTP_MAX_ATTEMPTS),
          ),
        )
        .returning({
          id: oneTimeCodes.id,
          phone: oneTimeCodes.phone,
          codeHash: oneTimeCodes.codeHash,
        });
      return row;
    },

    /** Marks the change used; false if it was used meanwhile. */
    async consume(id: string, at: Date): Promise<boolean> {
      const [row] = await db
        .update(oneTimeCodes)
        .set({ consumedAt: at })
        .where(and(eq(oneTimeCodes.id, id), isNull(oneTimeCodes.consumedAt)))
        .returning({ id: oneTimeCodes.id });
      return row !== undefined;
    },

    async isPhoneUsedByOther(phone: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.phone, phone), ne(users.id, userId)))
        .limit(1);
      return row !== undefined;
    },

    /** Throws the driver's unique violation when the phone was taken meanwhile. */
    async setPhone(userId: string, phone: string, verifiedAt: Date): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ phone, phoneVerifiedAt: verifiedAt })
        .where(and(eq(users.id, userId), isNull(users.deletedAt)))
        .returning();
      return row;
    },
  };
}
