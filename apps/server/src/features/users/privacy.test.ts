import { accountExportSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  consentRecords,
  documentChunks,
  documents,
  donations,
  idempotencyKeys,
  notifications,
  pushSubscriptions,
  questionnaires,
  refreshTokens,
  users,
} from '../../db/schema';
import { bearer, registerBody } from '../../test/auth-helpers';
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

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({ database: testDb.database, services: { backgroundJobs: false } });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

/** A donor registered through the API (so consent is recorded) with a bit of everything. */
async function busyDonor() {
  const body = registerBody({ fullName: 'Ravi Kumar', gender: 'male' });
  const reg = await subject.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: body,
    headers: { 'x-request-id': 'register-ravi' },
  });
  expect(reg.statusCode, reg.body).toBe(201);
  const { user, tokens } = reg.json().data;
  const donor: SignedInUser = {
    row: (await db().select().from(users).where(eq(users.id, user.id)))[0]!,
    password: body.password,
    headers: bearer(tokens.accessToken),
  };
  await subject.app.inject({
    method: 'PUT',
    url: `/api/v1/users/${user.id}/questionnaire`,
    payload: { answers: healthyAnswers() },
    headers: donor.headers,
  });
  expect((await uploadDocument(subject.app, donor.headers, 'id_proof')).statusCode).toBe(201);
  await subject.app.inject({
    method: 'POST',
    url: `/api/v1/users/${user.id}/donations`,
    payload: { donatedAt: '2025-12-01', place: 'Civil Hospital, Nashik' },
    headers: donor.headers,
  });
  await subject.app.services.notifier.notify(db(), user.id, { type: 'donor.approved' });
  await db().insert(pushSubscriptions).values({
    userId: user.id,
    endpoint: 'https://fcm.googleapis.com/fcm/send/secret-token',
    p256dh: 'x',
    auth: 'y',
  });
  return { donor, refreshToken: tokens.refreshToken as string };
}

describe('GET /api/v1/users/{id}/activity', () => {
  it('lists what the user did and what was done to them, in plain words, newest first', async () => {
    const { donor } = await busyDonor();
    const res = await subject.app.inject({
      url: `/api/v1/users/${donor.row.id}/activity?pageSize=50`,
      headers: donor.headers,
    });
    expect(res.statusCode).toBe(200);
    const { items, total } = res.json().data;
    expect(total).toBe(items.length);
    const actions = items.map((item: { action: string }) => item.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'user.registered',
        'questionnaire.submitted',
        'document.uploaded',
        'donation.reported',
      ]),
    );
    expect(actions.at(-1)).toBe('user.registered');
    const upload = items.find((item: { action: string }) => item.action === 'document.uploaded');
    expect(upload.message).toBe('ID proof uploaded.');
    expect(
      items.find((item: { action: string }) => item.action === 'user.registered').message,
    ).toBe('You created your account.');
  });
});

