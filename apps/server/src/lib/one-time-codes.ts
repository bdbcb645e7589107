import { and, eq, isNull } from 'drizzle-orm';
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
