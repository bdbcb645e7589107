import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, notificationDeliveries, notifications, users } from '../../db/schema';
import { requestBody } from '../../test/blood-request-helpers';
import { seedUser } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { EMAIL_DIGEST_POLICIES } from './email-digest';

const POLICY = EMAIL_DIGEST_POLICIES['blood_request.critical']!;
const WINDOW_START = Date.parse('2026-05-01T10:00:00Z');

let testDb: TestDatabase;
const apps: TestApp[] = [];
let clock = WINDOW_START;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await testDb.truncate();
});
afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

/** A server process on the shared database, e-mail notifications on, clock in our hands. */
async function serverProcess() {
  const app = await createTestApp({
    database: testDb.database,
    env: { FEATURE_FLAGS: 'emailNotifications' },
    services: { backgroundJobs: false, now: () => clock },
  });
  apps.push(app);
  return app;
}

let addressSequence = 0;
async function criticalRequest(app: TestApp, hospitalName: string) {
  addressSequence += 1;
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: requestBody({ urgency: 'critical', hospitalName }),
    remoteAddress: `192.0.2.${addressSequence}`,
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function outboxOf(userId: string) {
  return db().select().from(mailOutbox).where(eq(mailOutbox.userId, userId));
}

describe('Critical-request e-mails to administrators in a burst', () => {
  it(`sends the first ${POLICY.max} one by one and the rest as one digest per administrator at the end of the window, across server processes`, async () => {
    clock = WINDOW_START + 30_000;
    const one = await serverProcess();
    const two = await serverProcess();
    const english = await seedUser(db(), { role: 'admin', language: 'en' });
    const hindi = await seedUser(db(), { role: 'admin', language: 'hi' });
    const hospitals = [
      'Alpha Hospital',
      'Beta Hospital',
      'Gamma Hospital',
      'Delta Hospital',
      'Omega Hospital',
      'Sigma Hospital',
    ];
    for (const [index, hospital] of hospitals.entries()) {
      clock += 60_000;
      await criticalRequest(index % 2 ? two : one, hospital);
    }
    // In-app: every one of them, one by one.
    for (const admin of [english, hindi]) {
      const inApp = await db()
        .select()
        .from(notifications)
        .where(eq(notifications.userId, admin.row.id));
      expect(inApp.filter((row) => row.type === 'blood_request.critical')).toHaveLength(6);
    }
    await one.app.services.notifier.deliverDue();
    await two.app.services.notifier.deliverDue();
    // E-mail: only the first three so far.
    for (const admin of [english, hindi]) {
      const mails = await outboxOf(admin.row.id);
      expect(mails.map((mail) => mail.kind)).toEqual(
        Array(3).fill('notification:blood_request.critical'),
      );
    }
    const held = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.status, 'held'));
    expect(held).toHaveLength(6);
    expect(new Set(held.map((row) => row.nextAttemptAt.toISOString()))).toEqual(
      new Set([new Date(WINDOW_START + POLICY.windowMs).toISOString()]),
    );

    // Before the window ends nothing more goes out.
    clock = WINDOW_START + POLICY.windowMs - 1;
    await one.app.services.notifier.deliverDue();
    expect(await outboxOf(english.row.id)).toHaveLength(3);

    // At its end both processes run: one digest per administrator, not two.
    clock = WINDOW_START + POLICY.windowMs;
    await Promise.all([
      one.app.services.notifier.deliverDue(),
      two.app.services.notifier.deliverDue(),
    ]);
    const englishMails = await outboxOf(english.row.id);
    expect(englishMails).toHaveLength(4);
    const digest = englishMails.find((mail) => mail.kind === 'digest:blood_request.critical')!;
    expect(digest.subject).toBe(
      'Critical blood request: 3 more – Blood Donation Management System',
    );
    for (const hospital of ['Delta Hospital', 'Omega Hospital', 'Sigma Hospital']) {
      expect(digest.textBody).toContain(hospital);
      expect(digest.htmlBody).toContain(hospital);
    }
    expect(digest.textBody).not.toContain('Alpha Hospital');
    expect(digest.textBody).toContain(`within ${POLICY.windowMs / 60_000} minutes`);
    expect(digest.textBody).toContain('/admin/requests');

    const hindiMails = await outboxOf(hindi.row.id);
    expect(hindiMails).toHaveLength(4);
    const hindiDigest = hindiMails.find((mail) => mail.kind === 'digest:blood_request.critical')!;
    expect(hindiDigest.subject).toContain('3 और');
    expect(hindiDigest.textBody).toContain('नमस्ते');
    expect(hindiDigest.textBody).toContain('Omega Hospital');

    const digested = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.status, 'digested'));
    expect(digested).toHaveLength(6);

    // A new window starts a new allowance: the next one goes out by itself.
    clock += 60_000;
    await criticalRequest(one, 'Kappa Hospital');
    await one.app.services.notifier.deliverDue();
    const after = await outboxOf(english.row.id);
    expect(after).toHaveLength(5);
    expect(
      after.filter((mail) => mail.kind === 'notification:blood_request.critical'),
    ).toHaveLength(4);
  });

  it('marks held e-mails of an administrator erased before the digest as failed, sending nothing', async () => {
    clock = WINDOW_START + 30_000;
    const one = await serverProcess();
    const admin = await seedUser(db(), { role: 'admin' });
    for (let i = 0; i < POLICY.max + 1; i += 1) await criticalRequest(one, `Hospital ${i}`);
    await db()
      .update(users)
      .set({ deletedAt: new Date(clock) })
      .where(eq(users.id, admin.row.id));
    clock = WINDOW_START + POLICY.windowMs;
    await one.app.services.notifier.deliverDue();
    const kinds = (await outboxOf(admin.row.id)).map((mail) => mail.kind);
    expect(kinds.filter((kind) => kind.startsWith('digest:'))).toHaveLength(0);
    const [held] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.status, 'failed'));
    expect(held).toBeDefined();
  });
});
