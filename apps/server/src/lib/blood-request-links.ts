import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bloodRequestMatches, bloodRequests } from '../db/schema';
import { AppError } from './app-error';

/**
 * What the donations feature needs from blood requests. It lives in lib/ because features never
 * import each other: a verified donation recorded with a `requestId` is linked to the donor's
 * match (and the match marks the donor as having donated), and a donor's stats count the
 * requests they accepted.
 */

/**
 * Links a recorded donation to the request's match of this donor (pass the transaction). A
 * donor who gave for the request without having been told (a walk-in) gets a match row of
 * round 0, accepted, so the request's counts and the hospital's donor list include them.
 * Unknown request: 404.
 */
export async function linkDonationToRequest(
  tx: Db,
  link: { requestId: string; donorId: string; donationId: string; donatedAt: Date; at: Date },
): Promise<void> {
  const [request] = await tx
    .select({ id: bloodRequests.id, bloodType: bloodRequests.bloodType })
    .from(bloodRequests)
    .where(eq(bloodRequests.id, link.requestId))
    .limit(1);
  if (!request) throw new AppError('NOT_FOUND', 'There is no blood request with this id.');
  const updated = await tx
    .update(bloodRequestMatches)
    .set({ donationId: link.donationId, donatedAt: link.donatedAt })
    .where(
      and(
        eq(bloodRequestMatches.requestId, link.requestId),
        eq(bloodRequestMatches.donorId, link.donorId),
      ),
    )
    .returning({ id: bloodRequestMatches.id });
  if (updated.length > 0) return;
  await tx.insert(bloodRequestMatches).values({
    requestId: link.requestId,
    donorId: link.donorId,
    distanceKm: null,
    exactType: false,
    round: 0,
    notifiedAt: link.at,
    response: 'accepted',
    respondedAt: link.at,
    donationId: link.donationId,
    donatedAt: link.donatedAt,
  });
}

/** Requests the donor accepted (the dashboard's `requestsResponded`). */
export async function countAcceptedRequests(db: Db, donorId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(bloodRequestMatches)
    .where(
      and(
        eq(bloodRequestMatches.donorId, donorId),
        eq(bloodRequestMatches.response, 'accepted'),
        isNotNull(bloodRequestMatches.respondedAt),
      ),
    );
  return Number(row?.total ?? 0);
}
