import { randomUUID } from 'node:crypto';
import { notificationSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  mailOutbox,
  notificationDeliveries,
  notifications,
  pushSubscriptions,
  users,
} from '../../db/schema';
import { signIn, uploadDocument, type SignedInUser } from '../../test/donor-helpers';
import { countQueries } from '../../test/query-counter';
import { startFakePushService, type FakePushService } from '../../test/push-service';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp, type TestAppOptions } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { generateJwtSecret, generateVapidKeys } from '../../config/secrets';
import { isKnownPushService } from './notifications.service';

let testDb: TestDatabase;
let push: FakePushService;
let smtp: TestSmtpServer;
const apps: TestApp[] = [];
let time = Date.UTC(2026, 5, 15, 6, 0, 0);
const clock = {
  now: () => time,
  advance(ms: number) {
    time += ms;
  },
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  push = await startFakePushService();
  smtp = await startTestSmtpServer();
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  await testDb.truncate();
  push.received.length = 0;
  push.statusFor.clear();
  smtp.messages.length = 0;
  time = Date.UTC(2026, 5, 15, 6, 0, 0);
});

afterAll(async () => {
  await push?.close();
  await smtp?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;

/**
 * The secrets every instance of one deployment shares (as its operator sets them): without
 * them each test process would make its own VAPID keys in its own data folder, and which
 * process signs a push would depend on which wins the delivery lease.
 */
const vapid = generateVapidKeys();
const sharedSecrets = {
  JWT_SECRET: generateJwtSecret(),
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
};

/** A server process on the shared database, trusting the fake push service. */
async function startApp(options: TestAppOptions = {}): Promise<TestApp> {
  const app = await createTestApp({
    database: testDb.database,
    ...options,
    env: { ...sharedSecrets, ...options.env },
    services: {
      backgroundJobs: false,
      now: clock.now,
      pushAgent: push.agent,
      isAllowedPushEndpoint: (url) => url.origin === push.origin,
      ...options.services,
    },
  });
  apps.push(app);
  return app;
}

function subscribe(app: TestApp, user: SignedInUser, name: string) {
  return app.app.inject({
    method: 'POST',
    url: '/api/v1/notifications/push-subscription',
    payload: { subscription: push.subscription(name) },
    headers: { ...user.headers, 'user-agent': 'Test browser' },
  });
}

const deliveries = () => db().select().from(notificationDeliveries);

describe('GET /api/v1/notifications and reading them', () => {
  it('lists my notifications newest first with the unread count, and marks them read', async () => {
    const app = await startApp();
    const donor = await signIn(app.app, db());
    const other = await signIn(app.app, db());
    for (const [index, type] of (
      ['donor.approved', 'document.verified', 'donor.reactivated'] as const
    ).entries()) {
      clock.advance(1000 * (index + 1));
      await app.app.services.notifier.notify(db(), donor.row.id, {
        type,
        params: { document: 'ID proof' },
      });
    }
    await app.app.services.notifier.notify(db(), other.row.id, { type: 'donor.approved' });

    const page = await app.app.inject({
      url: '/api/v1/notifications?pageSize=2',
      headers: donor.headers,
    });
    expect(page.statusCode).toBe(200);
    const data = page.json().data;
    expect(data).toMatchObject({ total: 3, unread: 3, page: 1, pageSize: 2 });
    expect(data.items.map((item: { type: string }) => item.type)).toEqual([
      'donor.reactivated',
      'document.verified',
    ]);
    expect(notificationSchema.strict().parse(data.items[1])).toMatchObject({
      title: 'Document verified',
      message: 'Your ID proof has been verified.',
      readAt: null,
    });

    const read = await app.app.inject({
      method: 'POST',
      url: `/api/v1/notifications/${data.items[0].id}/read`,
      headers: donor.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.notification.readAt).toBe(new Date(time).toISOString());
    expect(
      (await app.app.inject({ url: '/api/v1/notifications', headers: donor.headers })).json().data
        .unread,
    ).toBe(2);

    // Someone else's notification, or none at all: 404.
    const [theirs] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, other.row.id));
    for (const id of [theirs!.id, randomUUID()]) {
      const res = await app.app.inject({
        method: 'POST',
        url: `/api/v1/notifications/${id}/read`,
        headers: donor.headers,
      });
      expect(res.statusCode).toBe(404);
    }
    const all = await app.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/read-all',
      headers: donor.headers,
    });
    expect(all.json().data).toEqual({ updated: 2 });
    expect(
      (await app.app.inject({ url: '/api/v1/notifications', headers: donor.headers })).json().data
        .unread,
    ).toBe(0);
    expect(
      (await app.app.inject({ url: '/api/v1/notifications', headers: other.headers })).json().data
        .unread,
    ).toBe(1);
    expect((await app.app.inject({ url: '/api/v1/notifications' })).statusCode).toBe(401);
  });

  it("writes titles and messages in the recipient's language", async () => {
    const app = await startApp();
    const hindi = await signIn(app.app, db(), { language: 'hi' });
    const spanish = await signIn(app.app, db(), { language: 'es' });
    for (const user of [hindi, spanish]) {
      await app.app.services.notifier.notify(db(), user.row.id, { type: 'donor.approved' });
    }
    const titles = (await db().select().from(notifications)).map((row) => row.title).sort();
    expect(titles).toEqual(['Cuenta aprobada', 'आप स्वीकृत हैं'].sort());
  });
});

