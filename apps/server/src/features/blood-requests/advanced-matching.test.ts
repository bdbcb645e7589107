import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bloodRequestMatches, notifications, users } from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

/**
 * Issue #32 item 4 (docs/decisions/011-compatible-donors-by-default.md): whatever the flag, a
 * request asks the exact type first and then every type that can give red cells to it, which
 * fill the round only where the exact type cannot; `advancedMatching` on orders each type tier
 * by the distance weighed by how likely the donor is to come, from their past answers.
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
const matchNotesOf = async (userId: string) =>
  (await db().select().from(notifications).where(eq(notifications.userId, userId))).filter(
    (note) => note.type === 'blood_request.match',
  );

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

async function setMaxDonors(admin: SignedInUser, maxDonorsPerRequest: number) {
  const res = await subject.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/notifications/settings',
    headers: admin.headers,
    payload: { maxDonorsPerRequest },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function createRequest(admin: SignedInUser, bloodType: string) {
  const created = await subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    headers: admin.headers,
    payload: requestBody({ bloodType }),
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().data.request as {
    id: string;
    status: string;
    matches?: { notified: number };
  };
}

const matchesOf = (requestId: string) =>
  db().select().from(bloodRequestMatches).where(eq(bloodRequestMatches.requestId, requestId));

describe('the advancedMatching flag', () => {
  it('off (the default): the exact type first, then compatible types nearest first; never an incompatible one', async () => {
    const { matched, alerted } = await matchedTypes(false);
    expect(matched).toEqual(['A+', 'O-', 'A-']);
    expect(alerted).toEqual(['A+', 'A-', 'O-']);
  });

  it('on: the same donors, every compatible type, never an incompatible one', async () => {
    const { matched, alerted } = await matchedTypes(true);
    expect(matched).toEqual(['A+', 'O-', 'A-']);
    expect(alerted).toEqual(['A+', 'A-', 'O-']);
  });
});

describe('compatible donors by default (issue #32 item 4)', () => {
  it('reaches O−, A− and B− donors for an AB− patient when no AB− donor is near, never an RhD+ one', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donors = {
      'O-': await makeDonor(subject.app, db(), { bloodType: 'O-', km: 4 }),
      'A-': await makeDonor(subject.app, db(), { bloodType: 'A-', km: 6 }),
      'B-': await makeDonor(subject.app, db(), { bloodType: 'B-', km: 8 }),
      'AB+': await makeDonor(subject.app, db(), { bloodType: 'AB+', km: 1 }),
      'A+': await makeDonor(subject.app, db(), { bloodType: 'A+', km: 2 }),
      'O+': await makeDonor(subject.app, db(), { bloodType: 'O+', km: 3 }),
    };
    const request = await createRequest(admin, 'AB-');
    expect(request.status).toBe('verified');
    const typeOf = new Map(Object.entries(donors).map(([type, donor]) => [donor.row.id, type]));
    const matches = await matchesOf(request.id);
    expect(matches.map((match) => typeOf.get(match.donorId)).sort()).toEqual(['A-', 'B-', 'O-']);
    expect(matches.every((match) => !match.exactType && match.round === 1)).toBe(true);
    const alerted = (await db().select().from(notifications))
      .filter((note) => note.type === 'blood_request.match')
      .map((note) => typeOf.get(note.userId))
      .sort();
    expect(alerted).toEqual(['A-', 'B-', 'O-']);
  });

  it('asks only the exact type when it fills the round, and an O− patient only O− donors', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    await setMaxDonors(admin, 2);
    const exactFar = await makeDonor(subject.app, db(), { bloodType: 'A+', km: 20 });
    const exactNear = await makeDonor(subject.app, db(), { bloodType: 'A+', km: 10 });
    const universal = await makeDonor(subject.app, db(), { bloodType: 'O-', km: 1 });
    const sameGroup = await makeDonor(subject.app, db(), { bloodType: 'A-', km: 2 });
    const full = await createRequest(admin, 'A+');
    expect((await matchesOf(full.id)).map((match) => [match.donorId, match.exactType])).toEqual(
      expect.arrayContaining([
        [exactNear.row.id, true],
        [exactFar.row.id, true],
      ]),
    );
    expect(await matchesOf(full.id)).toHaveLength(2);
    expect(await matchNotesOf(universal.row.id)).toEqual([]);
    expect(await matchNotesOf(sameGroup.row.id)).toEqual([]);

    // One exact donor short: the nearest compatible donor fills the round.
    await db().update(users).set({ available: false }).where(eq(users.id, exactFar.row.id));
    const short = await createRequest(admin, 'A+');
    const shortMatches = await matchesOf(short.id);
    expect(
      shortMatches
        .map((match) => [match.donorId, match.exactType])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual(
      [
        [exactNear.row.id, true],
        [universal.row.id, false],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(await matchNotesOf(sameGroup.row.id)).toEqual([]);

    await db().delete(bloodRequestMatches);
    const oPos = await makeDonor(subject.app, db(), { bloodType: 'O+', km: 1 });
    const aPlus = await makeDonor(subject.app, db(), { bloodType: 'A+', km: 2 });
    const oNeg = await createRequest(admin, 'O-');
    // universal (O−) is the only donor an O− patient can receive; O+ and A+ are never asked.
    expect((await matchesOf(oNeg.id)).map((match) => match.donorId)).toEqual([universal.row.id]);
    expect(await matchNotesOf(oPos.row.id)).toEqual([]);
    expect(await matchNotesOf(aPlus.row.id)).toEqual([]);
  });

  it('advancedMatching on ranks a tier by how likely a donor is to come, not by distance alone', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    await setMaxDonors(admin, 1);
    // Near but never says yes (0 of 6), and farther but reliable (5 of 6).
    const silent = await makeDonor(subject.app, db(), { bloodType: 'B+', km: 3 });
    const reliable = await makeDonor(subject.app, db(), { bloodType: 'B+', km: 9 });
    // Past alerts for other requests (O+ requests no donor here can serve), a month ago.
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    for (let index = 0; index < 6; index += 1) {
      const past = await createRequest(admin, 'O+');
      await db()
        .insert(bloodRequestMatches)
        .values([
          {
            requestId: past.id,
            donorId: silent.row.id,
            distanceKm: 3,
            exactType: false,
            round: 1,
            notifiedAt: monthAgo,
            response: index < 3 ? 'declined' : null,
          },
          {
            requestId: past.id,
            donorId: reliable.row.id,
            distanceKm: 9,
            exactType: false,
            round: 1,
            notifiedAt: monthAgo,
            response: index < 5 ? 'accepted' : 'declined',
            respondedAt: monthAgo,
          },
        ]);
    }
    const nearest = await createRequest(admin, 'B+');
    expect((await matchesOf(nearest.id)).map((match) => match.donorId)).toEqual([silent.row.id]);

    await setFlag(admin, true);
    const likely = await createRequest(admin, 'B+');
    const [match] = await matchesOf(likely.id);
    // (9 + 1) km / (6/8) ≈ 13.3 beats (3 + 1) km / (1/8) = 32.
    expect(match).toMatchObject({ donorId: reliable.row.id, exactType: true, round: 1 });
    expect((await matchNotesOf(reliable.row.id)).length).toBe(1);
  });
});
