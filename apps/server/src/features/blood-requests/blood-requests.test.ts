import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  BLOOD_REQUEST_STATUSES,
  bloodRequestSchema,
  canTransition,
  createBloodRequestResultSchema,
  trackingSchema,
} from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  bloodRequestHistory,
  bloodRequests,
  notificationDeliveries,
  notifications,
} from '../../db/schema';
import { loggerOptions } from '../../plugins/logger';
import { makeHospital, nextPhone, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { loadReferenceData } from '../facilities/facilities.loader';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({
    database: testDb.database,
    env: { FEATURE_FLAGS: 'emailNotifications' },
    services: { backgroundJobs: false },
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
/** A fresh client address, so the per-address limit of one test does not leak into another. */
const nextAddress = () => `198.51.100.${(addressSequence += 1) % 250}`;

function create(
  body: object,
  options: {
    user?: SignedInUser;
    headers?: Record<string, string>;
    remoteAddress?: string;
  } = {},
) {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: body,
    headers: { ...(options.user?.headers ?? {}), ...(options.headers ?? {}) },
    remoteAddress: options.remoteAddress ?? nextAddress(),
  });
}

async function created(body: object = requestBody(), user?: SignedInUser) {
  const res = await create(body, { user });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.request as ReturnType<typeof bloodRequestSchema.parse>;
}

function call(
  method: 'GET' | 'PUT' | 'DELETE' | 'POST',
  url: string,
  user?: SignedInUser,
  payload?: object,
) {
  return subject.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    payload,
  });
}

