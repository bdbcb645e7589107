import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelConsents, users, whatsappWebhookEvents } from '../../db/schema';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import {
  startWhatsAppCloudServer,
  type WhatsAppCloudServer,
} from '../../test/whatsapp-cloud-server';

// Issue #32 item 10: a signed webhook is acted on once, and only while fresh.
const SECRET = 'app-secret-for-tests';
const PHONE = '+919812345678';
const WA = '919812345678';
let testDb: TestDatabase;
let subject: TestApp | null = null;
let cloud: WhatsAppCloudServer | null = null;
let clock: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await subject?.close();
  await cloud?.close();
  subject = null;
  cloud = null;
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start() {
  clock = Date.parse('2026-11-25T12:00:00+05:30');
  cloud = await startWhatsAppCloudServer({
    token: 'test-token',
    appSecret: SECRET,
    phoneNumberId: '1234567890',
    now: () => clock,
  });
  subject = await createTestApp({
    database: testDb.database,
    env: {
      FEATURE_FLAGS: 'whatsappIntegration',
      WHATSAPP_API_URL: cloud.url,
      WHATSAPP_TOKEN: 'test-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_APP_SECRET: SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-token-1',
      WHATSAPP_ALERT_TEMPLATE: 'blood_alert',
    },
    services: { backgroundJobs: false, now: () => clock },
  });
  const donor = await signIn(subject.app, db(), { role: 'donor' });
  await db()
    .update(users)
    .set({ phone: PHONE, phoneVerifiedAt: new Date(clock - 86_400_000), language: 'en' })
    .where(eq(users.id, donor.row.id));
  return donor;
}

async function optIn(donor: SignedInUser) {
  const consent = await subject!.app.inject({
    method: 'PUT',
    url: '/api/v1/notifications/channels/whatsapp',
    headers: donor.headers,
    payload: { consent: true, language: 'en' },
  });
  expect(consent.statusCode, consent.body).toBe(200);
}

function deliver(hook: { payload: string; headers: Record<string, string> }) {
  return subject!.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks/whatsapp',
    headers: hook.headers,
    payload: hook.payload,
  });
}

async function newestConsent(userId: string) {
  const [row] = await db()
    .select()
    .from(channelConsents)
    .where(eq(channelConsents.userId, userId))
    .orderBy(desc(channelConsents.grantedAt))
    .limit(1);
  return row;
}

const answersTo = (to: string) =>
  cloud!.messages.filter((message) => message.body.to === to && message.body.type === 'text');

