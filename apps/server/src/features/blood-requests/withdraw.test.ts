import { matchedBloodRequestSchema } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, bloodRequestMatches, bloodRequests, notifications } from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

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

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject.app.inject({ method, url, headers: user?.headers ?? {}, payload });
}

const respond = (id: string, user: SignedInUser | undefined, response: string) =>
  call('POST', `/api/v1/blood-requests/${id}/respond`, user, { response });

/** A request by a signed-in requester, verified, with two donors nearby told about it. */
async function scene() {
  const admin = await signIn(subject.app, db(), { role: 'admin' });
  const requester = await signIn(subject.app, db(), { role: 'donor', fullName: 'Ravi Kumar' });
  const first = await makeDonor(subject.app, db(), { fullName: 'Arjun Reddy', km: 5, now: clock });
  const second = await makeDonor(subject.app, db(), { fullName: 'Meena Rao', km: 6, now: clock });
  addressSequence += 1;
  const created = await subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: requestBody({ notes: 'Ward 4, blood bank on the ground floor' }),
    headers: requester.headers,
    remoteAddress: `192.0.2.${addressSequence % 250}`,
  });
  expect(created.statusCode, created.body).toBe(201);
  const request = created.json().data.request;
  const verified = await call('PUT', `/api/v1/blood-requests/${request.id}/status`, admin, {
    status: 'verified',
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return { admin, requester, first, second, request };
}

const withdrawNotes = (userId: string) =>
  db()
    .select()
    .from(notifications)
    .where(
      and(eq(notifications.userId, userId), eq(notifications.type, 'blood_request.donor_withdrew')),
    );

describe('POST /api/v1/blood-requests/{id}/respond: accepting shows the way there', () => {
  it('gives an accepted donor the address, point, notes and contact, and nothing before', async () => {
    const { first, second, request } = await scene();
    // Every channel's alert (in-app, push payload, e-mail link, SMS short link) opens the
    // notification's link: the request itself on the donor's dashboard.
    const [alert] = await db()
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, first.row.id), eq(notifications.type, 'blood_request.match')),
      );
    expect(alert!.link).toBe(`/dashboard?request=${request.id}`);
    const before = await call('GET', `/api/v1/blood-requests/${request.id}`, first);
    const { view: kind, ...matched } = before.json().data.request;
    expect(kind).toBe('matched');
    expect(matchedBloodRequestSchema.strict().parse(matched)).toMatchObject({
      contactName: null,
      contactPhone: null,
      address: null,
      pincode: null,
      latitude: null,
      longitude: null,
      notes: null,
    });
    expect(before.body).not.toContain('Ward 4');

    const accept = await respond(request.id, first, 'accepted');
    expect(accept.statusCode, accept.body).toBe(200);
    const view = matchedBloodRequestSchema.strict().parse(accept.json().data.request);
    expect(view).toMatchObject({
      response: 'accepted',
      contactName: 'Ravi Kumar',
      address: 'Musheerabad, Secunderabad',
      latitude: 17.385,
      longitude: 78.4867,
      notes: 'Ward 4, blood bank on the ground floor',
    });
    expect(view.contactPhone).toMatch(/^\+91\d{10}$/);
    // The other donor, who has not accepted, still sees none of it.
    const other = await call('GET', `/api/v1/blood-requests/${request.id}`, second);
    expect(other.json().data.request).toMatchObject({ notes: null, latitude: null });
  });
});

