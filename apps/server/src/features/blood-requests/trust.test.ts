import { randomUUID } from 'node:crypto';
import { createBloodRequestResultSchema } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  bloodRequestHistory,
  bloodRequestMatches,
  bloodRequests,
  donations,
  mailOutbox,
  notifications,
} from '../../db/schema';
import {
  makeDonor,
  makeHospital,
  nextPhone,
  northOfHyderabad,
  requestBody,
} from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

/**
 * Issue #14, blood requests: a duplicate hands back nothing the caller did not send, the
 * per-phone limit is no oracle, a requester's change after verification goes back to review, and
 * a hospital records donations against its own requests only.
 */
const MINUTE = 60_000;
let clock = Date.now();
const subject = useTestApp({ services: { now: () => clock } });
const db = () => subject.db;
beforeEach(() => {
  clock = Date.now();
});
let addressSequence = 0;
const nextAddress = () => `203.0.113.${(addressSequence += 1) % 250}`;

function call(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  user?: SignedInUser,
  payload?: object,
) {
  return subject.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    payload,
    remoteAddress: nextAddress(),
  });
}

const create = (body: object, user?: SignedInUser) =>
  call('POST', '/api/v1/blood-requests', user, body);

async function created(body: object, user?: SignedInUser) {
  const res = await create(body, user);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.request as { id: string; trackingCode: string; status: string };
}

async function setStatus(user: SignedInUser, id: string, status: string) {
  const res = await call('PUT', `/api/v1/blood-requests/${id}/status`, user, { status });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.request;
}

const storedRequest = async (id: string) =>
  (await db().select().from(bloodRequests).where(eq(bloodRequests.id, id)))[0]!;

const notesOf = async (userId: string, type: string) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));

/** Every secret of the stored request that a stranger must not read in a reply. */
function secretsOf(
  body: ReturnType<typeof requestBody>,
  stored: { id: string; trackingCode: string },
) {
  return [
    body.patientName as string,
    body.notes as string,
    body.contactEmail as string,
    body.address as string,
    stored.trackingCode,
    stored.id,
  ];
}

describe('a duplicate blood request', () => {
  it('hands a guest nothing they did not send, and e-mails the tracking link to the contact on file once an hour', async () => {
    const body = requestBody({ language: 'hi' });
    const first = await created(body);
    // The attacker knows the desk phone, the blood type, the hospital and the city, nothing else.
    const probe = {
      ...requestBody({ contactPhone: body.contactPhone }),
      patientName: 'Guess',
      notes: undefined,
      contactEmail: undefined,
      address: undefined,
    };
    const res = await create(probe);
    expect(res.statusCode).toBe(200);
    const data = createBloodRequestResultSchema.strict().parse(res.json().data);
    expect(data).toEqual({ duplicate: true, request: null });
    for (const secret of secretsOf(body, first)) expect(res.body).not.toContain(secret);

    const mails = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'blood_request_tracking_link'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: body.contactEmail, userId: null });
    expect(mails[0]!.textBody).toContain(`/emergency?track=${first.trackingCode}`);
    expect(mails[0]!.subject).toContain('ट्रैकिंग'); // the requester's language, Hindi
    // Nothing new was made.
    expect(await db().select().from(bloodRequests)).toHaveLength(1);

    // Probing again within the hour sends nothing more; an hour later, once more.
    expect((await create(probe)).json().data).toEqual({ duplicate: true, request: null });
    expect(
      await db()
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, 'blood_request_tracking_link')),
    ).toHaveLength(1);
    clock += 61 * MINUTE;
    await create(probe);
    expect(
      await db()
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, 'blood_request_tracking_link')),
    ).toHaveLength(2);
  });

  it('is returned whole to its signed-in owner, an administrator and the hospital in scope only', async () => {
    const owner = await signIn(subject.app, db(), { role: 'donor', fullName: 'Ravi Kumar' });
    const otherDonor = await signIn(subject.app, db(), { role: 'donor' });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const gandhi = await makeHospital(subject.app, db(), { name: 'Gandhi Hospital' });
    const apollo = await makeHospital(subject.app, db(), { name: 'Apollo Hospital' });
    const body = requestBody();
    const first = await created(body, owner);

    for (const [who, user] of [
      ['owner', owner],
      ['admin', admin],
      ['hospital in scope', gandhi],
    ] as const) {
      const res = await create(body, user);
      expect(res.statusCode, who).toBe(200);
      expect(res.json().data.request, who).toMatchObject({
        id: first.id,
        patientName: body.patientName,
        notes: body.notes,
      });
    }
    for (const [who, user] of [
      ['guest', undefined],
      ['another donor', otherDonor],
      ['another hospital', apollo],
    ] as const) {
      const res = await create(body, user);
      expect(res.statusCode, who).toBe(200);
      expect(res.json().data, who).toEqual({ duplicate: true, request: null });
      for (const secret of secretsOf(body, first)) expect(res.body, who).not.toContain(secret);
    }
  });

  it('is refused like any other request past the per-phone limit (the limit is no oracle)', async () => {
    const contactPhone = nextPhone();
    const kept = requestBody({ contactPhone, hospitalName: 'Gandhi Hospital' });
    await created(kept);
    await created(requestBody({ contactPhone, hospitalName: 'Yashoda Hospital' }));
    await created(requestBody({ contactPhone, hospitalName: 'Care Hospital' }));
    const miss = await create(requestBody({ contactPhone, hospitalName: 'Apollo Hospital' }));
    const hit = await create(kept);
    expect(miss.statusCode).toBe(429);
    expect(hit.statusCode).toBe(429);
    expect(hit.json().error).toEqual(miss.json().error);
    expect(hit.headers['retry-after']).toBe(miss.headers['retry-after']);
  });
});

