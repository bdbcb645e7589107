import { OTP_MAX_ATTEMPTS } from '@bdms/shared';
import { and, desc, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { oneTimeCodes, type OneTimeCodePurpose } from '../db/schema';

/** Voids every unconsumed code of the user for one purpose (a newer request, a reset). */
export async function voidOneTimeCodes(
  db: Db,
  userId: string,
  purpose: OneTimeCodePurpose,
  at: Date,
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ consumedAt: at })
    .where(
      and(
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumedAt),
      ),
    );
}

/** Whose code: an account's, or (for `request_confirmation`) a blood request's. */
export type CodeOwner = { userId: string } | { bloodRequestId: string };

function ownerCondition(owner: CodeOwner): SQL {
  return 'userId' in owner
    ? eq(oneTimeCodes.userId, owner.userId)
    : eq(oneTimeCodes.bloodRequestId, owner.bloodRequestId);
}

/** Voids the owner's unconsumed codes of `purpose`: only the newest one works. */
export async function voidCodesOf(
  db: Db,
  owner: CodeOwner,
  purpose: OneTimeCodePurpose,
  at: Date,
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ consumedAt: at })
    .where(
      and(
        ownerCondition(owner),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumedAt),
      ),
    );
}

/**
 * Takes one try of the owner's newest live code of `purpose`: `attempts` is raised only while
 * below OTP_MAX_ATTEMPTS, in one UPDATE, so concurrent guesses cannot exceed it. Undefined when
 * there is no live code or its tries are spent. Run it outside the caller's transaction, so a
 * wrong code still counts.
 */
export async function takeCodeAttempt(
  db: Db,
  owner: CodeOwner,
  purpose: OneTimeCodePurpose,
  at: Date,
): Promise<{ id: string; phone: string | null; codeHash: string } | undefined> {
  const [live] = await db
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(
      and(
        ownerCondition(owner),
        eq(oneTimeCodes.purpose, purpose),
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
}

/** Marks a code used; false if it was used (or voided) meanwhile. */
export async function consumeCode(db: Db, id: string, at: Date): Promise<boolean> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ consumedAt: at })
    .where(and(eq(oneTimeCodes.id, id), isNull(oneTimeCodes.consumedAt)))
    .returning({ id: oneTimeCodes.id });
  return row !== undefined;
}

/** The newest live code of `purpose` of the owner: its expiry, for "a code was sent". */
export async function liveCodeExpiry(
  db: Db,
  owner: CodeOwner,
  purpose: OneTimeCodePurpose,
  at: Date,
): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: oneTimeCodes.expiresAt })
    .from(oneTimeCodes)
    .where(
      and(
        ownerCondition(owner),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, at),
        lt(oneTimeCodes.attempts, OTP_MAX_ATTEMPTS),
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  return row?.expiresAt ?? null;
}
