import { roundKm, type BloodRequest, type MatchedBloodRequest } from '@bdms/shared';
import type { Db } from '../../db/client';
import type {
  BloodRequestHistoryRow,
  BloodRequestMatchRow,
  BloodRequestRow,
} from '../../db/schema';
import { queryAll } from '../../lib/query-all';
import { createBloodRequestsRepository, type MatchCounts } from './blood-requests.repository';

/** The views of a blood request: the full one (owner, verifiers) and a matched donor's. */
export function toFullView(
  row: BloodRequestRow,
  history: Pick<BloodRequestHistoryRow, 'status' | 'notes' | 'by' | 'byRole' | 'at'>[],
  counts: MatchCounts | undefined,
): BloodRequest {
  return {
    id: row.id,
    trackingCode: row.trackingCode,
    status: row.status,
    urgency: row.urgency,
    bloodType: row.bloodType,
    unitsNeeded: row.unitsNeeded,
    patientName: row.patientName,
    hospitalName: row.hospitalName,
    facilityId: row.facilityId,
    city: row.city,
    state: row.state,
    address: row.address,
    pincode: row.pincode,
    latitude: row.latitude,
    longitude: row.longitude,
    contactName: row.contactName,
    contactPhone: row.contactPhone,
    contactEmail: row.contactEmail,
    contactPhoneConfirmed: row.contactPhoneConfirmed,
    requiredBy: row.requiredBy?.toISOString() ?? null,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    history: history.map((item) => ({
      status: item.status,
      notes: item.notes,
      by: item.by,
      byRole: item.byRole,
      at: item.at.toISOString(),
    })),
    matches: counts ?? { notified: 0, accepted: 0, declined: 0 },
    expiresAt: row.expiresAt.toISOString(),
    searchRadiusKm: row.searchRadiusKm,
    locationSource: row.locationSource ?? null,
    ...(row.isDemo ? { isDemo: true as const } : {}),
  };
}

/**
 * What a matched donor sees; the contact, address, point and notes only once they accepted (and
 * not after they withdrew), and never while the request waits for verification (again): a
 * contact changed after verification is not handed out before a verifier checked it.
 */
export function toMatchedView(
  row: BloodRequestRow,
  match: BloodRequestMatchRow,
): MatchedBloodRequest {
  const accepted = match.response === 'accepted' && row.status !== 'pending';
  return {
    id: row.id,
    status: row.status,
    urgency: row.urgency,
    bloodType: row.bloodType,
    unitsNeeded: row.unitsNeeded,
    hospitalName: row.hospitalName,
    city: row.city,
    state: row.state,
    distanceKm: match.distanceKm === null ? null : roundKm(match.distanceKm),
    distanceApproximate: row.locationSource === 'pincode',
    requiredBy: row.requiredBy?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    notifiedAt: match.notifiedAt.toISOString(),
    response: match.response ?? null,
    respondedAt: match.respondedAt?.toISOString() ?? null,
    contactName: accepted ? row.contactName : null,
    contactPhone: accepted ? row.contactPhone : null,
    address: accepted ? row.address : null,
    pincode: accepted ? row.pincode : null,
    latitude: accepted ? row.latitude : null,
    longitude: accepted ? row.longitude : null,
    notes: accepted ? row.notes : null,
  };
}

/** `db` is the pool, or the transaction of the change (one connection: see queryAll). */
export async function fullViews(db: Db, rows: BloodRequestRow[]) {
  const repo = createBloodRequestsRepository(db);
  const ids = rows.map((row) => row.id);
  const [history, counts] = await queryAll(db, [
    () => repo.historyFor(ids),
    () => repo.matchCountsFor(ids),
  ]);
  return rows.map((row) =>
    toFullView(
      row,
      history.filter((item) => item.requestId === row.id),
      counts.get(row.id),
    ),
  );
}

export async function fullView(db: Db, row: BloodRequestRow) {
  const [view] = await fullViews(db, [row]);
  return view!;
}