describe('a change after verification', () => {
  async function verifiedWithAcceptedDonor() {
    const owner = await signIn(subject.app, db(), { role: 'donor', fullName: 'Ravi Kumar' });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { km: 5, now: clock });
    const body = requestBody();
    const request = await created(body, owner);
    await setStatus(admin, request.id, 'verified');
    const accept = await call('POST', `/api/v1/blood-requests/${request.id}/respond`, donor, {
      response: 'accepted',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json().data.request.contactPhone).toBe(`+91${body.contactPhone}`);
    return { owner, admin, donor, body, request };
  }

  it('by the requester, to the contact, sends it back to review: no contact to donors, verifier told', async () => {
    const { owner, admin, donor, request } = await verifiedWithAcceptedDonor();
    const scam = '9876500000';
    const res = await call('PUT', `/api/v1/blood-requests/${request.id}`, owner, {
      contactPhone: scam,
      notes: 'Send UPI advance to this number',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request).toMatchObject({
      status: 'pending',
      contactPhone: `+91${scam}`,
    });
    const stored = await storedRequest(request.id);
    expect(stored).toMatchObject({ status: 'pending', verifiedAt: null });
    const history = await db()
      .select()
      .from(bloodRequestHistory)
      .where(eq(bloodRequestHistory.requestId, request.id));
    expect(history.at(-1)).toMatchObject({ status: 'pending', by: owner.row.id, byRole: 'donor' });
    expect(history.at(-1)!.notes).toContain('contactPhone');

    // The donor who accepted sees no contact while it is checked again, and is told to wait.
    const seen = await call('GET', `/api/v1/blood-requests/${request.id}`, donor);
    expect(seen.json().data.request).toMatchObject({
      view: 'matched',
      status: 'pending',
      contactPhone: null,
      contactName: null,
      address: null,
    });
    expect(seen.body).not.toContain(scam);
    expect(await notesOf(donor.row.id, 'blood_request.on_hold')).toHaveLength(1);
    // The administrator who verified it is told (once, not also as "awaiting verification").
    const told = await notesOf(admin.row.id, 'blood_request.back_to_review');
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain('contactPhone');
    expect(await notesOf(admin.row.id, 'blood_request.awaiting_verification')).toHaveLength(0);
    const [logged] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'blood_request.back_to_review'));
    expect(logged).toMatchObject({ actorId: owner.row.id, targetId: request.id });

    // No widening round runs on the unverified values, and no donor can answer meanwhile.
    const later = await makeDonor(subject.app, db(), { km: 40, now: clock });
    await db()
      .update(bloodRequests)
      .set({ lastMatchedAt: new Date(clock - 120 * MINUTE) })
      .where(eq(bloodRequests.id, request.id));
    expect((await subject.app.services.bloodRequestsJob.runOnce()).widened).toBe(0);
    expect(
      await db()
        .select()
        .from(bloodRequestMatches)
        .where(eq(bloodRequestMatches.donorId, later.row.id)),
    ).toHaveLength(0);

    // Verified again: the donor is told, sees the checked contact, and it is in progress again.
    const again = await setStatus(admin, request.id, 'verified');
    expect(again.status).toBe('in_progress');
    expect(await notesOf(donor.row.id, 'blood_request.verified_again')).toHaveLength(1);
    const after = await call('GET', `/api/v1/blood-requests/${request.id}`, donor);
    expect(after.json().data.request).toMatchObject({ contactPhone: `+91${scam}` });
  });

  it('by the requester, to the notes only, sends it back to review: donors read no unreviewed text, nobody new is told', async () => {
    // Issue #32 item 12: the "processing fee" scam moved from the contact to the notes.
    const { owner, admin, donor, body, request } = await verifiedWithAcceptedDonor();
    const before = await call('GET', `/api/v1/blood-requests/${request.id}`, donor);
    expect(before.json().data.request).toMatchObject({ view: 'matched', notes: body.notes });
    const matchesBefore = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.requestId, request.id));
    const scam = 'Pay a processing fee of Rs 500 to UPI bloodhelp@okaxis before coming';
    const res = await call('PUT', `/api/v1/blood-requests/${request.id}`, owner, { notes: scam });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request).toMatchObject({ status: 'pending', notes: scam });
    expect(await storedRequest(request.id)).toMatchObject({
      status: 'pending',
      verifiedAt: null,
      notes: scam,
    });

    // The donor who accepted reads neither the new text nor the contact, and is told to wait.
    const seen = await call('GET', `/api/v1/blood-requests/${request.id}`, donor);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().data.request).toMatchObject({
      view: 'matched',
      status: 'pending',
      notes: null,
      contactPhone: null,
    });
    expect(seen.body).not.toContain('bloodhelp@okaxis');
    const listed = await call('GET', '/api/v1/blood-requests', donor);
    expect(listed.body).not.toContain('bloodhelp@okaxis');
    expect(await notesOf(donor.row.id, 'blood_request.on_hold')).toHaveLength(1);

    // The verifier is told which field changed and reads the pending text.
    const told = await notesOf(admin.row.id, 'blood_request.back_to_review');
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain('notes');
    const review = await call('GET', `/api/v1/blood-requests/${request.id}`, admin);
    expect(review.json().data.request).toMatchObject({ view: 'full', notes: scam });
    // (Entries made in the same instant have no order: look for it, not at the end.)
    expect(review.json().data.request.history).toContainEqual(
      expect.objectContaining({
        status: 'pending',
        notes: expect.stringContaining('after verification (notes)'),
      }),
    );

    // Nobody new is asked meanwhile, not even by a widening round.
    await makeDonor(subject.app, db(), { km: 40, now: clock });
    await db()
      .update(bloodRequests)
      .set({ lastMatchedAt: new Date(clock - 120 * MINUTE) })
      .where(eq(bloodRequests.id, request.id));
    expect((await subject.app.services.bloodRequestsJob.runOnce()).widened).toBe(0);
    expect(
      await db()
        .select()
        .from(bloodRequestMatches)
        .where(eq(bloodRequestMatches.requestId, request.id)),
    ).toHaveLength(matchesBefore.length);
  });

  it('by the requester, to every field a verifier checked, goes back to review; requiredBy does not', async () => {
    const fields: Record<string, unknown> = {
      bloodType: 'A+',
      unitsNeeded: 5,
      urgency: 'urgent',
      patientName: 'Someone Else',
      hospitalName: 'Other Hospital',
      city: 'Hyderabad',
      state: 'Andhra Pradesh',
      address: 'Elsewhere 1',
      pincode: '500001',
      ...northOfHyderabad(30),
      contactName: 'Other Person',
      contactPhone: '9876511111',
      contactEmail: 'other@example.org',
      notes: 'Ward 9',
    };
    const owner = await signIn(subject.app, db(), { role: 'donor' });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    for (const [field, value] of Object.entries(fields)) {
      if (field === 'longitude') continue;
      const request = await created(requestBody(), owner);
      await setStatus(admin, request.id, 'verified');
      const change =
        field === 'latitude'
          ? { latitude: value, longitude: fields.longitude }
          : { [field]: value };
      const res = await call('PUT', `/api/v1/blood-requests/${request.id}`, owner, change);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(200);
      expect((await storedRequest(request.id)).status, field).toBe('pending');
    }
    // Free: requiredBy; and sending a field's own value again is no change.
    const body = requestBody();
    const request = await created(body, owner);
    await setStatus(admin, request.id, 'verified');
    const free = await call('PUT', `/api/v1/blood-requests/${request.id}`, owner, {
      notes: body.notes,
      requiredBy: new Date(clock + 2 * 86_400_000).toISOString(),
      contactPhone: body.contactPhone,
      bloodType: body.bloodType,
    });
    expect(free.statusCode, free.body).toBe(200);
    expect((await storedRequest(request.id)).status).toBe('verified');
  });

  it('by an administrator or the hospital in scope keeps the request verified', async () => {
    const owner = await signIn(subject.app, db(), { role: 'donor' });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const gandhi = await makeHospital(subject.app, db(), { name: 'Gandhi Hospital' });
    const request = await created(requestBody(), owner);
    await setStatus(admin, request.id, 'verified');
    for (const user of [admin, gandhi]) {
      const res = await call('PUT', `/api/v1/blood-requests/${request.id}`, user, {
        contactPhone: nextPhone(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await storedRequest(request.id)).status).toBe('verified');
    }
  });
});

