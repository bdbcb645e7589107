import {
  FEATURE_FLAG_DEFAULTS,
  NOTIFICATION_SETTINGS_DEFAULTS,
  emailStatusSchema,
  recentActivityItemSchema,
} from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  activityLog,
  mailOutbox,
  notificationDeliveries,
  notifications,
  pushSubscriptions,
} from '../../db/schema';
import { insertDonor } from '../../test/admin-helpers';
import { signIn } from '../../test/donor-helpers';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { TEST_EMAIL_RATE_LIMIT } from './admin.routes';

let testDb: TestDatabase;
let smtp: TestSmtpServer;
const opened: TestApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startTestSmtpServer();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((testApp) => testApp.close()));
  smtp.messages.length = 0;
  smtp.failing = false;
  await testDb.truncate();
});

afterAll(async () => {
  await smtp?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start(env: Record<string, string> = {}) {
  const testApp = await createTestApp({
    database: testDb.database,
    env,
    services: { backgroundJobs: false },
  });
  opened.push(testApp);
  const admin = await signIn(testApp.app, db(), { role: 'admin', fullName: 'Admin Anita' });
  const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    testApp.app.inject({
      method,
      url,
      headers: admin.headers,
      ...(payload ? { payload } : {}),
    });
  return { testApp, admin, request };
}

async function logged(action: string) {
  return db().select().from(activityLog).where(eq(activityLog.action, action));
}

describe('GET /api/v1/admin/activity/recent', () => {
  it('lists the newest entries with actor names and target labels, never contact details', async () => {
    const { admin, request } = await start();
    const donor = await insertDonor(db(), { fullName: 'Kavya Nair', email: 'kavya@example.org' });
    const base = Date.now();
    await db()
      .insert(activityLog)
      .values([
        {
          at: new Date(base + 1000),
          action: 'donor.rejected',
          actorId: admin.row.id,
          actorRole: 'admin',
          targetType: 'user',
          targetId: donor.id,
          details: { reason: 'Unreadable ID' },
        },
        { at: new Date(base + 2000), action: 'admin.bootstrap', actorRole: 'system' },
        {
          at: new Date(base + 3000),
          action: 'flags.updated',
          actorId: admin.row.id,
          actorRole: 'admin',
          targetType: 'feature_flags',
          targetId: 'bloodRequests',
          details: { changes: { bloodRequests: true } },
        },
      ]);

    const res = await request('GET', '/api/v1/admin/activity/recent?limit=3');
    expect(res.statusCode, res.body).toBe(200);
    const { items } = res.json().data;
    expect(items).toHaveLength(3);
    for (const item of items) recentActivityItemSchema.strict().parse(item);
    expect(items.map((item: { action: string }) => item.action)).toEqual([
      'flags.updated',
      'admin.bootstrap',
      'donor.rejected',
    ]);
    expect(items[0]).toMatchObject({
      actor: { id: admin.row.id, name: 'Admin Anita', role: 'admin' },
      target: { type: 'feature_flags', id: 'bloodRequests', label: 'bloodRequests' },
    });
    expect(items[1]).toMatchObject({ actor: null, target: null });
    expect(items[2]).toMatchObject({
      target: { type: 'user', id: donor.id, label: 'Kavya Nair' },
      details: { reason: 'Unreadable ID' },
    });
    expect(res.body).not.toContain('kavya@example.org');
    expect(res.body).not.toContain(donor.phone!);

    const all = await request('GET', '/api/v1/admin/activity/recent');
    // The admin's sign-in is there too; the default limit is 20.
    expect(all.json().data.items.length).toBe(4);
  });

  it('accepts a limit from 1 to 100', async () => {
    const { request } = await start();
    expect((await request('GET', '/api/v1/admin/activity/recent?limit=0')).statusCode).toBe(400);
    expect((await request('GET', '/api/v1/admin/activity/recent?limit=101')).statusCode).toBe(400);
    expect((await request('GET', '/api/v1/admin/activity/recent?limit=abc')).statusCode).toBe(400);
    expect((await request('GET', '/api/v1/admin/activity/recent?limit=100')).statusCode).toBe(200);
  });
});

describe('GET /api/v1/admin/requests/summary', () => {
  it('answers honest zeros while blood requests do not exist', async () => {
    const { request } = await start();
    const res = await request('GET', '/api/v1/admin/requests/summary');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      total: 0,
      byStatus: {},
      byUrgency: {},
      openCritical: 0,
      fulfilledLast30d: 0,
      medianHoursToFulfil: null,
    });
  });
});