describe('POST /api/v1/webhooks/whatsapp (replays and stale events)', () => {
  it('a replayed STOP after a later opt-in is acknowledged but leaves the consent given', async () => {
    const donor = await start();
    await optIn(donor);
    const stop = cloud!.textWebhook(WA, 'STOP', { id: 'wamid.stop-1' });
    const first = await deliver(stop);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ handled: 1, ignored: 0 });
    expect(await newestConsent(donor.row.id)).toMatchObject({ withdrawnVia: 'reply' });
    expect(answersTo(WA)).toHaveLength(1);

    // Two minutes later the donor opts in again on the web.
    clock += 2 * 60_000;
    await optIn(donor);
    expect((await newestConsent(donor.row.id))!.withdrawnAt).toBeNull();

    // The captured STOP, byte for byte (valid signature), comes again.
    const replay = await deliver(stop);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().data).toEqual({ handled: 0, ignored: 1 });
    const consent = await newestConsent(donor.row.id);
    expect(consent!.withdrawnAt).toBeNull();
    expect(consent!.grantedAt.getTime()).toBe(clock);
    // Nothing was answered to the replay either.
    expect(answersTo(WA)).toHaveLength(1);
    const seen = await db().select().from(whatsappWebhookEvents);
    expect(seen.map((row) => row.key)).toEqual(['wamid.stop-1']);
  });

  it('an event older than 15 minutes is acknowledged but not acted on; a younger one is', async () => {
    const donor = await start();
    await optIn(donor);
    const stale = await deliver(
      cloud!.textWebhook(WA, 'STOP', { id: 'wamid.old', at: clock - 16 * 60_000 }),
    );
    expect(stale.statusCode, stale.body).toBe(200);
    expect(stale.json().data).toEqual({ handled: 0, ignored: 1 });
    expect((await newestConsent(donor.row.id))!.withdrawnAt).toBeNull();
    expect(answersTo(WA)).toHaveLength(0);
    expect(await db().select().from(whatsappWebhookEvents)).toEqual([]);

    // A stale delivery status is not stored either.
    const status = await deliver(
      cloud!.statusWebhook('wamid.out-1', 'read', { at: clock - 60 * 60_000 }),
    );
    expect(status.json().data).toEqual({ handled: 0, ignored: 1 });

    // Within the window (Meta retrying after a short outage), it is acted on.
    const fresh = await deliver(
      cloud!.textWebhook(WA, 'STOP', { id: 'wamid.recent', at: clock - 10 * 60_000 }),
    );
    expect(fresh.json().data).toEqual({ handled: 1, ignored: 0 });
    expect(await newestConsent(donor.row.id)).toMatchObject({
      withdrawnVia: 'reply',
      withdrawnAt: new Date(clock),
    });
  });

  it('gives the claim back when acting fails, so Meta’s retry of the same message is acted on', async () => {
    const donor = await start();
    await optIn(donor);
    const stop = cloud!.textWebhook(WA, 'STOP', { id: 'wamid.retried' });
    // The answer cannot be sent: the webhook fails (Meta retries a non-2xx delivery).
    cloud!.failNext(1);
    const failed = await deliver(stop);
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    expect(failed.body).not.toContain('Service temporarily unavailable');
    expect(await db().select().from(whatsappWebhookEvents)).toEqual([]);
    expect(answersTo(WA)).toHaveLength(0);
    // Meta's retry, a minute later, is acted on and answered once.
    clock += 60_000;
    const retried = await deliver(stop);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toEqual({ handled: 1, ignored: 0 });
    expect(answersTo(WA)).toHaveLength(1);
    expect(await newestConsent(donor.row.id)).toMatchObject({ withdrawnVia: 'reply' });
    expect((await db().select().from(whatsappWebhookEvents)).map((row) => row.key)).toEqual([
      'wamid.retried',
    ]);
  });

  it('refuses a message without Meta’s id or timestamp (400), acting on nothing', async () => {
    const donor = await start();
    await optIn(donor);
    const hook = cloud!.textWebhook(WA, 'STOP');
    const body = JSON.parse(hook.payload) as {
      entry: { changes: { value: { messages: Record<string, unknown>[] } }[] }[];
    };
    delete body.entry[0]!.changes[0]!.value.messages[0]!.timestamp;
    const { createHmac } = await import('node:crypto');
    const payload = JSON.stringify(body);
    const signature = createHmac('sha256', SECRET).update(payload).digest('hex');
    const refused = await deliver({
      payload,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${signature}` },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('VALIDATION_ERROR');
    expect((await newestConsent(donor.row.id))!.withdrawnAt).toBeNull();
  });

  it('two concurrent deliveries of the same message act once (two instances, one database)', async () => {
    const donor = await start();
    await optIn(donor);
    // A second instance on the same database, as behind a load balancer.
    const second = await createTestApp({
      database: testDb.database,
      env: {
        FEATURE_FLAGS: 'whatsappIntegration',
        WHATSAPP_API_URL: cloud!.url,
        WHATSAPP_TOKEN: 'test-token',
        WHATSAPP_PHONE_NUMBER_ID: '1234567890',
        WHATSAPP_APP_SECRET: SECRET,
        WHATSAPP_VERIFY_TOKEN: 'verify-token-1',
        WHATSAPP_ALERT_TEMPLATE: 'blood_alert',
      },
      services: { backgroundJobs: false, now: () => clock },
    });
    try {
      const stop = cloud!.textWebhook(WA, 'STOP', { id: 'wamid.twice' });
      const inject = (app: TestApp['app']) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/webhooks/whatsapp',
          headers: stop.headers,
          payload: stop.payload,
        });
      const replies = await Promise.all([
        inject(subject!.app),
        inject(second.app),
        inject(subject!.app),
        inject(second.app),
      ]);
      expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200, 200]);
      const handled = replies.map((reply) => reply.json().data.handled as number);
      expect(handled.reduce((a, b) => a + b, 0)).toBe(1);
      // One answer ("you will get no more alerts"), one withdrawal, one remembered event.
      expect(answersTo(WA)).toHaveLength(1);
      const consents = await db()
        .select()
        .from(channelConsents)
        .where(eq(channelConsents.userId, donor.row.id));
      expect(consents).toHaveLength(1);
      expect(consents[0]).toMatchObject({ withdrawnVia: 'reply' });
      expect(await db().select().from(whatsappWebhookEvents)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
