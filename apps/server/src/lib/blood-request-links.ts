import { and, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bloodRequestMatches, bloodRequests, hospitals, users } from '../db/schema';
import { AppError } from './app-error';

/**
 * What the donations feature needs from blood requests. It lives in lib/ because features never
 * import each other: a verified donation recorded with a `requestId` is linked to the donor's
 * match (and the match marks the donor as having donated), and a donor's stats count the
 * requests they accepted.
 */

/** Lower-case letters and digits only: "Gandhi Hospital," and "gandhi  hospital" are one name. */
export function hospitalNameKey(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface HospitalInfo {
  id: string;
  name: string;
  facilityId: string | null;
  city: string;
}

/** The hospital a hospital account speaks for (null for other accounts). */
export async function hospitalOfUser(db: Db, userId: string): Promise<HospitalInfo | null> {
  const [row] = await db
    .select({
      id: hospitals.id,
      name: hospitals.name,
      facilityId: hospitals.facilityId,
      city: hospitals.city,
    })
    .from(users)
    .innerJoin(hospitals, eq(hospitals.id, users.hospitalId))
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** Requests a hospital account sees: its own, its hospital's, and those naming its facility or name+city. */
export function hospitalScope(userId: string, hospital: HospitalInfo | null): SQL {
  const parts: SQL[] = [eq(bloodRequests.createdBy, userId)];
  if (hospital) {
    parts.push(eq(bloodRequests.hospitalId, hospital.id));
    if (hospital.facilityId) parts.push(eq(bloodRequests.facilityId, hospital.facilityId));
    parts.push(
      and(
        eq(bloodRequests.hospitalNameKey, hospitalNameKey(hospital.name)),
        sql`lower(${bloodRequests.city}) = lower(${hospital.city})`,
      ) as SQL,
    );
  }
  return or(...parts) as SQL;
}

/**
 * Whether a hospital account may record donations against this request: it is one of its
 * hospital's (the same scope as its list). Unknown request: 404.
 */
export async function isRequestOfHospital(
  db: Db,
  requestId: string,
  userId: string,
): Promise<boolean> {
  const [row] = await db
    .select({
      id: bloodRequests.id,
      inScope: sql<boolean>`${hospitalScope(userId, await hospitalOfUser(db, userId))}`,
    })
    .from(bloodRequests)
    .where(eq(bloodRequests.id, requestId))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'There is no blood request with this id.');
  return row.inScope === true;
}

/** Whether the donor accepted this request (a hospital's donation for it is then not a walk-in). */
export async function hasAccepted(db: Db, requestId: string, donorId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bloodRequestMatches.id })
    .from(bloodRequestMatches)
    .where(
      and(
        eq(bloodRequestMatches.requestId, requestId),
        eq(bloodRequestMatches.donorId, donorId),
        eq(bloodRequestMatches.response, 'accepted'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

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

/**
 * Requests the donor accepted (the dashboard's `requestsResponded`), as a scalar subquery for
 * the statement that reads the donor (lib/donor-reads.ts); `donorId` is a column or a value.
 */
export function acceptedRequestsOf(donorId: SQLWrapper): SQL<number> {
  return sql<number>`(
    select count(*)::int from blood_request_matches m
    where m.donor_id = ${donorId} and m.response = 'accepted' and m.responded_at is not null
  )`;
}