describe('GET /api/v1/admin/email/status and POST /api/v1/admin/email/test', () => {
  it('sends a test message through the SMTP server and counts it', async () => {
    const { request } = await start({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'BDMS <no-reply@bdms.example>',
    });
    const before = await request('GET', '/api/v1/admin/email/status');
    expect(before.statusCode, before.body).toBe(200);
    expect(emailStatusSchema.strict().parse(before.json().data)).toEqual({
      transport: 'smtp',
      configured: true,
      from: 'BDMS <no-reply@bdms.example>',
      sent24h: 0,
      failed24h: 0,
      queued: 0,
      lastError: null,
    });

    const res = await request('POST', '/api/v1/admin/email/test', { email: 'Ops@Example.org' });
    expect(res.statusCode, res.body).toBe(200);
    const { messageId, status } = res.json().data;
    expect(status).toBe('sent');
    const mail = await smtp.waitFor((message) => message.to.includes('ops@example.org'));
    expect(mail.subject).toBe('Test e-mail from Blood Donation Management System');
    expect(mail.text).toContain('Admin Anita sent this test message');
    expect(mail.raw).toContain(`Message-ID: ${messageId}`);

    const after = (await request('GET', '/api/v1/admin/email/status')).json().data;
    expect(after).toMatchObject({ sent24h: 1, failed24h: 0, queued: 0, lastError: null });
    expect(await logged('email.test_sent')).toMatchObject([
      { details: { status: 'sent', to: 'example.org' } },
    ]);
  });

  it('reports a refusal with 503 and the reason, and shows it in the status', async () => {
    const { request } = await start({ SMTP_URL: smtp.url });
    smtp.failing = true;
    const res = await request('POST', '/api/v1/admin/email/test', { email: 'ops@example.org' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.json().error.message).toContain('Try again later');
    const status = (await request('GET', '/api/v1/admin/email/status')).json().data;
    expect(status).toMatchObject({ sent24h: 0, failed24h: 1, queued: 0 });
    expect(status.lastError).toContain('Try again later');
    // A test is not retried.
    const [row] = await db().select().from(mailOutbox);
    expect(row!.status).toBe('failed');
  });

  it('without SMTP_URL keeps the message in the outbox and says so', async () => {
    const { request } = await start();
    const status = (await request('GET', '/api/v1/admin/email/status')).json().data;
    expect(status).toMatchObject({
      transport: 'outbox',
      configured: false,
      from: 'no-reply@localhost',
    });
    const res = await request('POST', '/api/v1/admin/email/test', { email: 'ops@example.org' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await db().select().from(mailOutbox);
    expect(res.json().data).toEqual({ messageId: row!.id, status: 'logged' });
  });

  it(`validates the address and allows ${TEST_EMAIL_RATE_LIMIT.max} tests a minute`, async () => {
    const { testApp, admin } = await start();
    const send = (email: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/v1/admin/email/test',
        headers: admin.headers,
        payload: { email },
        remoteAddress: '198.51.100.7',
      });
    expect((await send('not an address')).statusCode).toBe(400);
    for (let i = 1; i < TEST_EMAIL_RATE_LIMIT.max; i += 1) {
      expect((await send(`ops${i}@example.org`)).statusCode).toBe(200);
    }
    const over = await send('ops@example.org');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });
});

describe('GET|PUT /api/v1/admin/notifications/settings', () => {
  it('answers the defaults, validates, stores and logs changes', async () => {
    const { request, admin } = await start();
    const initial = await request('GET', '/api/v1/admin/notifications/settings');
    expect(initial.statusCode).toBe(200);
    expect(initial.json().data).toEqual(NOTIFICATION_SETTINGS_DEFAULTS);

    for (const payload of [
      { matchRadiusKm: 0 },
      { matchRadiusKm: 201 },
      { matchRadiusKm: 2.5 },
      { maxDonorsPerRequest: 0 },
      { emailEnabled: 'yes' },
      { unknownSetting: true },
    ]) {
      const res = await request('PUT', '/api/v1/admin/notifications/settings', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const zero = await request('PUT', '/api/v1/admin/notifications/settings', { matchRadiusKm: 0 });
    expect(zero.json().error.details).toEqual([
      expect.objectContaining({ path: 'body.matchRadiusKm' }),
    ]);

    const res = await request('PUT', '/api/v1/admin/notifications/settings', {
      matchRadiusKm: 40,
      emailEnabled: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      ...NOTIFICATION_SETTINGS_DEFAULTS,
      matchRadiusKm: 40,
      emailEnabled: false,
    });
    const again = await request('GET', '/api/v1/admin/notifications/settings');
    expect(again.json().data.matchRadiusKm).toBe(40);
    const [entry] = await logged('settings.notifications.updated');
    expect(entry).toMatchObject({
      actorId: admin.row.id,
      details: {
        changes: { matchRadiusKm: 40, emailEnabled: false },
        previous: { matchRadiusKm: 25, emailEnabled: true },
      },
    });
    // The same values again change nothing and log nothing.
    await request('PUT', '/api/v1/admin/notifications/settings', { matchRadiusKm: 40 });
    expect(await logged('settings.notifications.updated')).toHaveLength(1);
  });

  it('is the service matching and delivery read, and the notifier obeys emailEnabled and pushEnabled', async () => {
    const { testApp, request } = await start({ FEATURE_FLAGS: 'emailNotifications' });
    const donor = await insertDonor(db());
    await db().insert(pushSubscriptions).values({
      userId: donor.id,
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      p256dh: 'key',
      auth: 'auth',
    });
    const notify = () =>
      db().transaction((tx) =>
        testApp.app.services.notifier.notify(tx, donor.id, {
          type: 'donor.approved',
          reachOut: true,
        }),
      );
    const channels = async (id: string | null) =>
      (
        await db()
          .select()
          .from(notificationDeliveries)
          .where(eq(notificationDeliveries.notificationId, id!))
      )
        .map((row) => row.channel)
        .sort();

    expect(await channels(await notify())).toEqual(['email', 'push']);
    await request('PUT', '/api/v1/admin/notifications/settings', { emailEnabled: false });
    expect((await testApp.app.services.notificationSettings.get()).emailEnabled).toBe(false);
    expect(await channels(await notify())).toEqual(['push']);
    await request('PUT', '/api/v1/admin/notifications/settings', { pushEnabled: false });
    expect(await channels(await notify())).toEqual([]);
    // The in-app notification is always written.
    expect(await db().select().from(notifications)).toHaveLength(3);
  });
});

describe('GET|PUT /api/v1/admin/flags', () => {
  it('changes flags at run time: reflected by /api/v1/config, logged, with sources', async () => {
    const { testApp, request, admin } = await start({ FEATURE_FLAGS: 'documentUpload' });
    const before = await request('GET', '/api/v1/admin/flags');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data.flags).toEqual({ ...FEATURE_FLAG_DEFAULTS, documentUpload: true });
    expect(before.json().data.sources).toMatchObject({
      documentUpload: 'env',
      bloodRequests: 'default',
    });

    const res = await request('PUT', '/api/v1/admin/flags', {
      bloodRequests: true,
      pwaSupport: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.flags).toMatchObject({ bloodRequests: true, pwaSupport: false });
    expect(res.json().data.sources).toMatchObject({
      bloodRequests: 'admin',
      pwaSupport: 'admin',
      documentUpload: 'env',
    });

    const config = await testApp.app.inject({ url: '/api/v1/config' });
    expect(config.json().data.flags).toMatchObject({
      bloodRequests: true,
      pwaSupport: false,
      documentUpload: true,
    });
    expect(await logged('flags.updated')).toMatchObject([
      {
        actorId: admin.row.id,
        actorRole: 'admin',
        details: {
          changes: { bloodRequests: true, pwaSupport: false },
          previous: { bloodRequests: false, pwaSupport: true },
        },
      },
    ]);
  });

  it('refuses an unknown flag or a non-boolean with 400 and changes nothing', async () => {
    const { request } = await start();
    const res = await request('PUT', '/api/v1/admin/flags', {
      bloodRequests: true,
      noSuchFlag: true,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.noSuchFlag', message: 'Unknown field' }],
    });
    expect((await request('PUT', '/api/v1/admin/flags', { bloodRequests: 'yes' })).statusCode).toBe(
      400,
    );
    const flags = (await request('GET', '/api/v1/admin/flags')).json().data.flags;
    expect(flags.bloodRequests).toBe(false);
    expect(await logged('flags.updated')).toHaveLength(0);
  });
});