describe('POST /api/v1/blood-requests/{id}/respond with withdrawn', () => {
  it('lets an accepted donor withdraw: contact hidden, count down, the requester told', async () => {
    const { requester, first, second, request } = await scene();
    await respond(request.id, first, 'accepted');
    await respond(request.id, second, 'accepted');

    const res = await respond(request.id, first, 'withdrawn');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request).toMatchObject({
      response: 'withdrawn',
      status: 'in_progress',
      contactName: null,
      contactPhone: null,
      address: null,
      latitude: null,
      notes: null,
    });
    expect(res.body).not.toContain('Ward 4');

    const [match] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(
        and(
          eq(bloodRequestMatches.requestId, request.id),
          eq(bloodRequestMatches.donorId, first.row.id),
        ),
      );
    expect(match!.response).toBe('withdrawn');
    expect(match!.respondedAt?.getTime()).toBe(clock);

    // The requester's view counts one accepted donor now, and the tracking page lists only her.
    const full = await call('GET', `/api/v1/blood-requests/${request.id}`, requester);
    expect(full.json().data.request.matches).toMatchObject({ accepted: 1 });
    const tracking = await subject.app.inject({
      url: `/api/v1/blood-requests/track/${request.trackingCode}`,
    });
    expect(tracking.json().data.donorsOnTheirWay).toEqual([{ firstName: 'Meena' }]);

    const notes = await withdrawNotes(requester.row.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toContain(request.trackingCode);
    expect(notes[0]!.message).toContain('still on their way: 1');
    // The donor withdrawing is not told about themselves.
    expect(await withdrawNotes(first.row.id)).toHaveLength(0);
    const logs = await db().select().from(activityLog).where(eq(activityLog.actorId, first.row.id));
    expect(logs.map((log) => log.details)).toContainEqual({ response: 'withdrawn' });

    // Withdrawing again is idempotent and tells nobody twice; accepting again is refused.
    const again = await respond(request.id, first, 'withdrawn');
    expect(again.statusCode).toBe(200);
    expect(again.json().data.request).toMatchObject({ response: 'withdrawn', contactPhone: null });
    expect(await withdrawNotes(requester.row.id)).toHaveLength(1);
    expect((await respond(request.id, first, 'accepted')).statusCode).toBe(409);
  });

  it('refuses a donor who has not accepted, one who declined, and anyone not asked', async () => {
    const { admin, requester, first, second, request } = await scene();
    // Not answered yet.
    const unanswered = await respond(request.id, first, 'withdrawn');
    expect(unanswered.statusCode).toBe(409);
    expect(unanswered.json().error.code).toBe('CONFLICT');
    // Declined.
    await respond(request.id, second, 'declined');
    expect((await respond(request.id, second, 'withdrawn')).statusCode).toBe(409);
    // Not asked (the requester is a donor far away), an administrator, a guest.
    expect((await respond(request.id, requester, 'withdrawn')).statusCode).toBe(404);
    expect((await respond(request.id, admin, 'withdrawn')).statusCode).toBe(403);
    expect((await respond(request.id, undefined, 'withdrawn')).statusCode).toBe(401);
    // Nothing changed and nobody was told.
    const matches = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.requestId, request.id));
    expect(matches.map((match) => match.response).sort()).toEqual(['declined', null]);
    expect(await withdrawNotes(requester.row.id)).toHaveLength(0);
  });

  it('refuses once the request is closed, and keeps the donor accepted', async () => {
    const { admin, requester, first, request } = await scene();
    await respond(request.id, first, 'accepted');
    const closed = await call('PUT', `/api/v1/blood-requests/${request.id}/status`, admin, {
      status: 'fulfilled',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const res = await respond(request.id, first, 'withdrawn');
    expect(res.statusCode).toBe(409);
    const [match] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.requestId, request.id));
    expect(match!.response).toBe('accepted');
    expect(await withdrawNotes(requester.row.id)).toHaveLength(0);
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
    expect(row!.status).toBe('fulfilled');
  });

  it('refuses once the donation for the request is recorded', async () => {
    const { first, request } = await scene();
    await respond(request.id, first, 'accepted');
    await db()
      .update(bloodRequestMatches)
      .set({ donatedAt: new Date(clock) })
      .where(eq(bloodRequestMatches.donorId, first.row.id));
    const res = await respond(request.id, first, 'withdrawn');
    expect(res.statusCode).toBe(409);
  });
});
