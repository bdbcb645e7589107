import { randomUUID } from 'node:crypto';
import { donorDetailsSchema, donorStatsAdminSchema } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  donations,
  notificationDeliveries,
  notifications,
  questionnaires,
  refreshTokens,
  users,
} from '../../db/schema';
import { bearer, expectUserShape, loginAs, seedUser } from '../../test/auth-helpers';
import { insertDocument, insertDonor, submitQuestionnaire } from '../../test/admin-helpers';
import {
  healthyAnswers,
  signIn,
  uploadDocument,
  type SignedInUser,
} from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

let testDb: TestDatabase;
let subject: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

async function start(env: Record<string, string> = {}) {
  subject = await createTestApp({
    database: testDb.database,
    env,
    services: { backgroundJobs: false },
  });
  admin = await signIn(subject.app, db(), { role: 'admin', fullName: 'Admin Anita' });
}

beforeEach(async () => {
  await start();
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

function act(id: string, action: string, payload?: object, headers = admin.headers) {
  return subject.app.inject({
    method: 'POST',
    url: `/api/v1/admin/donors/${id}/${action}`,
    headers,
    ...(payload ? { payload } : {}),
  });
}

function get(url: string, headers = admin.headers) {
  return subject.app.inject({ url, headers });
}

async function statusOf(id: string) {
  const [row] = await db().select().from(users).where(eq(users.id, id));
  return row!;
}

async function logged(action: string) {
  return db().select().from(activityLog).where(eq(activityLog.action, action));
}

async function notificationsOf(userId: string) {
  return db().select().from(notifications).where(eq(notifications.userId, userId));
}

/** A donor who signed in, with the questionnaire submitted (onboarding complete). */
async function onboardedDonor(): Promise<SignedInUser> {
  const donor = await signIn(subject.app, db());
  await submitQuestionnaire(db(), donor.row.id);
  return donor;
}

describe('POST /api/v1/admin/donors/{id}/approve', () => {
  it('approves a pending donor who completed onboarding, logs it and tells the donor', async () => {
    const donor = await onboardedDonor();
    const res = await act(donor.row.id, 'approve');
    expect(res.statusCode, res.body).toBe(200);
    const user = expectUserShape(res.json().data.user);
    expect(user).toMatchObject({
      id: donor.row.id,
      status: 'approved',
      isApproved: true,
      verification: { isVerified: true },
      onboardingCompleted: true,
      rejectionReason: null,
      suspensionReason: null,
    });
    const [entry] = await logged('donor.approved');
    expect(entry).toMatchObject({
      actorId: admin.row.id,
      actorRole: 'admin',
      targetType: 'user',
      targetId: donor.row.id,
      details: { from: 'pending', to: 'approved' },
    });
    const [note] = await notificationsOf(donor.row.id);
    expect(note).toMatchObject({ type: 'donor.approved', title: 'You are approved' });
    // The donor sees it at once.
    const me = await get('/api/v1/auth/me', donor.headers);
    expect(me.json().data.user.status).toBe('approved');
  });

  it('e-mails the decision while emailNotifications is on', async () => {
    await subject.close();
    await testDb.truncate();
    await start({ FEATURE_FLAGS: 'emailNotifications' });
    const donor = await onboardedDonor();
    expect((await act(donor.row.id, 'approve')).statusCode).toBe(200);
    const [note] = await notificationsOf(donor.row.id);
    const deliveries = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.notificationId, note!.id));
    expect(deliveries.map((row) => row.channel)).toEqual(['email']);
  });

  it('refuses a donor who has not completed onboarding with 409 ONBOARDING_INCOMPLETE', async () => {
    const donor = await insertDonor(db());
    const res = await act(donor.id, 'approve');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'ONBOARDING_INCOMPLETE',
      details: { questionnaireCompleted: false },
    });
    expect((await statusOf(donor.id)).status).toBe('pending');
    expect(await logged('donor.approved')).toHaveLength(0);
    expect(await notificationsOf(donor.id)).toHaveLength(0);
  });

  it('needs an ID proof that is not rejected while documentUpload is on', async () => {
    await subject.close();
    await testDb.truncate();
    await start({ FEATURE_FLAGS: 'documentUpload' });
    const donor = await insertDonor(db());
    await submitQuestionnaire(db(), donor.id);
    await insertDocument(db(), donor.id, 'id_proof', { rejectionReason: 'Blurred photo' });
    const refused = await act(donor.id, 'approve');
    expect(refused.json().error).toMatchObject({
      code: 'ONBOARDING_INCOMPLETE',
      details: { questionnaireCompleted: true, documentsUploaded: false, idProofRequired: true },
    });
    await insertDocument(db(), donor.id, 'address_proof');
    expect((await act(donor.id, 'approve')).statusCode).toBe(409);
    const other = await insertDonor(db());
    await submitQuestionnaire(db(), other.id);
    await insertDocument(db(), other.id, 'id_proof');
    expect((await act(other.id, 'approve')).statusCode).toBe(200);
  });

  it('refuses to approve an approved, rejected or suspended donor with 409 INVALID_TRANSITION', async () => {
    for (const status of ['approved', 'rejected', 'suspended'] as const) {
      const donor = await insertDonor(db(), { status });
      await submitQuestionnaire(db(), donor.id);
      const res = await act(donor.id, 'approve');
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'INVALID_TRANSITION',
        details: { status, action: 'approve' },
      });
      expect((await statusOf(donor.id)).status).toBe(status);
    }
  });

  it('answers 404 for unknown ids, erased donors and accounts that are not donors; 400 for a bad id', async () => {
    expect((await act(randomUUID(), 'approve')).statusCode).toBe(404);
    const erased = await insertDonor(db(), { deletedAt: new Date() });
    expect((await act(erased.id, 'approve')).statusCode).toBe(404);
    expect((await act(admin.row.id, 'approve')).statusCode).toBe(404);
    const bad = await act('not-a-uuid', 'approve');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /api/v1/admin/donors/{id}/reject', () => {
  it('needs a reason: missing or too short is 400 and changes nothing', async () => {
    const donor = await onboardedDonor();
    const missing = await act(donor.row.id, 'reject', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toEqual([
      expect.objectContaining({ path: 'body.reason' }),
    ]);
    const noBody = await act(donor.row.id, 'reject');
    expect(noBody.statusCode).toBe(400);
    expect((await act(donor.row.id, 'reject', { reason: '  x ' })).statusCode).toBe(400);
    expect((await statusOf(donor.row.id)).status).toBe('pending');
  });

  it('rejects a pending donor with a reason the donor sees, until they change their answers', async () => {
    const donor = await onboardedDonor();
    const res = await act(donor.row.id, 'reject', {
      reason: 'The ID proof does not match your name.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user).toMatchObject({
      status: 'rejected',
      isApproved: false,
      rejectionReason: 'The ID proof does not match your name.',
    });
    const me = await get('/api/v1/auth/me', donor.headers);
    expect(me.json().data.user.rejectionReason).toBe('The ID proof does not match your name.');
    const [note] = await notificationsOf(donor.row.id);
    expect(note!.message).toBe(
      'Your registration was not approved: The ID proof does not match your name. You can update it and try again.',
    );
    const [entry] = await logged('donor.rejected');
    expect(entry).toMatchObject({
      actorId: admin.row.id,
      targetId: donor.row.id,
      details: {
        from: 'pending',
        to: 'rejected',
        reason: 'The ID proof does not match your name.',
      },
    });

    // The donor's own change sends them back to pending (API.md), clearing the reason.
    const changed = await subject.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${donor.row.id}/questionnaire`,
      headers: donor.headers,
      payload: { answers: healthyAnswers({ weightKg: 70 }) },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await get('/api/v1/auth/me', donor.headers);
    expect(after.json().data.user).toMatchObject({ status: 'pending', rejectionReason: null });
  });

  it('cannot reject an approved donor (409)', async () => {
    const donor = await insertDonor(db(), { status: 'approved' });
    const res = await act(donor.id, 'reject', { reason: 'Changed our mind' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('INVALID_TRANSITION');
  });
});

describe('POST /api/v1/admin/donors/{id}/suspend and /reactivate', () => {
  it('cannot suspend a pending donor, nor reactivate an approved one (409)', async () => {
    const pending = await insertDonor(db());
    const suspend = await act(pending.id, 'suspend', { reason: 'No-show twice' });
    expect(suspend.statusCode).toBe(409);
    expect(suspend.json().error.code).toBe('INVALID_TRANSITION');
    const approved = await insertDonor(db(), { status: 'approved' });
    const reactivate = await act(approved.id, 'reactivate');
    expect(reactivate.statusCode).toBe(409);
    expect(reactivate.json().error.code).toBe('INVALID_TRANSITION');
    expect((await act(pending.id, 'reactivate')).statusCode).toBe(409);
  });

  it('suspends an approved donor: signed out everywhere, told why, and can read it after signing in again', async () => {
    const donor = await onboardedDonor();
    const session = await loginAs(subject.app, { row: donor.row, password: donor.password });
    expect((await act(donor.row.id, 'approve')).statusCode).toBe(200);

    const res = await act(donor.row.id, 'suspend', { reason: 'Reported unwell after donating.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user).toMatchObject({
      status: 'suspended',
      suspensionReason: 'Reported unwell after donating.',
      isApproved: false,
    });

    // The refresh token is revoked and the access tokens already issued stop working.
    const refreshed = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken: session.tokens.refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await get('/api/v1/auth/me', bearer(session.tokens.accessToken))).statusCode).toBe(401);
    expect((await get('/api/v1/auth/me', donor.headers)).statusCode).toBe(401);
    const revoked = await db()
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, donor.row.id));
    expect(revoked.length).toBeGreaterThan(0);
    expect(revoked.every((row) => row.revokedReason === 'suspension')).toBe(true);

    const again = await loginAs(subject.app, { row: donor.row, password: donor.password });
    expect(again.user).toMatchObject({
      status: 'suspended',
      suspensionReason: 'Reported unwell after donating.',
    });
    const types = (await notificationsOf(donor.row.id)).map((row) => row.type).sort();
    expect(types).toEqual(['donor.approved', 'donor.suspended']);
    expect(await logged('donor.suspended')).toMatchObject([
      {
        actorId: admin.row.id,
        targetId: donor.row.id,
        details: { from: 'approved', to: 'suspended', reason: 'Reported unwell after donating.' },
      },
    ]);

    const back = await act(donor.row.id, 'reactivate');
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.user).toMatchObject({ status: 'approved', suspensionReason: null });
    expect((await statusOf(donor.row.id)).suspensionReason).toBeNull();
    expect(await logged('donor.reactivated')).toHaveLength(1);
    const latest = (await notificationsOf(donor.row.id)).map((row) => row.type);
    expect(latest).toContain('donor.reactivated');
  });

  it('needs a reason to suspend', async () => {
    const donor = await insertDonor(db(), { status: 'approved' });
    expect((await act(donor.id, 'suspend', {})).statusCode).toBe(400);
    expect((await statusOf(donor.id)).status).toBe('approved');
  });
});

describe('document verdicts as the donor sees them', () => {
  it('shows a rejected document’s reason in the user object and in a notification', async () => {
    const donor = await signIn(subject.app, db());
    const uploaded = await uploadDocument(subject.app, donor.headers, 'id_proof');
    const documentId = uploaded.json().data.document.id;
    const res = await subject.app.inject({
      method: 'PUT',
      url: `/api/v1/documents/${documentId}/verify`,
      headers: admin.headers,
      payload: { verified: false, rejectionReason: 'The photo is too dark' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = await get('/api/v1/auth/me', donor.headers);
    expect(me.json().data.user.documents).toEqual([
      {
        id: documentId,
        type: 'id_proof',
        verified: false,
        rejectionReason: 'The photo is too dark',
      },
    ]);
    const [note] = await notificationsOf(donor.row.id);
    expect(note!.message).toContain('The photo is too dark');
  });
});

describe('PUT /api/v1/admin/donors/{id}/questionnaire/review', () => {
  const review = (id: string, payload: object) =>
    subject.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/donors/${id}/questionnaire/review`,
      headers: admin.headers,
      payload,
    });

  it('stores the decision, notes, time and reviewer, and logs the decision only', async () => {
    const donor = await onboardedDonor();
    const res = await review(donor.row.id, { decision: 'accepted', notes: 'Hb checked on site' });
    expect(res.statusCode, res.body).toBe(200);
    const { questionnaire } = res.json().data;
    expect(questionnaire.review).toMatchObject({
      decision: 'accepted',
      notes: 'Hb checked on site',
      reviewedBy: admin.row.id,
    });
    expect(Date.parse(questionnaire.review.reviewedAt)).not.toBeNaN();
    expect(questionnaire.eligible).toBe(true);
    expect(questionnaire.deferrals).toEqual([]);
    const [row] = await db()
      .select()
      .from(questionnaires)
      .where(eq(questionnaires.userId, donor.row.id));
    expect(row).toMatchObject({ reviewDecision: 'accepted', reviewedBy: admin.row.id });
    expect(await logged('questionnaire.reviewed')).toMatchObject([
      {
        actorId: admin.row.id,
        targetId: donor.row.id,
        details: { decision: 'accepted', hasNotes: true },
      },
    ]);
  });

  it('answers 404 when no questionnaire was submitted, 400 for an unknown decision', async () => {
    const donor = await insertDonor(db());
    const none = await review(donor.id, { decision: 'rejected' });
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toContain('not submitted');
    await submitQuestionnaire(db(), donor.id);
    expect((await review(donor.id, { decision: 'maybe' })).statusCode).toBe(400);
    expect((await review(randomUUID(), { decision: 'accepted' })).statusCode).toBe(404);
  });
});

describe('GET /api/v1/admin/donors', () => {
  it('filters by status, blood type and text, newest first, paginated, live donors only', async () => {
    const old = await insertDonor(db(), {
      fullName: 'Ravi Kumar',
      city: 'Chennai',
      bloodType: 'O-',
      status: 'approved',
      createdAt: new Date(Date.now() - 3 * 86_400_000),
    });
    const mid = await insertDonor(db(), {
      fullName: 'Sunita Rao',
      email: 'sunita.rao@example.org',
      pincode: '600042',
      createdAt: new Date(Date.now() - 2 * 86_400_000),
    });
    const fresh = await insertDonor(db(), {
      fullName: '50% Donor_x',
      phone: '+919812345678',
      createdAt: new Date(Date.now() - 86_400_000),
    });
    await insertDonor(db(), { fullName: 'Ravi Erased', deletedAt: new Date() });
    await seedUser(db(), { role: 'hospital' });

    const all = await get('/api/v1/admin/donors');
    expect(all.statusCode, all.body).toBe(200);
    const page = all.json().data;
    // The admin signed in by the test is not a donor; the seeded hospital neither.
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(page.items.map((user: { id: string }) => user.id)).toEqual([fresh.id, mid.id, old.id]);
    expectUserShape(page.items[0]);
    // Administrators see contact details.
    expect(page.items[1]).toMatchObject({ email: 'sunita.rao@example.org', phone: mid.phone });

    const ids = async (query: string) =>
      (await get(`/api/v1/admin/donors?${query}`))
        .json()
        .data.items.map((u: { id: string }) => u.id);
    expect(await ids('status=approved')).toEqual([old.id]);
    expect(await ids('bloodType=O-')).toEqual([old.id]);
    expect(await ids(`bloodType=${encodeURIComponent('A+')}&status=pending`)).toEqual([
      fresh.id,
      mid.id,
    ]);
    expect(await ids('q=ravi')).toEqual([old.id]);
    expect(await ids('q=CHENNAI')).toEqual([old.id]);
    expect(await ids('q=SUNITA.RAO@')).toEqual([mid.id]);
    expect(await ids('q=600042')).toEqual([mid.id]);
    expect(await ids('q=9812345')).toEqual([fresh.id]);
    // LIKE wildcards match themselves.
    expect(await ids(`q=${encodeURIComponent('50%')}`)).toEqual([fresh.id]);
    expect(await ids(`q=${encodeURIComponent('%')}`)).toEqual([fresh.id]);
    expect(await ids(`q=${encodeURIComponent('r_x')}`)).toEqual([fresh.id]);
    expect(await ids(`q=${encodeURIComponent('_')}`)).toEqual([fresh.id]);
    expect(await ids(`q=${encodeURIComponent('\\')}`)).toEqual([]);

    const second = (await get('/api/v1/admin/donors?page=2&pageSize=2')).json().data;
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map((u: { id: string }) => u.id)).toEqual([old.id]);
  });

  it('validates the query', async () => {
    for (const query of [
      'status=active',
      'bloodType=C',
      'pageSize=101',
      'page=0',
      `q=${'x'.repeat(101)}`,
      'q=%00',
      'page=100000000000000000000',
    ]) {
      const res = await get(`/api/v1/admin/donors?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('GET /api/v1/admin/donors/pending', () => {
  it('lists pending donors, those who completed onboarding first, then the oldest first', async () => {
    const day = 86_400_000;
    const oldIncomplete = await insertDonor(db(), { createdAt: new Date(Date.now() - 5 * day) });
    const newComplete = await insertDonor(db(), { createdAt: new Date(Date.now() - 1 * day) });
    const oldComplete = await insertDonor(db(), { createdAt: new Date(Date.now() - 4 * day) });
    const newIncomplete = await insertDonor(db(), { createdAt: new Date(Date.now() - 2 * day) });
    await submitQuestionnaire(db(), newComplete.id);
    await submitQuestionnaire(db(), oldComplete.id);
    await insertDonor(db(), { status: 'approved' });
    await insertDonor(db(), { status: 'rejected' });

    const res = await get('/api/v1/admin/donors/pending');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.donors.map((user: { id: string }) => user.id)).toEqual([
      oldComplete.id,
      newComplete.id,
      oldIncomplete.id,
      newIncomplete.id,
    ]);
    expect(
      data.donors.map((user: { onboardingCompleted: boolean }) => user.onboardingCompleted),
    ).toEqual([true, true, false, false]);
    expect(data).toMatchObject({ total: 4, page: 1, pageSize: 20 });
    const paged = (await get('/api/v1/admin/donors/pending?pageSize=1&page=2')).json().data;
    expect(paged.donors.map((user: { id: string }) => user.id)).toEqual([newComplete.id]);
  });
});

describe('GET /api/v1/admin/donors/stats', () => {
  it('counts live donors by status and blood type, the last 7 days and who is available now', async () => {
    const day = 86_400_000;
    await insertDonor(db(), { status: 'approved', bloodType: 'O+' });
    await insertDonor(db(), { status: 'approved', bloodType: 'O+', available: false });
    // Availability confirmed 100 days ago has lapsed.
    await insertDonor(db(), {
      status: 'approved',
      bloodType: 'B-',
      availabilityConfirmedAt: new Date(Date.now() - 100 * day),
      createdAt: new Date(Date.now() - 120 * day),
    });
    // An end day in the past ended it.
    await insertDonor(db(), {
      status: 'approved',
      bloodType: 'AB+',
      availableUntil: new Date(Date.now() - 2 * day).toISOString().slice(0, 10),
      createdAt: new Date(Date.now() - 30 * day),
    });
    await insertDonor(db(), { status: 'pending', bloodType: 'O+' });
    await insertDonor(db(), { status: 'suspended', bloodType: 'A-' });
    await insertDonor(db(), {
      status: 'rejected',
      bloodType: 'A-',
      createdAt: new Date(Date.now() - 8 * day),
    });
    await insertDonor(db(), { status: 'approved', deletedAt: new Date() });

    const res = await get('/api/v1/admin/donors/stats');
    expect(res.statusCode, res.body).toBe(200);
    const stats = donorStatsAdminSchema.strict().parse(res.json().data);
    expect(stats).toEqual({
      total: 7,
      byStatus: { pending: 1, approved: 4, rejected: 1, suspended: 1 },
      byBloodType: { 'A+': 0, 'A-': 2, 'B+': 0, 'B-': 1, 'AB+': 1, 'AB-': 0, 'O+': 3, 'O-': 0 },
      newLast7d: 4,
      availableNow: 1,
    });
  });
});

describe('GET /api/v1/admin/donors/{id}/details', () => {
  it('shows everything about the donor, contact details included, and logs the access', async () => {
    const donor = await signIn(subject.app, db(), { fullName: 'Meera Iyer' });
    await submitQuestionnaire(db(), donor.row.id, healthyAnswers({ conditions: ['cold_flu'] }));
    await insertDocument(db(), donor.row.id, 'id_proof');
    await db()
      .insert(donations)
      .values({
        donorId: donor.row.id,
        donatedAt: new Date('2025-01-10T00:00:00Z'),
        place: 'KEM Hospital',
        verified: true,
        certificateNumber: 'BDMS-2025-TEST0001',
      });

    const res = await get(`/api/v1/admin/donors/${donor.row.id}/details`);
    expect(res.statusCode, res.body).toBe(200);
    const details = donorDetailsSchema.parse(res.json().data);
    expect(details.donor).toMatchObject({
      id: donor.row.id,
      fullName: 'Meera Iyer',
      email: donor.row.email,
      phone: donor.row.phone,
      totalDonations: 1,
    });
    expect(details.documents).toMatchObject([{ type: 'id_proof', status: 'pending' }]);
    expect(details.questionnaire).toMatchObject({ eligible: false });
    expect(details.questionnaire!.deferrals.map((item) => item.code)).toContain('cold_flu');
    expect(details.donations).toMatchObject([
      { place: 'KEM Hospital', verified: true, certificateAvailable: true },
    ]);
    expect(details.activity.map((item) => item.action)).toEqual(
      expect.arrayContaining(['donor.viewed', 'user.signed_in']),
    );

    const views = await db()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'donor.viewed'), eq(activityLog.targetId, donor.row.id)));
    expect(views).toMatchObject([
      { actorId: admin.row.id, actorRole: 'admin', targetType: 'user' },
    ]);

    // The donor sees that an administrator looked, without who.
    const own = await get(`/api/v1/users/${donor.row.id}/activity`, donor.headers);
    expect(own.json().data.items[0]).toMatchObject({
      action: 'donor.viewed',
      message: 'An administrator opened your registration details.',
    });
  });

  it('answers 404 for an unknown or erased donor, and logs nothing', async () => {
    expect((await get(`/api/v1/admin/donors/${randomUUID()}/details`)).statusCode).toBe(404);
    const erased = await insertDonor(db(), { deletedAt: new Date() });
    expect((await get(`/api/v1/admin/donors/${erased.id}/details`)).statusCode).toBe(404);
    expect(await logged('donor.viewed')).toHaveLength(0);
  });
});
