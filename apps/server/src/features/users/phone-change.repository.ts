import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { oneTimeCodes, users, type UserRow } from '../../db/schema';
import { consumeCode, takeCodeAttempt, voidOneTimeCodes } from '../../lib/one-time-codes';

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
     * Takes one try of the user's live change (lib/one-time-codes.ts: `attempts` is raised only
     * while below the maximum, so concurrent guesses cannot exceed it). Undefined when none is
     * left to try.
     */
    takeAttempt: (userId: string, at: Date) => takeCodeAttempt(db, { userId }, 'phone_change', at),

    /** Marks the change used; false if it was used meanwhile. */
    consume: (id: string, at: Date) => consumeCode(db, id, at),

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