describe('POST /api/v1/blood-requests', () => {
  it('takes a guest’s request as pending, with a tracking code, and tells administrators at once', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const body = requestBody({ contactPhone: '+91 98480 22338' });
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(201);
    const data = createBloodRequestResultSchema.strict().parse(res.json().data);
    const request = bloodRequestSchema.strict().parse(data.request);
    expect(data.duplicate).toBe(false);
    expect(request).toMatchObject({
      status: 'pending',
      urgency: 'critical',
      bloodType: 'O-',
      unitsNeeded: 2,
      contactPhone: '+919848022338',
      locationSource: 'given',
      searchRadiusKm: null,
      matches: { notified: 0, accepted: 0, declined: 0 },
    });
    expect(request.trackingCode).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/);
    expect(request.history).toEqual([
      {
        status: 'pending',
        notes: null,
        by: null,
        byRole: 'guest',
        at: request.createdAt,
      },
    ]);
    expect(Date.parse(request.expiresAt) - Date.parse(request.createdAt)).toBe(72 * 3600_000);

    const [note] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, admin.row.id));
    expect(note).toMatchObject({
      type: 'blood_request.critical',
      link: '/admin/requests',
    });
    expect(note!.message).toContain('O-');
    expect(note!.message).not.toContain('98480');
    // Critical: e-mail too (the emailNotifications flag is on in this file).
    const deliveries = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.notificationId, note!.id));
    expect(deliveries.map((d) => d.channel)).toEqual(['email']);
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
    expect(row!.requesterIpHash).toMatch(/^[0-9a-f]{32}$/);
    expect(row!.createdBy).toBeNull();
  });

  it('takes text with half a character in it (a lone surrogate) as U+FFFD, in the request and what the staff are told', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const res = await create(
      requestBody({ city: '\udc00Hyderabad', hospitalName: 'Gandhi \ud800' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.request.id as string;
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, id));
    expect(row).toMatchObject({ city: '\ufffdHyderabad', hospitalName: 'Gandhi \ufffd' });
    const [note] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, admin.row.id));
    expect(note!.message).toContain('Gandhi \ufffd, \ufffdHyderabad');
  });

  it('starts a donor’s request pending and a hospital’s or an administrator’s verified', async () => {
    const donor = await signIn(subject.app, db(), { status: 'approved' });
    const hospital = await makeHospital(subject.app, db());
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    expect((await created(requestBody(), donor)).status).toBe('pending');
    const byHospital = await created(requestBody({ urgency: 'urgent' }), hospital);
    expect(byHospital.status).toBe('verified');
    expect(byHospital.history.map((h) => h.status)).toEqual(['pending', 'verified']);
    expect(byHospital.searchRadiusKm).toBe(25);
    const [row] = await db()
      .select()
      .from(bloodRequests)
      .where(eq(bloodRequests.id, byHospital.id));
    expect(row!.hospitalId).toBe(hospital.hospitalId);
    expect((await created(requestBody(), admin)).status).toBe('verified');
  });

  it("takes the hospital's landline with its STD code as the contact phone, stored E.164", async () => {
    const res = await create(requestBody({ contactPhone: '040-2345 6789', language: 'te' }));
    expect(res.statusCode, res.body).toBe(201);
    const request = res.json().data.request;
    expect(request.contactPhone).toBe('+914023456789');
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
    expect(row!.contactPhone).toBe('+914023456789');
    expect(row!.language).toBe('te');
    // Without its STD code a landline is refused.
    const local = await create(requestBody({ contactPhone: '2345 6789' }));
    expect(local.statusCode).toBe(400);
    expect(local.json().error.details.map((d: { path: string }) => d.path)).toContain(
      'body.contactPhone',
    );
  });

  it('validates the body', async () => {
    const res = await create(requestBody({ unitsNeeded: 11, contactPhone: '12345' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    const paths = res.json().error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.unitsNeeded', 'body.contactPhone']));
  });

  it('limits guests to 5 requests an hour per address, with Retry-After; hospitals are exempt', async () => {
    const address = '203.0.113.77';
    for (let i = 0; i < 5; i += 1) {
      expect((await create(requestBody(), { remoteAddress: address })).statusCode).toBe(201);
    }
    const limited = await create(requestBody(), { remoteAddress: address });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const hospital = await makeHospital(subject.app, db());
    for (let i = 0; i < 6; i += 1) {
      const res = await create(requestBody(), {
        user: hospital,
        remoteAddress: address,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('limits one contact phone to 3 requests in 24 hours, from any address', async () => {
    const contactPhone = nextPhone();
    for (const hospitalName of [
      'Gandhi Hospital',
      'Osmania General Hospital',
      'Yashoda Hospital',
    ]) {
      expect((await create(requestBody({ contactPhone, hospitalName }))).statusCode).toBe(201);
    }
    const limited = await create(requestBody({ contactPhone, hospitalName: 'Apollo Hospital' }));
    expect(limited.statusCode).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(23 * 3600);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    expect(limited.json().error.message).not.toContain(contactPhone);
  });

  it('makes nothing new for an open duplicate (200, duplicate: true; the request only to who may read it)', async () => {
    const body = requestBody();
    const first = await created(body);
    const again = await create({
      ...body,
      hospitalName: 'GANDHI  hospital.',
      unitsNeeded: 3,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ duplicate: true, request: null });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const asAdmin = await create({ ...body, hospitalName: 'GANDHI  hospital.' }, { user: admin });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().data).toMatchObject({
      duplicate: true,
      request: { id: first.id, unitsNeeded: 2 },
    });
    // A cancelled request is no longer open: the same request again is a new one.
    await call('DELETE', `/api/v1/blood-requests/${first.id}`, admin);
    const renewed = await create(body);
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json().data.request.id).not.toBe(first.id);
    // Another blood type is another request.
    expect((await create({ ...body, bloodType: 'A+' })).statusCode).toBe(201);
    expect(await db().select().from(bloodRequests)).toHaveLength(3);
  });

  it('creates nothing new when retried with the same X-Request-ID', async () => {
    const body = requestBody();
    const headers = { 'x-request-id': 'emergency-form-1' };
    const first = await create(body, { headers });
    const again = await create(body, { headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.request.id).toBe(first.json().data.request.id);
    expect(await db().select().from(bloodRequests)).toHaveLength(1);
    const reused = await create(requestBody(), { headers });
    expect(reused.statusCode).toBe(409);
  });

  it('places the request at its facility, else at its PIN code, and refuses unknown facilities', async () => {
    const fixtures = path.join(import.meta.dirname, '../../test/fixtures');
    await loadReferenceData(db(), {
      files: {
        facilities: path.join(fixtures, 'blood-banks-sample.csv'),
        pincodes: path.join(fixtures, 'pincode-sample.csv'),
      },
    });
    const atFacility = await created(
      requestBody({ facilityId: 'bb-2292', latitude: 10, longitude: 77 }),
    );
    expect(atFacility).toMatchObject({
      facilityId: 'bb-2292',
      latitude: 17.42323,
      longitude: 78.504138,
      locationSource: 'facility',
    });
    const atPincode = await created(
      requestBody({
        latitude: undefined,
        longitude: undefined,
        pincode: '504001',
        hospitalName: 'RIMS',
      }),
    );
    expect(atPincode).toMatchObject({
      latitude: 19.67762,
      longitude: 78.53632,
      locationSource: 'pincode',
    });
    const nowhere = await created(
      requestBody({
        latitude: undefined,
        longitude: undefined,
        hospitalName: 'Somewhere Clinic',
      }),
    );
    expect(nowhere).toMatchObject({
      latitude: null,
      longitude: null,
      locationSource: null,
    });
    const unknown = await create(requestBody({ facilityId: 'bb-99999' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details[0].path).toBe('body.facilityId');
  });

  it('refuses a suspended account', async () => {
    const donor = await signIn(subject.app, db(), { status: 'suspended' });
    expect((await create(requestBody(), { user: donor })).statusCode).toBe(403);
  });
});

describe('GET /api/v1/blood-requests/track/{trackingCode}', () => {
  it('shows progress without any personal data, to anyone', async () => {
    const body = requestBody();
    const request = await created(body);
    const res = await subject.app.inject({
      url: `/api/v1/blood-requests/track/${request.trackingCode.toLowerCase()}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const tracking = trackingSchema.strict().parse(res.json().data);
    expect(tracking).toMatchObject({
      trackingCode: request.trackingCode,
      status: 'pending',
      hospitalName: 'Gandhi Hospital',
      city: 'Secunderabad',
      matches: { notified: 0, accepted: 0, declined: 0 },
      donorsOnTheirWay: [],
    });
    for (const secret of [
      body.contactPhone,
      body.contactPhone.slice(-6),
      body.contactName,
      body.patientName,
      body.contactEmail,
      body.address,
      body.notes,
    ]) {
      expect(res.body).not.toContain(secret);
    }
    const unknown = await subject.app.inject({
      url: '/api/v1/blood-requests/track/ZZZZ2222',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('who may see and change a request', () => {
  async function cast() {
    const owner = await signIn(subject.app, db(), { status: 'approved' });
    const otherDonor = await signIn(subject.app, db(), { status: 'approved' });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const named = await makeHospital(subject.app, db(), {
      name: 'Gandhi Hospital',
      city: 'Secunderabad',
    });
    const other = await makeHospital(subject.app, db(), {
      name: 'Apollo Hospitals',
      city: 'Hyderabad',
    });
    const request = await created(requestBody(), owner);
    return { owner, otherDonor, admin, named, other, request };
  }

  it('GET /{id}: owner, admin (logged) and the named hospital; others 403; guests 401', async () => {
    const { owner, otherDonor, admin, named, other, request } = await cast();
    const url = `/api/v1/blood-requests/${request.id}`;
    for (const user of [owner, admin, named]) {
      const res = await call('GET', url, user);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.request).toMatchObject({
        view: 'full',
        contactPhone: request.contactPhone,
      });
    }
    expect((await call('GET', url, otherDonor)).statusCode).toBe(403);
    expect((await call('GET', url, other)).statusCode).toBe(403);
    expect((await call('GET', url)).statusCode).toBe(401);
    expect((await call('GET', `/api/v1/blood-requests/${randomUUID()}`, admin)).statusCode).toBe(
      404,
    );
    const logged = await db()
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.action, 'blood_request.contacts_viewed'),
          eq(activityLog.actorId, admin.row.id),
        ),
      );
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged[0]!.details)).not.toContain(request.contactPhone);
  });

  it('GET list: admin all, hospital its named ones, donor its own', async () => {
    const { owner, otherDonor, admin, named, other } = await cast();
    await created(requestBody({ hospitalName: 'Apollo Hospitals', city: 'Hyderabad' }));
    const ids = async (user: SignedInUser, query = '') => {
      const res = await call('GET', `/api/v1/blood-requests${query}`, user);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    expect((await ids(admin)).total).toBe(2);
    expect((await ids(admin, '?status=verified')).total).toBe(0);
    expect((await ids(admin, '?city=hyderabad')).total).toBe(1);
    expect((await ids(named)).items.map((i: { hospitalName: string }) => i.hospitalName)).toEqual([
      'Gandhi Hospital',
    ]);
    expect((await ids(other)).items.map((i: { hospitalName: string }) => i.hospitalName)).toEqual([
      'Apollo Hospitals',
    ]);
    expect((await ids(owner)).total).toBe(1);
    expect((await ids(otherDonor)).total).toBe(0);
  });

  it('PUT /{id}: the owner and the named hospital edit open requests; others 403; closed ones 409', async () => {
    const { owner, otherDonor, named, admin, request } = await cast();
    const url = `/api/v1/blood-requests/${request.id}`;
    const edit = await call('PUT', url, owner, { unitsNeeded: 4, notes: null });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data.request).toMatchObject({
      unitsNeeded: 4,
      notes: null,
      status: 'pending',
    });
    expect((await call('PUT', url, named, { urgency: 'urgent' })).statusCode).toBe(200);
    expect((await call('PUT', url, otherDonor, { unitsNeeded: 1 })).statusCode).toBe(403);
    expect((await call('PUT', url, owner, { status: 'fulfilled' })).statusCode).toBe(400);
    await call('PUT', `${url}/status`, admin, {
      status: 'cancelled',
      notes: 'Fake request',
    });
    const closed = await call('PUT', url, owner, { unitsNeeded: 1 });
    expect(closed.statusCode).toBe(409);
  });

  it('DELETE /{id} cancels (with history) and is not a hard delete', async () => {
    const { owner, otherDonor, request } = await cast();
    const url = `/api/v1/blood-requests/${request.id}`;
    expect((await call('DELETE', url, otherDonor)).statusCode).toBe(403);
    const res = await call('DELETE', url, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request.status).toBe('cancelled');
    expect(res.json().data.request.history.at(-1)).toMatchObject({
      status: 'cancelled',
      notes: 'Cancelled by the requester.',
      by: owner.row.id,
      byRole: 'donor',
    });
    const again = await call('DELETE', url, owner);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVALID_TRANSITION');
    expect(await db().select().from(bloodRequests)).toHaveLength(1);
  });

  it('PUT /{id}/status: admin and the named hospital; the owner, other donors and other hospitals 403', async () => {
    const { owner, otherDonor, other, named, request } = await cast();
    const url = `/api/v1/blood-requests/${request.id}/status`;
    for (const user of [owner, otherDonor, other]) {
      expect((await call('PUT', url, user, { status: 'verified' })).statusCode).toBe(403);
    }
    const res = await call('PUT', url, named, {
      status: 'verified',
      notes: 'Patient admitted here',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request.history.at(-1)).toMatchObject({
      status: 'verified',
      notes: 'Patient admitted here',
      byRole: 'hospital',
    });
    // The requester is told.
    const [note] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, owner.row.id));
    expect(note).toMatchObject({ type: 'blood_request.status_changed' });
  });
});

describe('the state machine', () => {
  it('allows exactly the documented moves and answers 409 INVALID_TRANSITION otherwise', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const request = await created(requestBody({ latitude: undefined, longitude: undefined }));
    for (const from of BLOOD_REQUEST_STATUSES) {
      for (const to of BLOOD_REQUEST_STATUSES) {
        await db()
          .update(bloodRequests)
          .set({ status: from })
          .where(eq(bloodRequests.id, request.id));
        const res = await call('PUT', `/api/v1/blood-requests/${request.id}/status`, admin, {
          status: to,
        });
        // An unconfirmed request moves only by its SMS code or its expiry (issue #16).
        if (canTransition(from, to) && from !== 'unconfirmed') {
          expect(res.statusCode, `${from} → ${to}: ${res.body}`).toBe(200);
          expect(res.json().data.request.status).toBe(to);
        } else {
          expect(res.statusCode, `${from} → ${to}`).toBe(409);
          expect(res.json().error.code).toBe('INVALID_TRANSITION');
        }
      }
    }
    const history = await db()
      .select()
      .from(bloodRequestHistory)
      .where(eq(bloodRequestHistory.requestId, request.id));
    // The initial entry plus one per allowed move.
    expect(history).toHaveLength(1 + 9);
  });
});

describe('privacy', () => {
  it('keeps the requester’s phone out of the activity log and of other donors’ lists', async () => {
    const body = requestBody();
    const request = await created(body);
    expect(request.contactPhone).toBe(`+91${body.contactPhone}`);
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    await call('PUT', `/api/v1/blood-requests/${request.id}/status`, admin, {
      status: 'verified',
    });
    await call('GET', '/api/v1/blood-requests', admin);
    const entries = await db().select().from(activityLog);
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'blood_request.created',
        'blood_request.status_changed',
        'blood_request.contacts_viewed',
      ]),
    );
    expect(JSON.stringify(entries)).not.toContain(body.contactPhone);
    const donor = await signIn(subject.app, db(), { status: 'approved' });
    const list = await call('GET', '/api/v1/blood-requests', donor);
    expect(list.json().data.total).toBe(0);
    expect(list.body).not.toContain(body.contactPhone);
  });
});

describe('administrators’ figures', () => {
  it('counts requests in the requests summary and the analytics series', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    await created(requestBody());
    const urgent = await created(
      requestBody({ urgency: 'urgent', hospitalName: 'Yashoda Hospital' }),
      admin,
    );
    const url = `/api/v1/blood-requests/${urgent.id}/status`;
    expect((await call('PUT', url, admin, { status: 'in_progress' })).statusCode).toBe(200);
    expect((await call('PUT', url, admin, { status: 'fulfilled' })).statusCode).toBe(200);
    const summary = await call('GET', '/api/v1/admin/requests/summary', admin);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().data).toMatchObject({
      total: 2,
      byStatus: { pending: 1, fulfilled: 1 },
      byUrgency: { critical: 1, urgent: 1 },
      openCritical: 1,
      fulfilledLast30d: 1,
    });
    expect(summary.json().data.medianHoursToFulfil).toBeGreaterThanOrEqual(0);
    const analytics = await call('GET', '/api/v1/analytics/dashboard?timeRange=7d', admin);
    expect(analytics.statusCode, analytics.body).toBe(200);
    expect(analytics.json().data.totals.requests).toBe(2);
  });
});

describe('logging', () => {
  it('writes no requester phone or e-mail into the server log', async () => {
    const lines: string[] = [];
    const logger = pino(loggerOptions({ logLevel: 'trace' }), {
      write: (line: string) => void lines.push(line),
    });
    const logged = await createTestApp({
      database: testDb.database,
      logger,
      services: { backgroundJobs: false },
    });
    try {
      const body = requestBody();
      const res = await logged.app.inject({
        method: 'POST',
        url: `/api/v1/blood-requests?contactPhone=${body.contactPhone}`,
        payload: body,
      });
      expect(res.statusCode).toBe(201);
      const limited = await logged.app.inject({
        method: 'POST',
        url: '/api/v1/blood-requests',
        payload: { ...body, unitsNeeded: 99 },
      });
      expect(limited.statusCode).toBe(400);
      const text = lines.join('\n');
      expect(text).toContain('/api/v1/blood-requests');
      expect(text).not.toContain(body.contactPhone);
      expect(text).not.toContain(body.contactEmail);
    } finally {
      await logged.close();
    }
  });
});
