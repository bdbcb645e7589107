import { matchedBloodRequestSchema } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  bloodRequestMatches,
  bloodRequests,
  notifications,
  pincodes,
  users,
} from '../../db/schema';
import {
  makeDonor,
  makeHospital,
  northOfHyderabad,
  requestBody,
} from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

const MINUTE = 60_000;
const DAY = 86_400_000;
let testDb: TestDatabase;
let subject: TestApp;
let clock: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  clock = Date.now();
  subject = await createTestApp({
    database: testDb.database,
    services: { backgroundJobs: false, now: () => clock },
  });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
let addressSequence = 0;

async function guestRequest(overrides: Record<string, unknown> = {}) {
  addressSequence += 1;
  const body = requestBody(overrides);
  const res = await subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: body,
    remoteAddress: `192.0.2.${addressSequence % 250}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { body, request: res.json().data.request };
}

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    payload,
  });
}

async function verify(admin: SignedInUser, id: string) {
  const res = await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
    status: 'verified',
    notes: 'Called the hospital',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.request;
}

const matchNotes = async (userId: string) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'blood_request.match')));

describe('matching near Hyderabad', () => {
  it('tells the compatible donor nearby, and nobody else; contact only after accepting', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const near = await makeDonor(subject.app, db(), {
      fullName: 'Arjun Reddy',
      km: 5,
      now: clock,
    });
    const incompatible = await makeDonor(subject.app, db(), {
      bloodType: 'A+',
      km: 5,
      now: clock,
    });
    const recent = await makeDonor(subject.app, db(), {
      km: 4,
      lastDonationDaysAgo: 60,
      now: clock,
    });
    const far = await makeDonor(subject.app, db(), { km: 100, now: clock });
    const pending = await makeDonor(subject.app, db(), {
      km: 3,
      status: 'pending',
      now: clock,
    });
    const unavailable = await makeDonor(subject.app, db(), {
      km: 3,
      available: false,
      now: clock,
    });

    const { body, request } = await guestRequest({
      bloodType: 'O-',
      urgency: 'critical',
    });
    // Pending: nobody is told before verification.
    expect(await matchNotes(near.row.id)).toHaveLength(0);
    const verified = await verify(admin, request.id);
    expect(verified).toMatchObject({
      status: 'verified',
      searchRadiusKm: 25,
      matches: { notified: 1 },
    });

    const [note] = await matchNotes(near.row.id);
    expect(note).toBeDefined();
    expect(note!.title).toContain('Critical');
    expect(note!.message).toContain('O-');
    expect(note!.message).toContain('Gandhi Hospital, Secunderabad');
    expect(note!.message).toContain('about 5 km');
    expect(note!.message).not.toContain(body.contactPhone.slice(-6));
    for (const donor of [incompatible, recent, far, pending, unavailable]) {
      expect(await matchNotes(donor.row.id)).toHaveLength(0);
    }
    const [match] = await db().select().from(bloodRequestMatches);
    expect(match).toMatchObject({
      donorId: near.row.id,
      exactType: true,
      round: 1,
      response: null,
    });
    expect(match!.distanceKm).toBeCloseTo(5, 1);

    // Before accepting: no contact, in the request and in the list.
    const before = await call('GET', `/api/v1/blood-requests/${request.id}`, near);
    expect(before.statusCode, before.body).toBe(200);
    const { view: kind, ...matched } = before.json().data.request;
    expect(kind).toBe('matched');
    const view = matchedBloodRequestSchema.strict().parse(matched);
    expect(view).toMatchObject({
      contactName: null,
      contactPhone: null,
      address: null,
      distanceKm: 5,
    });
    expect(before.body).not.toContain(body.contactPhone.slice(-6));
    const list = await call('GET', '/api/v1/blood-requests', near);
    expect(list.json().data.items).toHaveLength(1);
    expect(list.json().data.items[0]).toMatchObject({
      view: 'matched',
      contactPhone: null,
    });
    expect(list.body).not.toContain(body.contactPhone.slice(-6));
    // Only a donor who was asked can respond: guests 401, administrators 403, other donors 404.
    const respondUrl = `/api/v1/blood-requests/${request.id}/respond`;
    expect((await call('POST', respondUrl, undefined, { response: 'accepted' })).statusCode).toBe(
      401,
    );
    expect((await call('POST', respondUrl, admin, { response: 'accepted' })).statusCode).toBe(403);
    const notAsked = await call('POST', `/api/v1/blood-requests/${request.id}/respond`, far, {
      response: 'accepted',
    });
    expect(notAsked.statusCode).toBe(404);

    const accept = await call('POST', `/api/v1/blood-requests/${request.id}/respond`, near, {
      response: 'accepted',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json().data.request).toMatchObject({
      response: 'accepted',
      contactName: 'Ravi Kumar',
      contactPhone: `+91${body.contactPhone}`,
      address: 'Musheerabad, Secunderabad',
      status: 'in_progress',
    });
    // The same answer again is idempotent; the other one is a conflict.
    const again = await call('POST', `/api/v1/blood-requests/${request.id}/respond`, near, {
      response: 'accepted',
    });
    expect(again.statusCode).toBe(200);
    const flip = await call('POST', `/api/v1/blood-requests/${request.id}/respond`, near, {
      response: 'declined',
    });
    expect(flip.statusCode).toBe(409);

    const tracking = await subject.app.inject({
      url: `/api/v1/blood-requests/track/${request.trackingCode}`,
    });
    expect(tracking.json().data).toMatchObject({
      status: 'in_progress',
      matches: { notified: 1, accepted: 1, declined: 0 },
      donorsOnTheirWay: [{ firstName: 'Arjun' }],
    });
    expect(tracking.body).not.toContain('Reddy');
    expect(tracking.body).not.toContain(body.contactPhone.slice(-6));

    const stats = await call('GET', `/api/v1/users/${near.row.id}/stats`, near);
    expect(stats.json().data.requestsResponded).toBe(1);

    // Cancelled: the donor on their way is told not to travel.
    await call('PUT', `/api/v1/blood-requests/${request.id}/status`, admin, {
      status: 'cancelled',
    });
    const closed = await db()
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, near.row.id), eq(notifications.type, 'blood_request.closed')),
      );
    expect(closed).toHaveLength(1);
    expect(closed[0]!.message).toContain('cancelled');
  });

  it('lets the hospital reach accepted donors and record the donation, which hides the donor', async () => {
    // Compatible types are asked after the exact type by default (issue #32 item 4).
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const hospital = await makeHospital(subject.app, db(), {
      name: 'Gandhi Hospital',
      city: 'Secunderabad',
    });
    const otherHospital = await makeHospital(subject.app, db(), {
      name: 'Apollo',
      city: 'Hyderabad',
    });
    const donor = await makeDonor(subject.app, db(), {
      fullName: 'Meena Rao',
      km: 5,
      now: clock,
    });
    const { request } = await guestRequest({ bloodType: 'O+', unitsNeeded: 1 });
    await verify(admin, request.id);
    await call('POST', `/api/v1/blood-requests/${request.id}/respond`, donor, {
      response: 'accepted',
    });

    const donors = await call('GET', `/api/v1/blood-requests/${request.id}/donors`, hospital);
    expect(donors.statusCode, donors.body).toBe(200);
    expect(donors.json().data.items).toEqual([
      expect.objectContaining({
        donorId: donor.row.id,
        name: 'Meena Rao',
        phone: donor.row.phone,
        donated: false,
      }),
    ]);
    expect(
      (await call('GET', `/api/v1/blood-requests/${request.id}/donors`, otherHospital)).statusCode,
    ).toBe(403);
    expect(
      (await call('GET', `/api/v1/blood-requests/${request.id}/donors`, donor)).statusCode,
    ).toBe(403);
    const logged = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'blood_request.donor_contacts_viewed'));
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).not.toContain(String(donor.row.phone));

    const recorded = await call('POST', '/api/v1/donations', hospital, {
      donorId: donor.row.id,
      donatedAt: new Date(clock).toISOString(),
      requestId: request.id,
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const donation = recorded.json().data.donation;
    expect(donation).toMatchObject({
      requestId: request.id,
      verified: true,
      certificateAvailable: true,
    });
    const certificate = await call('GET', `/api/v1/donations/${donation.id}/certificate`, donor);
    expect(certificate.statusCode).toBe(200);
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.lastDonationAt?.getTime()).toBe(clock);
    const [match] = await db().select().from(bloodRequestMatches);
    expect(match).toMatchObject({ donationId: donation.id });
    expect(
      (await call('GET', `/api/v1/blood-requests/${request.id}/donors`, hospital)).json().data
        .items[0].donated,
    ).toBe(true);
    const tracking = await subject.app.inject({
      url: `/api/v1/blood-requests/track/${request.trackingCode}`,
    });
    expect(tracking.json().data.donorsOnTheirWay).toEqual([]);

    // The next request does not reach the donor who just gave.
    const { request: next } = await guestRequest({
      bloodType: 'O+',
      hospitalName: 'Yashoda Hospital',
    });
    const verifiedNext = await verify(admin, next.id);
    expect(verifiedNext.matches.notified).toBe(0);

    // An unknown request id is refused.
    const unknown = await call('POST', '/api/v1/donations', hospital, {
      donorId: donor.row.id,
      donatedAt: new Date(clock).toISOString(),
      requestId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('ranks the exact type first and never asks a donor who declined again', async () => {
    // Compatible types are asked after the exact type by default (issue #32 item 4).
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const universal = await makeDonor(subject.app, db(), {
      bloodType: 'O-',
      km: 1,
      now: clock,
    });
    const exact = await makeDonor(subject.app, db(), {
      bloodType: 'A+',
      km: 20,
      now: clock,
    });
    const { request } = await guestRequest({ bloodType: 'A+' });
    await verify(admin, request.id);
    const matches = await db().select().from(bloodRequestMatches);
    expect(matches.map((m) => [m.donorId, m.exactType])).toEqual(
      expect.arrayContaining([
        [exact.row.id, true],
        [universal.row.id, false],
      ]),
    );
    const declined = await call('POST', `/api/v1/blood-requests/${request.id}/respond`, universal, {
      response: 'declined',
    });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().data.request.contactPhone).toBeNull();
    clock += 31 * MINUTE;
    await subject.app.services.bloodRequestsJob.runOnce();
    expect(await matchNotes(universal.row.id)).toHaveLength(1);
  });

  it('skips a donor alerted twice in 7 days for a third request (fairness)', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), {
      bloodType: 'O-',
      km: 2,
      now: clock,
    });
    for (const hospitalName of ['Gandhi Hospital', 'Osmania Hospital', 'Yashoda Hospital']) {
      const { request } = await guestRequest({ bloodType: 'O-', hospitalName });
      await verify(admin, request.id);
    }
    expect(await matchNotes(donor.row.id)).toHaveLength(2);
    // A week later they can be asked again (a new session: the fake clock moved past the token's hour).
    clock += 7 * DAY + MINUTE;
    const laterAdmin = await signIn(subject.app, db(), { role: 'admin' });
    const { request } = await guestRequest({
      bloodType: 'O-',
      hospitalName: 'KIMS Hospital',
    });
    await verify(laterAdmin, request.id);
    expect(await matchNotes(donor.row.id)).toHaveLength(3);
  });

  it('starts wider around an approximate PIN code point, so a donor near the real place is told', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    // 500003's point is 35 km north of the request's real place (a bad office coordinate); a
    // donor 30 km from that point is 5 km from the real place.
    await db()
      .insert(pincodes)
      .values([
        { pincode: '500003', ...northOfHyderabad(35), confidence: 'low', source: 'geonames' },
        { pincode: '500001', ...northOfHyderabad(0), confidence: 'high', source: 'india-post' },
      ]);
    const donor = await makeDonor(subject.app, db(), { km: 5, now: clock });
    const { request } = await guestRequest({
      latitude: undefined,
      longitude: undefined,
      pincode: '500003',
    });
    expect(request.locationSource).toBe('pincode');
    await verify(admin, request.id);
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
    // 25 km around a low-confidence point becomes 50 km (twice, at least 20 km more).
    expect(row!.searchRadiusKm).toBe(50);
    expect(await matchNotes(donor.row.id)).toHaveLength(1);
    // The donor is told the distance is only approximate.
    const seen = await call('GET', `/api/v1/blood-requests/${request.id}`, donor);
    expect(seen.json().data.request).toMatchObject({ view: 'matched', distanceApproximate: true });

    // Around a high-confidence point the radius stays the administrator's 25 km.
    const sure = await guestRequest({
      latitude: undefined,
      longitude: undefined,
      pincode: '500001',
    });
    await verify(admin, sure.request.id);
    const [kept] = await db()
      .select()
      .from(bloodRequests)
      .where(eq(bloodRequests.id, sure.request.id));
    expect(kept!.searchRadiusKm).toBe(25);
  });

  it('widens the search 30 minutes after the last round and reaches a donor at 40 km', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const distant = await makeDonor(subject.app, db(), { km: 40, now: clock });
    const tooFar = await makeDonor(subject.app, db(), { km: 120, now: clock });
    const { request } = await guestRequest({ bloodType: 'O-' });
    await verify(admin, request.id);
    expect(await matchNotes(distant.row.id)).toHaveLength(0);

    clock += 29 * MINUTE;
    expect(await subject.app.services.bloodRequestsJob.runOnce()).toEqual({
      expired: 0,
      widened: 0,
    });
    clock += 2 * MINUTE;
    expect(await subject.app.services.bloodRequestsJob.runOnce()).toEqual({
      expired: 0,
      widened: 1,
    });
    expect(await matchNotes(distant.row.id)).toHaveLength(1);
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
    expect(row).toMatchObject({ searchRadiusKm: 50, matchRound: 2 });
    const [match] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.donorId, distant.row.id));
    expect(match!.round).toBe(2);

    // 50 → 100 km, then no more rounds; 120 km is never reached.
    clock += 31 * MINUTE;
    expect((await subject.app.services.bloodRequestsJob.runOnce()).widened).toBe(1);
    clock += 31 * MINUTE;
    expect((await subject.app.services.bloodRequestsJob.runOnce()).widened).toBe(0);
    expect(await matchNotes(tooFar.row.id)).toHaveLength(0);
    expect(await matchNotes(distant.row.id)).toHaveLength(1);
    const tracking = await subject.app.inject({
      url: `/api/v1/blood-requests/track/${request.trackingCode}`,
    });
    expect(tracking.json().data.searchRadiusKm).toBe(100);
  });

  it('does not widen a request that has all its donors', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { km: 3, now: clock });
    const { request } = await guestRequest({ bloodType: 'O-', unitsNeeded: 1 });
    await verify(admin, request.id);
    await call('POST', `/api/v1/blood-requests/${request.id}/respond`, donor, {
      response: 'accepted',
    });
    clock += 31 * MINUTE;
    expect((await subject.app.services.bloodRequestsJob.runOnce()).widened).toBe(0);
  });

  it('places a donor without a point of their own at their PIN code centroid', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { km: 5, now: clock });
    await db()
      .update(users)
      .set({ latitude: null, longitude: null, pincode: '500003' })
      .where(eq(users.id, donor.row.id));
    // A centroid 6 km north of the request.
    await db()
      .insert(pincodes)
      .values({
        pincode: '500003',
        district: 'Hyderabad',
        state: 'Telangana',
        ...northOfHyderabad(6),
      });
    const { request } = await guestRequest({ bloodType: 'O-' });
    await verify(admin, request.id);
    const [match] = await db().select().from(bloodRequestMatches);
    expect(match?.donorId).toBe(donor.row.id);
    expect(match!.distanceKm).toBeCloseTo(6, 1);
  });
});

describe('expiry', () => {
  it('expires open requests past their time, with a history entry by the system', async () => {
    const { request } = await guestRequest({
      requiredBy: new Date(Date.now() + 2 * 3600_000).toISOString(),
    });
    const { request: later } = await guestRequest({
      hospitalName: 'Yashoda Hospital',
    });
    clock += 2 * 3600_000 + MINUTE;
    expect((await subject.app.services.bloodRequestsJob.runOnce()).expired).toBe(1);
    clock += 72 * 3600_000;
    expect((await subject.app.services.bloodRequestsJob.runOnce()).expired).toBe(1);
    const tracking = await subject.app.inject({
      url: `/api/v1/blood-requests/track/${request.trackingCode}`,
    });
    expect(tracking.json().data.status).toBe('expired');
    expect(tracking.json().data.history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'expired',
    ]);
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, later.id));
    expect(row!.status).toBe('expired');
    expect((await subject.app.services.bloodRequestsJob.runOnce()).expired).toBe(0);
  });
});
