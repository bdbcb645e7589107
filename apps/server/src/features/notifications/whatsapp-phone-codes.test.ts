import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dailyCounters, notificationDeliveries, users } from '../../db/schema';
import { phoneCodeBudgetKey } from '../../lib/sms/phone-codes';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { startTestSmppServer, type TestSmppServer } from '../../test/smpp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import {
  startWhatsAppCloudServer,
  type WhatsAppCloudServer,
} from '../../test/whatsapp-cloud-server';

const SECRET = 'app-secret-for-tests';
const PHONE = '+919812345678';
let testDb: TestDatabase;
let subject: TestApp | null = null;
let cloud: WhatsAppCloudServer | null = null;
let smsc: TestSmppServer | null = null;
let clock: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await subject?.close();
  await cloud?.close();
  await smsc?.close();
  subject = null;
  cloud = null;
  smsc = null;
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject!.app.inject({ method, url, headers: user?.headers ?? {}, payload });
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

async function start(withSms: boolean) {
  clock = Date.parse('2026-11-25T12:00:00+05:30');
  cloud = await startWhatsAppCloudServer({
    token: 'test-token',
    appSecret: SECRET,
    phoneNumberId: '1234567890',
    now: () => clock,
  });
  if (withSms) smsc = await startTestSmppServer();
  subject = await createTestApp({
    database: testDb.database,
    env: {
      FEATURE_FLAGS: 'whatsappIntegration,phoneVerification',
      WHATSAPP_API_URL: cloud.url,
      WHATSAPP_TOKEN: 'test-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_APP_SECRET: SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-token-1',
      WHATSAPP_ALERT_TEMPLATE: 'blood_alert',
      WHATSAPP_CODE_TEMPLATE: 'bdms_code',
      ...(smsc
        ? {
            SMS_SMPP_URL: smsc.url,
            SMS_SENDER_ID: 'BDMSIN',
            SMS_DLT_ENTITY_ID: '1101234567890123456',
            SMS_DLT_TEMPLATE_IDS: 'donor_alert=1107111111111111111,phone_code=1107333333333333333',
          }
        : {}),
    },
    services: { backgroundJobs: false, now: () => clock, smsReconnectBaseMs: 20 },
  });
  const donor = await makeDonor(subject.app, db(), { km: 4, now: clock });
  await db()
    .update(users)
    .set({ phone: PHONE, language: 'hi', phoneVerifiedAt: null })
    .where(eq(users.id, donor.row.id));
  return donor;
}

describe('one-time phone codes by WhatsApp when SMS is not configured (#32 item 7)', () => {
  it('sends the code as the authentication template; the code verifies the number; then consent and alerts go', async () => {
    const donor = await start(false);
    // Unverified: WhatsApp consent is refused.
    const before = await call('PUT', '/api/v1/notifications/channels/whatsapp', donor, {
      consent: true,
      language: 'hi',
    });
    expect(before.statusCode).toBe(409);
    expect(before.json().error.code).toBe('PHONE_NOT_VERIFIED');

    // Before the fix: 409 SMS_UNAVAILABLE (no SMS provider).
    const sent = await call('POST', `/api/v1/users/${donor.row.id}/phone/verification`, donor, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toEqual({ phone: PHONE, expiresAt: expect.any(String) });
    await until(() => cloud!.messages.length === 1, 'the code on WhatsApp');
    const message = cloud!.messages[0]!;
    expect(message.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: '919812345678',
      type: 'template',
    });
    const template = message.body.template!;
    expect(template.name).toBe('bdms_code');
    expect(template.language).toEqual({ code: 'hi' });
    const code = template.components[0]!.parameters[0]!.text!;
    expect(code).toMatch(/^\d{6}$/);
    expect(template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: code }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
    ]);
    // It counts against the number's daily codes like an SMS code.
    const [counter] = await db()
      .select()
      .from(dailyCounters)
      .where(
        eq(
          dailyCounters.key,
          phoneCodeBudgetKey(subject!.config.jwtSecret, 'phone_verification', PHONE),
        ),
      );
    expect(counter?.count).toBe(1);

    const verified = await call('POST', `/api/v1/users/${donor.row.id}/phone/verify`, donor, {
      code,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data.user.phoneVerifiedAt).toEqual(expect.any(String));
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.phoneVerifiedAt).toBeInstanceOf(Date);

    const consent = await call('PUT', '/api/v1/notifications/channels/whatsapp', donor, {
      consent: true,
      language: 'hi',
    });
    expect(consent.statusCode, consent.body).toBe(200);
    expect(consent.json().data.channel).toMatchObject({ consented: true });

    // A WhatsApp alert now reaches the donor.
    const admin = await signIn(subject!.app, db(), { role: 'admin' });
    const requester = await signIn(subject!.app, db(), { role: 'donor' });
    const created = await call('POST', '/api/v1/blood-requests', requester, requestBody());
    expect(created.statusCode, created.body).toBe(201);
    const id: string = created.json().data.request.id;
    // The request's own confirmation code goes by WhatsApp too (it was unconfirmable before).
    expect(created.json().data.request.status).toBe('unconfirmed');
    await until(() => cloud!.messages.length === 2, 'the request code on WhatsApp');
    const requestCode = cloud!.messages[1]!.body.template!.components[0]!.parameters[0]!.text!;
    expect(cloud!.messages[1]!.body.template!.name).toBe('bdms_code');
    const confirmed = await call(
      'POST',
      `/api/v1/blood-requests/track/${created.json().data.request.trackingCode}/confirm`,
      undefined,
      { code: requestCode },
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const reviewed = await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
      status: 'verified',
      notes: 'Called the hospital',
    });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    await subject!.app.services.notifier.deliverDue();
    const alert = cloud!.messages.find((m) => m.body.template?.name === 'blood_alert');
    expect(alert?.body.to).toBe('919812345678');
    const [delivery] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.channel, 'whatsapp'));
    expect(delivery).toMatchObject({ status: 'sent', providerMessageId: alert!.id });
  });

  it('a code WhatsApp does not take leaves the number unverified', async () => {
    const donor = await start(false);
    cloud!.failNext(1);
    const sent = await call('POST', `/api/v1/users/${donor.row.id}/phone/verification`, donor, {});
    expect(sent.statusCode, sent.body).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(cloud!.messages).toHaveLength(0);
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.phoneVerifiedAt).toBeNull();
  });

  it('with SMS configured too, the code goes by SMS and not by WhatsApp', async () => {
    const donor = await start(true);
    const sent = await call('POST', `/api/v1/users/${donor.row.id}/phone/verification`, donor, {});
    expect(sent.statusCode, sent.body).toBe(200);
    await until(() => smsc!.received.length === 1, 'the code by SMS');
    expect(smsc!.received[0]!.destinationAddr).toMatch(/9812345678$/);
    expect(smsc!.received[0]!.templateId).toBe('1107333333333333333');
    expect(cloud!.messages).toHaveLength(0);
  });
});