describe('GET /api/v1/users/{id}/export', () => {
  it("returns all of the user's data as a JSON attachment", async () => {
    const { donor } = await busyDonor();
    const res = await subject.app.inject({
      url: `/api/v1/users/${donor.row.id}/export`,
      headers: donor.headers,
    });
    expect(res.statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="my-data-${today}.json"; filename*=UTF-8''my-data-${today}.json`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    const data = accountExportSchema.strict().parse(res.json().data);
    expect(data.profile).toMatchObject({
      id: donor.row.id,
      email: donor.row.email,
      fullName: 'Ravi Kumar',
      questionnaireCompleted: true,
      totalDonations: 1,
    });
    expect(data.consents).toHaveLength(1);
    expect(data.documents).toMatchObject([{ type: 'id_proof' }]);
    expect(data.questionnaire?.answers.weightKg).toBe(64);
    expect(data.donations).toMatchObject([{ place: 'Civil Hospital, Nashik', verified: false }]);
    expect(data.notifications.map((item) => item.type)).toContain('donor.approved');
    expect(data.pushSubscriptions).toEqual([
      expect.objectContaining({ service: 'fcm.googleapis.com' }),
    ]);
    expect(res.body).not.toContain('secret-token');
    expect(data.activity.map((item) => item.action)).toContain('user.registered');
    expect(data.availability.available).toBe(true);

    const admin = await signIn(subject.app, db(), { role: 'admin' });
    expect(
      (
        await subject.app.inject({
          url: `/api/v1/users/${donor.row.id}/export`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('DELETE /api/v1/users/{id}', () => {
  it('needs the password from the user themself', async () => {
    const { donor } = await busyDonor();
    for (const payload of [{}, { password: 'not my password' }]) {
      const res = await subject.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${donor.row.id}`,
        payload,
        headers: donor.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].path).toBe('body.password');
    }
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.deletedAt).toBeNull();
  });

  it('erases personal data and files, keeps donation counts, and signs the user out for good', async () => {
    const { donor, refreshToken } = await busyDonor();
    const chunksOf = async () =>
      db()
        .select({ documentId: documentChunks.documentId })
        .from(documentChunks)
        .innerJoin(documents, eq(documents.id, documentChunks.documentId))
        .where(eq(documents.userId, donor.row.id));
    expect(await chunksOf()).toHaveLength(1);
    const res = await subject.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${donor.row.id}`,
      payload: { password: donor.password },
      headers: donor.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ deleted: true });

    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row).toMatchObject({
      email: `deleted-${donor.row.id}@invalid`,
      fullName: 'Deleted user',
      phone: null,
      dateOfBirth: null,
      city: null,
      state: null,
      pincode: null,
      gender: null,
      available: false,
    });
    expect(row!.deletedAt).not.toBeNull();
    // The ID scan's bytes went in the erasure's transaction (no instance keeps a copy on disk).
    expect(await chunksOf()).toHaveLength(0);
    expect(await db().select().from(documentChunks)).toHaveLength(0);
    for (const table of [
      documents,
      questionnaires,
      notifications,
      pushSubscriptions,
      consentRecords,
    ]) {
      expect(await db().select().from(table), String(table)).toHaveLength(0);
    }
    expect(
      await db().select().from(refreshTokens).where(eq(refreshTokens.userId, donor.row.id)),
    ).toHaveLength(0);
    expect(await db().select().from(idempotencyKeys)).toHaveLength(0);
    // Donations stay counted.
    const kept = await db().select().from(donations);
    expect(kept).toMatchObject([{ donorId: donor.row.id, place: 'Civil Hospital, Nashik' }]);
    const [erased] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'user.erased'));
    expect(erased).toMatchObject({ targetId: donor.row.id, details: { by: 'self' } });
    const everything = JSON.stringify(await db().select().from(activityLog));
    expect(everything).not.toContain(donor.row.email);
    expect(everything).not.toContain('Ravi');

    // No way back in.
    expect(
      (await subject.app.inject({ url: '/api/v1/auth/me', headers: donor.headers })).statusCode,
    ).toBe(401);
    const login = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: donor.row.email, password: donor.password },
    });
    expect(login.statusCode).toBe(401);
    const refresh = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('lets an administrator erase a donor, but not another administrator, and keeps the last one', async () => {
    const { donor } = await busyDonor();
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const res = await subject.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${donor.row.id}`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [erased] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'user.erased'));
    expect(erased).toMatchObject({ actorId: admin.row.id, details: { by: 'admin' } });
    expect(
      (await subject.app.inject({ url: `/api/v1/users/${donor.row.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);

    const second = await signIn(subject.app, db(), { role: 'admin' });
    const other = await subject.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${second.row.id}`,
      headers: admin.headers,
    });
    expect(other.statusCode).toBe(403);
    const self = await subject.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${second.row.id}`,
      payload: { password: second.password },
      headers: second.headers,
    });
    expect(self.statusCode).toBe(200);
    const last = await subject.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${admin.row.id}`,
      payload: { password: admin.password },
      headers: admin.headers,
    });
    expect(last.statusCode).toBe(409);
  });
});