describe('POST /api/v1/donations by a hospital', () => {
  async function acceptedRequestOf(hospitalName: string) {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { km: 5, now: clock });
    const request = await created(requestBody({ hospitalName }));
    await setStatus(admin, request.id, 'verified');
    const accept = await call('POST', `/api/v1/blood-requests/${request.id}/respond`, donor, {
      response: 'accepted',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    return { admin, donor, request };
  }

  const record = (user: SignedInUser, payload: object) =>
    call('POST', '/api/v1/donations', user, {
      donatedAt: new Date(clock - MINUTE).toISOString(),
      ...payload,
    });

  it('is refused against another hospital’s request, and nothing is stored', async () => {
    const { donor, request } = await acceptedRequestOf('Gandhi Hospital');
    const apollo = await makeHospital(subject.app, db(), { name: 'Apollo Hospital' });
    const res = await record(apollo, { donorId: donor.row.id, requestId: request.id });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect(await db().select().from(donations)).toHaveLength(0);
    const [match] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.requestId, request.id));
    expect(match).toMatchObject({ donationId: null, donatedAt: null });
    // An unknown request is 404, as before.
    const unknown = await record(apollo, { donorId: donor.row.id, requestId: randomUUID() });
    expect(unknown.statusCode).toBe(404);
  });

  it('is recorded for a donor who accepted its own request, and as a walk-in otherwise (seen by administrators)', async () => {
    const { admin, donor, request } = await acceptedRequestOf('Gandhi Hospital');
    const gandhi = await makeHospital(subject.app, db(), { name: 'Gandhi Hospital' });
    const own = await record(gandhi, { donorId: donor.row.id, requestId: request.id });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.donation).toMatchObject({ requestId: request.id, walkIn: false });

    const walker = await makeDonor(subject.app, db(), { km: 8, now: clock });
    const walkIn = await record(gandhi, { donorId: walker.row.id });
    expect(walkIn.statusCode, walkIn.body).toBe(201);
    expect(walkIn.json().data.donation).toMatchObject({ requestId: null, walkIn: true });
    const [stored] = await db()
      .select()
      .from(donations)
      .where(eq(donations.donorId, walker.row.id));
    expect(stored).toMatchObject({ walkIn: true, verifiedBy: gandhi.row.id });
    const seen = await call('GET', `/api/v1/users/${walker.row.id}/donations`, admin);
    expect(seen.json().data.items[0]).toMatchObject({ walkIn: true });
  });
});
