import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bloodRequestMatches, notifications } from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

/**
 * Issue #21: `advancedMatching` off (the spec's default) asks donors of the request's exact type
 * only; on, the exact type first and then every type that can give red cells to it.
 */
const subject = useTestApp();
const db = () => subject.db;

async function setFlag(admin: SignedInUser, enabled: boolean) {
  const res = await subject.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/flags',
    headers: admin.headers,
    payload: { advancedMatching: enabled },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A verified A+ request near three donors: A+ (exact), O- and A- (compatible), B+ (not). */
async function matchedTypes(advancedMatching: boolean) {
  const admin = await signIn(subject.app, db(), { role: 'admin' });
  await setFlag(admin, advancedMatching);
  const donors = {
    'A+': await makeDonor(subject.app, db(), { bloodType: 'A+', km: 9 }),
    'O-': await makeDonor(subject.app, db(), { bloodType: 'O-', km: 2 }),
    'A-': await makeDonor(subject.app, db(), { bloodType: 'A-', km: 3 }),
    'B+': await makeDonor(subject.app, db(), { bloodType: 'B+', km: 1 }),
  };
  const created = await subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    headers: admin.headers,
    payload: requestBody({ bloodType: 'A+' }),
  });
  expect(created.statusCode, created.body).toBe(201);
  const request = created.json().data.request as { id: string; status: string };
  expect(request.status).toBe('verified'); // an administrator's request is verified at once
  const matches = await db()
    .select()
    .from(bloodRequestMatches)
    .where(eq(bloodRequestMatches.requestId, request.id));
  const typeOf = new Map(Object.entries(donors).map(([type, donor]) => [donor.row.id, type]));
  const told = await db().select().from(notifications);
  return {
    // In the ranking's order: exact type first, then nearest.
    matched: [...matches]
      .sort((a, b) => Number(b.exactType) - Number(a.exactType) || a.distanceKm! - b.distanceKm!)
      .map((match) => typeOf.get(match.donorId)),
    alerted: told
      .filter((note) => note.type === 'blood_request.match')
      .map((note) => typeOf.get(note.userId))
      .sort(),
  };
}

describe('the advancedMatching flag', () => {
  it('off: only donors of the exact type are asked', async () => {
    const { matched, alerted } = await matchedTypes(false);
    expect(matched).toEqual(['A+']);
    expect(alerted).toEqual(['A+']);
  });

  it('on: the exact type first, then compatible types nearest first; never an incompatible one', async () => {
    const { matched, alerted } = await matchedTypes(true);
    expect(matched).toEqual(['A+', 'O-', 'A-']);
    expect(alerted).toEqual(['A+', 'A-', 'O-']);
  });
});
