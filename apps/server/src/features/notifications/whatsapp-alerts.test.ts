import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bloodRequestMatches,
  bloodRequests,
  channelConsents,
  notificationDeliveries,
  users,
} from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import {
  startWhatsAppCloudServer,
  type WhatsAppCloudServer,
} from '../../test/whatsapp-cloud-server';

const SECRET = 'app-secret-for-tests';
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

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject!.app.inject({ method, url, headers: user?.headers ?? {}, payload });
}

describe('donor alerts on WhatsApp (Cloud API)', () => {
  it('sends the template with quick replies; "I can donate" accepts that alert; the webhook is signed', async () => {
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
    const admin = await signIn(subject.app, db(), { role: 'admin' });

    // Meta's handshake.
    const handshake = await call(
      'GET',
      '/api/v1/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=verify-token-1&hub.challenge=4242',
    );
    expect(handshake.statusCode).toBe(200);
    expect(handshake.body).toBe('4242');
    expect(
      (
        await call(
          'GET',
          '/api/v1/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1',
        )
      ).statusCode,
    ).toBe(403);

    const donor = await makeDonor(subject.app, db(), { km: 4, now: clock });
    await db()
      .update(users)
      .set({ phone: '+919812345678', language: 'hi', phoneVerifiedAt: new Date(clock) })
      .where(eq(users.id, donor.row.id));
    const consent = await call('PUT', '/api/v1/notifications/channels/whatsapp', donor, {
      consent: true,
      language: 'hi',
    });
    expect(consent.statusCode, consent.body).toBe(200);
    expect(consent.json().data.channel).toMatchObject({ consented: true });

    // A signed-in requester: a guest would also get its tracking code on WhatsApp
    // (requester-messages.test.ts); here only the donor alert goes out.
    const requester = await signIn(subject.app, db(), { role: 'donor' });
    const created = await call('POST', '/api/v1/blood-requests', requester, requestBody());
    const id: string = created.json().data.request.id;
    await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
      status: 'verified',
      notes: 'Called the hospital',
    });
    // The Cloud API is down once: the outbox retries later and sends once.
    cloud.failNext(1);
    await subject.app.services.notifier.deliverDue();
    expect(cloud.messages).toHaveLength(0);
    clock += 61_000;
    await subject.app.services.notifier.deliverDue();
    expect(cloud.messages).toHaveLength(1);
    const [row] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.channel, 'whatsapp'));
    const sent = cloud.messages[0]!;
    expect(row).toMatchObject({ status: 'sent', providerMessageId: sent.id, bloodRequestId: id });
    expect(sent.body.to).toBe('919812345678');
    expect(sent.body.template).toMatchObject({ name: 'blood_alert', language: { code: 'hi' } });
    const components = sent.body.template!.components;
    expect(components[0]!.parameters.map((p) => p.text)).toEqual([
      'गंभीर',
      'O-',
      '2',
      'Gandhi Hospital',
      'Secunderabad',
      '4',
    ]);
    expect(components.slice(1).map((c) => [c.sub_type, c.parameters[0]!.payload])).toEqual([
      ['quick_reply', `accept:${row!.id}`],
      ['quick_reply', `decline:${row!.id}`],
    ]);

    // A webhook with a wrong signature is refused and changes nothing.
    const forged = cloud.buttonWebhook('919812345678', `accept:${row!.id}`, 'I can donate', 'x');
    const refused = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/whatsapp',
      headers: forged.headers,
      payload: forged.payload,
    });
    expect(refused.statusCode).toBe(401);
    const [untouched] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.requestId, id));
    expect(untouched!.response).toBeNull();

    // Delivery status, then the button press.
    const status = cloud.statusWebhook(sent.id, 'delivered');
    expect(
      (
        await subject.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks/whatsapp',
          headers: status.headers,
          payload: status.payload,
        })
      ).statusCode,
    ).toBe(200);
    const press = cloud.buttonWebhook('919812345678', `accept:${row!.id}`, 'I can donate');
    const pressed = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/whatsapp',
      headers: press.headers,
      payload: press.payload,
    });
    expect(pressed.statusCode, pressed.body).toBe(200);
    const [match] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(
        and(eq(bloodRequestMatches.requestId, id), eq(bloodRequestMatches.donorId, donor.row.id)),
      );
    expect(match!.response).toBe('accepted');
    const [request] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, id));
    expect(request!.status).toBe('in_progress');
    const [receipted] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, row!.id));
    expect(receipted!.receiptStatus).toBe('DELIVERED');
    // The answer, in Hindi, with the requester's contact.
    const answer = cloud.messages[1]!;
    expect(answer.body).toMatchObject({ to: '919812345678', type: 'text' });
    expect(answer.body.text!.body).toContain(request!.contactPhone!);
    expect(answer.body.text!.body).toContain('धन्यवाद');

    // "stop" withdraws the WhatsApp consent at once.
    const stop = cloud.textWebhook('919812345678', 'stop');
    await subject.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/whatsapp',
      headers: stop.headers,
      payload: stop.payload,
    });
    const [withdrawn] = await db()
      .select()
      .from(channelConsents)
      .where(eq(channelConsents.userId, donor.row.id));
    expect(withdrawn).toMatchObject({ channel: 'whatsapp', withdrawnVia: 'reply' });
  });
});