describe('push subscriptions', () => {
  it('accepts only browser push services and well-formed keys, and can be removed', async () => {
    expect(isKnownPushService(new URL('https://fcm.googleapis.com/fcm/send/abc'))).toBe(true);
    expect(isKnownPushService(new URL('https://web.push.apple.com/QG'))).toBe(true);
    expect(
      isKnownPushService(new URL('https://updates.push.services.mozilla.com/wpush/v2/x')),
    ).toBe(true);
    expect(isKnownPushService(new URL('http://fcm.googleapis.com/x'))).toBe(false);
    expect(isKnownPushService(new URL('https://169.254.169.254/latest/meta-data'))).toBe(false);
    expect(isKnownPushService(new URL('https://evilpush.apple.com.example.org/'))).toBe(false);

    const app = await startApp();
    const donor = await signIn(app.app, db());
    const good = await subscribe(app, donor, 'a');
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().data).toEqual({ subscribed: true });
    const [row] = await db().select().from(pushSubscriptions);
    expect(row).toMatchObject({ userId: donor.row.id, userAgent: 'Test browser' });

    const bad = push.subscription('b');
    bad.keys.p256dh = Buffer.alloc(10).toString('base64url');
    const badKeys = await app.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/push-subscription',
      payload: { subscription: bad },
      headers: donor.headers,
    });
    expect(badKeys.statusCode).toBe(400);
    expect(badKeys.json().error.details[0].path).toBe('body.subscription.keys.p256dh');
    const elsewhere = await app.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/push-subscription',
      payload: { subscription: { ...push.subscription('c'), endpoint: 'https://10.0.0.1/push' } },
      headers: donor.headers,
    });
    expect(elsewhere.statusCode).toBe(400);

    // The same browser signed in as someone else now belongs to them.
    const other = await signIn(app.app, db());
    await app.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/push-subscription',
      payload: { subscription: { ...push.subscription('a') } },
      headers: other.headers,
    });
    expect((await db().select().from(pushSubscriptions)).map((sub) => sub.userId)).toEqual([
      other.row.id,
    ]);

    const removed = await app.app.inject({
      method: 'DELETE',
      url: '/api/v1/notifications/push-subscription',
      payload: { subscription: { endpoint: `${push.origin}/a` } },
      headers: other.headers,
    });
    expect(removed.json().data).toEqual({ subscribed: false });
    expect(await db().select().from(pushSubscriptions)).toHaveLength(0);
  });
});

describe('notification delivery', () => {
  it('survives a restart: a new server process delivers the queued push exactly once', async () => {
    const first = await startApp();
    const donor = await signIn(first.app, db());
    const admin = await signIn(first.app, db(), { role: 'admin' });
    expect((await subscribe(first, donor, 'donor-phone')).statusCode).toBe(200);
    const { id } = (await uploadDocument(first.app, donor.headers, 'id_proof')).json().data
      .document;
    const verdict = await first.app.inject({
      method: 'PUT',
      url: `/api/v1/documents/${id}/verify`,
      payload: { verified: true },
      headers: admin.headers,
    });
    expect(verdict.statusCode).toBe(200);
    // The notification and its delivery were written with the verdict; nothing was sent yet.
    expect(await deliveries()).toMatchObject([{ channel: 'push', status: 'queued', attempts: 0 }]);
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    expect(push.received).toHaveLength(0);

    const second = await startApp();
    const third = await startApp();
    // Two processes racing for the same delivery: the lease lets only one send it.
    const sent = await Promise.all([
      second.app.services.notifier.deliverDue(),
      third.app.services.notifier.deliverDue(),
    ]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await second.app.services.notifier.deliverDue()).toBe(0);
    expect(push.received).toHaveLength(1);
    const [received] = push.received;
    expect(received!.path).toBe('/donor-phone');
    expect(received!.headers['content-encoding']).toBe('aes128gcm');
    expect(received!.headers.ttl).toBe(String(24 * 3600));
    const config = (await second.app.inject({ url: '/api/v1/config' })).json().data;
    expect(config.vapidPublicKey).toBe(vapid.publicKey);
    expect((await third.app.inject({ url: '/api/v1/config' })).json().data.vapidPublicKey).toBe(
      vapid.publicKey,
    );
    expect(String(received!.headers.authorization)).toContain(`k=${config.vapidPublicKey}`);
    // The payload is encrypted for the browser: the server's plaintext is not on the wire.
    expect(received!.body.toString('latin1')).not.toContain('Document verified');
    expect(await deliveries()).toMatchObject([{ status: 'sent', attempts: 1 }]);
    const [sub] = await db().select().from(pushSubscriptions);
    expect(sub!.lastSuccessAt).not.toBeNull();
  });

  it('removes a subscription the push service says is gone (410)', async () => {
    const app = await startApp();
    const donor = await signIn(app.app, db());
    await subscribe(app, donor, 'stale');
    push.statusFor.set('/stale', 410);
    await app.app.services.notifier.notify(db(), donor.row.id, { type: 'donor.approved' });
    expect(await app.app.services.notifier.deliverDue()).toBe(1);
    expect(push.received).toHaveLength(1);
    expect(await db().select().from(pushSubscriptions)).toHaveLength(0);
    expect(await deliveries()).toMatchObject([{ status: 'gone' }]);
    // The in-app notification stays.
    expect(await db().select().from(notifications)).toHaveLength(1);
  });

  it('retries a failed push after 30 s × 2^attempts', async () => {
    const app = await startApp();
    const donor = await signIn(app.app, db());
    await subscribe(app, donor, 'flaky');
    push.statusFor.set('/flaky', 503);
    await app.app.services.notifier.notify(db(), donor.row.id, { type: 'donor.approved' });
    await app.app.services.notifier.deliverDue();
    let [row] = await deliveries();
    expect(row).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'The push service answered 503.',
    });
    expect(row!.nextAttemptAt.getTime()).toBe(time + 60_000);
    push.statusFor.delete('/flaky');
    clock.advance(59_000);
    expect(await app.app.services.notifier.deliverDue()).toBe(0);
    clock.advance(1_000);
    expect(await app.app.services.notifier.deliverDue()).toBe(1);
    [row] = await deliveries();
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(push.received).toHaveLength(2);
  });

  it('e-mails what a donor must not miss through the mail outbox while emailNotifications is on', async () => {
    const app = await startApp({
      env: { SMTP_URL: smtp.url, FEATURE_FLAGS: 'emailNotifications' },
    });
    const donor = await signIn(app.app, db(), { language: 'hi' });
    const admin = await signIn(app.app, db(), { role: 'admin' });
    const { id } = (await uploadDocument(app.app, donor.headers, 'id_proof')).json().data.document;
    await app.app.inject({
      method: 'PUT',
      url: `/api/v1/documents/${id}/verify`,
      payload: { verified: false, rejectionReason: 'धुंधली फ़ोटो' },
      headers: admin.headers,
    });
    expect(await deliveries()).toMatchObject([{ channel: 'email', status: 'queued' }]);
    expect(await app.app.services.notifier.deliverDue()).toBe(1);
    expect(await deliveries()).toMatchObject([{ channel: 'email', status: 'sent' }]);
    const [queued] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, donor.row.id));
    expect(queued!.kind).toBe('notification:document.rejected');
    await app.app.services.mail.deliverDue();
    const mail = await smtp.waitFor((message) => message.to.includes(donor.row.email));
    expect(mail.subject).toContain('दस्तावेज़ स्वीकार नहीं हुआ');
    expect(mail.text).toContain('धुंधली फ़ोटो');
    expect(mail.text).toContain('/onboarding');

    // Flag off: in-app only.
    await app.app.services.flags.setFlags({ emailNotifications: false }, null);
    await app.app.services.notifier.notify(db(), donor.row.id, {
      type: 'donor.approved',
      reachOut: true,
    });
    expect((await deliveries()).filter((row) => row.status === 'queued')).toHaveLength(0);
  });

  it("writes a Tamil-speaking donor's notification and its e-mail in Tamil", async () => {
    const app = await startApp({
      env: { SMTP_URL: smtp.url, FEATURE_FLAGS: 'emailNotifications' },
    });
    const donor = await signIn(app.app, db(), { language: 'ta' });
    const admin = await signIn(app.app, db(), { role: 'admin' });
    const { id } = (await uploadDocument(app.app, donor.headers, 'id_proof')).json().data.document;
    const verdict = await app.app.inject({
      method: 'PUT',
      url: `/api/v1/documents/${id}/verify`,
      payload: { verified: false, rejectionReason: 'மங்கலான புகைப்படம்' },
      headers: admin.headers,
    });
    expect(verdict.statusCode, verdict.body).toBe(200);
    const listed = (await app.app.inject({ url: '/api/v1/notifications', headers: donor.headers }))
      .json()
      .data.items.find((item: { type: string }) => item.type === 'document.rejected');
    expect(listed).toMatchObject({
      title: 'ஆவணம் ஏற்கப்படவில்லை',
      message: 'உங்கள் அடையாளச் சான்று ஏற்கப்படவில்லை: மங்கலான புகைப்படம். தயவுசெய்து மீண்டும் பதிவேற்றவும்.',
    });
    expect(await app.app.services.notifier.deliverDue()).toBe(1);
    const [queued] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, donor.row.id));
    expect(queued!.subject).toContain('ஆவணம் ஏற்கப்படவில்லை');
    await app.app.services.mail.deliverDue();
    const mail = await smtp.waitFor((message) => message.to.includes(donor.row.email));
    expect(mail.text).toContain(`வணக்கம் ${donor.row.fullName},`);
    expect(mail.text).toContain('அடையாளச் சான்று');
    expect(mail.html).toContain('<html lang="ta">');
  });

  describe('e-mails in a batch (issue #20)', () => {
    async function toldDonors(app: TestApp, count: number): Promise<SignedInUser[]> {
      const donors: SignedInUser[] = [];
      for (let i = 0; i < count; i += 1) donors.push(await signIn(app.app, db()));
      for (const donor of donors) {
        await app.app.services.notifier.notify(db(), donor.row.id, {
          type: 'donor.approved',
          reachOut: true,
        });
      }
      return donors;
    }
    const outbox = () => db().select().from(mailOutbox);

    it('hands them to the outbox in one attempt, in statements that do not grow with the batch', async () => {
      const app = await startApp({
        env: { SMTP_URL: smtp.url, FEATURE_FLAGS: 'emailNotifications' },
      });
      const few = await toldDonors(app, 2);
      const fewCounted = await countQueries(testDb.database, () =>
        app.app.services.notifier.deliverDue(),
      );
      expect(fewCounted.result).toBe(2);
      const many = await toldDonors(app, 7);
      const manyCounted = await countQueries(testDb.database, () =>
        app.app.services.notifier.deliverDue(),
      );
      expect(manyCounted.result).toBe(7);
      expect(manyCounted.queries.length).toBe(fewCounted.queries.length);
      expect((await deliveries()).map((row) => row.status)).toEqual(Array(9).fill('sent'));
      const sent = await outbox();
      expect(sent.map((row) => row.userId).sort()).toEqual(
        [...few, ...many].map((donor) => donor.row.id).sort(),
      );
      for (const row of sent) {
        // The hand-over kicks the outbox, which may have sent it already.
        expect(row.kind).toBe('notification:donor.approved');
        expect(['queued', 'sent']).toContain(row.status);
        const donor = [...few, ...many].find((one) => one.row.id === row.userId)!;
        expect(row.toAddress).toBe(donor.row.email);
        expect(row.subject).not.toBe('');
        // A sent message's body is dropped from the outbox; a queued one greets its donor.
        if (row.status === 'queued') expect(row.textBody).toContain(donor.row.fullName);
      }
    });

    it('an erased account fails alone; the others are sent', async () => {
      const app = await startApp({
        env: { SMTP_URL: smtp.url, FEATURE_FLAGS: 'emailNotifications' },
      });
      const [erased, ...kept] = await toldDonors(app, 3);
      await db()
        .update(users)
        .set({ deletedAt: new Date(time) })
        .where(eq(users.id, erased!.row.id));
      expect(await app.app.services.notifier.deliverDue()).toBe(3);
      const rows = await deliveries();
      expect(rows.filter((row) => row.status === 'sent')).toHaveLength(2);
      expect(rows.filter((row) => row.status === 'failed')).toMatchObject([
        { lastError: 'The account no longer exists.' },
      ]);
      expect((await outbox()).map((row) => row.userId).sort()).toEqual(
        kept.map((donor) => donor.row.id).sort(),
      );
    });

    it('a batch whose hand-over fails is tried again later, every row of it, and nothing half-sent stays', async () => {
      const app = await startApp({
        env: { SMTP_URL: smtp.url, FEATURE_FLAGS: 'emailNotifications' },
      });
      await toldDonors(app, 3);
      const mail = app.app.services.mail;
      const enqueueMany = mail.enqueueMany;
      mail.enqueueMany = () => Promise.reject(new Error('The outbox is unavailable.'));
      try {
        expect(await app.app.services.notifier.deliverDue()).toBe(3);
      } finally {
        mail.enqueueMany = enqueueMany;
      }
      expect(await outbox()).toHaveLength(0);
      for (const row of await deliveries()) {
        expect(row).toMatchObject({
          status: 'queued',
          attempts: 1,
          lastError: 'The outbox is unavailable.',
        });
        expect(row.nextAttemptAt.getTime()).toBe(time + 60_000);
      }
      clock.advance(60_000);
      expect(await app.app.services.notifier.deliverDue()).toBe(3);
      expect((await deliveries()).map((row) => row.status)).toEqual(['sent', 'sent', 'sent']);
      expect(await outbox()).toHaveLength(3);
    });
  });

  it('does not notify erased accounts', async () => {
    const app = await startApp();
    const donor = await signIn(app.app, db());
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, donor.row.id));
    expect(
      await app.app.services.notifier.notify(db(), donor.row.id, { type: 'donor.approved' }),
    ).toBeNull();
    expect(await db().select().from(notifications)).toHaveLength(0);
  });
});
