import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bloodRequests, notificationDeliveries, notifications, users } from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { startTestSmppServer, type TestSmppServer } from '../../test/smpp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import {
  startWhatsAppCloudServer,
  type WhatsAppCloudServer,
} from '../../test/whatsapp-cloud-server';
import { fitsOneSms } from './channels/phone-texts';

const PUBLIC_URL = 'https://rakt.example.in';
const SECRET = 'app-secret-for-tests';
const TEMPLATE_IDS = {
  request_received: '1107333333333333333',
  donor_coming: '1107444444444444444',
  phone_code: '1107555555555555555',
};
// 11:30 in India: outside quiet hours. 23:30: inside them.
const DAYTIME = Date.parse('2026-11-25T11:30:00+05:30');
const NIGHT = Date.parse('2026-11-25T23:30:00+05:30');

let testDb: TestDatabase;
let subject: TestApp | null = null;
let smsc: TestSmppServer | null = null;
let cloud: WhatsAppCloudServer | null = null;
let clock: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await subject?.close();
  await smsc?.close();
  await cloud?.close();
  subject = null;
  smsc = null;
  cloud = null;
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

/** The app with SMS over a real SMPP peer and/or WhatsApp on a local Cloud API, as asked. */
async function start(options: { flags: string; sms?: boolean; whatsapp?: boolean; at?: number }) {
  clock = options.at ?? DAYTIME;
  const env: Record<string, string> = { PUBLIC_URL, FEATURE_FLAGS: options.flags };
  if (options.sms) {
    smsc = await startTestSmppServer();
    Object.assign(env, {
      SMS_SMPP_URL: smsc.url,
      SMS_SENDER_ID: 'BDMSIN',
      SMS_DLT_ENTITY_ID: '1101234567890123456',
      SMS_DLT_TEMPLATE_IDS: Object.entries(TEMPLATE_IDS)
        .map(([name, id]) => `${name}=${id}`)
        .join(','),
    });
  }
  if (options.whatsapp) {
    cloud = await startWhatsAppCloudServer({
      token: 'test-token',
      appSecret: SECRET,
      phoneNumberId: '1234567890',
    });
    Object.assign(env, {
      WHATSAPP_API_URL: cloud.url,
      WHATSAPP_TOKEN: 'test-token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_APP_SECRET: SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-token-1',
    });
  }
  subject = await createTestApp({
    database: testDb.database,
    env,
    services: { backgroundJobs: false, now: () => clock, smsReconnectBaseMs: 20 },
  });
  const admin = await signIn(subject.app, db(), { role: 'admin' });
  const settings = await call('PUT', '/api/v1/admin/notifications/settings', admin, {
    smsEnabled: true,
  });
  expect(settings.statusCode, settings.body).toBe(200);
  return admin;
}

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject!.app.inject({ method, url, headers: user?.headers ?? {}, payload });
}

async function createRequest(overrides: Record<string, unknown> = {}, user?: SignedInUser) {
  const res = await call('POST', '/api/v1/blood-requests', user, requestBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  const request = res.json().data.request as { id: string; trackingCode: string; status: string };
  const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
  return { ...request, contactPhone: row!.contactPhone! };
}

/** Delivery rows of guest requesters' messages (no in-app notification behind them). */
const requesterRows = () =>
  db()
    .select()
    .from(notificationDeliveries)
    // The outbox's: codes and answers are recorded too (kind `code`/`answer`, #32 item 11).
    .where(
      and(isNull(notificationDeliveries.notificationId), eq(notificationDeliveries.kind, 'outbox')),
    )
    .orderBy(notificationDeliveries.createdAt);

const deliverDue = () => subject!.app.services.notifier.deliverDue();

/** Neither the contact phone (any way written) nor the patient's name is in the text. */
function expectNothingPersonal(text: string, contactPhone: string) {
  expect(text).not.toContain(contactPhone);
  expect(text).not.toContain(contactPhone.slice(3));
  expect(text).not.toContain('Lakshmi');
  expect(text).not.toContain('Ravi');
}

async function verify(admin: SignedInUser, id: string) {
  const res = await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
    status: 'verified',
    notes: 'Called the hospital',
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function accept(donor: SignedInUser, id: string) {
  const res = await call('POST', `/api/v1/blood-requests/${id}/respond`, donor, {
    response: 'accepted',
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe("a guest requester's tracking code and link by SMS or WhatsApp", () => {
  it('sends one SMS in the request’s language with the code, a link to the tracking page and the DLT template, at night too', async () => {
    await start({ flags: 'smsNotifications', sms: true, at: NIGHT });
    // Urgent, not Critical, and at 23:30: still not held for quiet hours.
    const request = await createRequest({ urgency: 'urgent', language: 'hi' });
    expect(request.status).toBe('pending');

    expect(await deliverDue()).toBe(1);
    expect(smsc!.received).toHaveLength(1);
    const sms = smsc!.received[0]!;
    expect(sms).toMatchObject({
      destinationAddr: request.contactPhone.slice(1),
      templateId: TEMPLATE_IDS.request_received,
      entityId: '1101234567890123456',
      dataCoding: 8,
    });
    const [row] = await requesterRows();
    expect(row).toMatchObject({
      channel: 'sms',
      status: 'sent',
      destination: request.contactPhone,
      bloodRequestId: request.id,
      critical: false,
      providerMessageId: sms.messageId,
    });
    expect(row!.payload).toMatchObject({ kind: 'request_received', template: 'request_received' });
    expect(sms.text).toContain(request.trackingCode);
    expect(sms.text).toContain(`${PUBLIC_URL}/r/${row!.shortCode}`);
    expect(sms.text).toMatch(/अनुरोध/);
    expect(fitsOneSms(sms.text)).toBe(true);
    expectNothingPersonal(sms.text, request.contactPhone);

    // The link opens the request's tracking page, and that page knows the code.
    const link = await call('GET', `/r/${row!.shortCode}`);
    expect(link.statusCode).toBe(302);
    expect(link.headers.location).toBe(`/emergency?track=${request.trackingCode}`);
    const tracked = await call('GET', `/api/v1/blood-requests/track/${request.trackingCode}`);
    expect(tracked.statusCode, tracked.body).toBe(200);

    // Sent exactly once.
    expect(await deliverDue()).toBe(0);
    expect(smsc!.received).toHaveLength(1);

    // The guest replying YES or STOP answers nothing as a donor and breaks nothing.
    expect(await smsc!.inbound(request.contactPhone.slice(1), 'YES')).toBe(0);
    expect(smsc!.received[1]!.text).toMatch(/did not understand/);
    expect(await smsc!.inbound(request.contactPhone.slice(1), 'STOP')).toBe(0);
    expect(smsc!.received[2]!.text).toMatch(/no more alerts/);
    const [after] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
    expect(after!.status).toBe('pending');
  });

  it('sends nothing while the request waits for its code, and one message once it is confirmed', async () => {
    await start({ flags: 'smsNotifications,phoneVerification', sms: true });
    const request = await createRequest({ language: 'en' });
    expect(request.status).toBe('unconfirmed');
    // The code goes (straight, after the commit); nothing is queued for the guest yet.
    await vi.waitFor(() => expect(smsc!.received).toHaveLength(1), { timeout: 5000 });
    const codeSms = smsc!.received[0]!;
    expect(codeSms.templateId).toBe(TEMPLATE_IDS.phone_code);
    expect(await deliverDue()).toBe(0);
    expect(await requesterRows()).toEqual([]);
    expect(smsc!.received).toHaveLength(1);

    const code = /\b(\d{6})\b/.exec(codeSms.text)![1]!;
    const confirmed = await call(
      'POST',
      `/api/v1/blood-requests/track/${request.trackingCode}/confirm`,
      undefined,
      { code },
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.status).toBe('pending');
    expect(await deliverDue()).toBe(1);
    expect(smsc!.received).toHaveLength(2);
    const sms = smsc!.received[1]!;
    expect(sms.templateId).toBe(TEMPLATE_IDS.request_received);
    expect(sms.dataCoding).toBe(0);
    expect(sms.text).toContain(request.trackingCode);
    expect(sms.text).toMatch(/^Your blood request is received/);
    expectNothingPersonal(sms.text, request.contactPhone);
    // Critical request: its messages are critical (they may go over the daily budget).
    expect((await requesterRows()).map((row) => [row.status, row.critical])).toEqual([
      ['sent', true],
    ]);
  });

  it('tells the guest once that a donor is coming, at the first acceptance only, without the donor’s name or phone', async () => {
    const admin = await start({ flags: 'smsNotifications', sms: true });
    const first = await makeDonor(subject!.app, db(), {
      km: 4,
      now: clock,
      fullName: 'Arjun Reddy',
    });
    const second = await makeDonor(subject!.app, db(), {
      km: 6,
      now: clock,
      fullName: 'Meena Iyer',
    });
    await db().update(users).set({ phone: '+919811111111' }).where(eq(users.id, first.row.id));
    const request = await createRequest({ language: 'es' });
    await verify(admin, request.id);
    await deliverDue();
    expect(smsc!.received.map((sms) => sms.templateId)).toEqual([TEMPLATE_IDS.request_received]);

    await accept(first, request.id);
    expect(await deliverDue()).toBe(1);
    expect(smsc!.received).toHaveLength(2);
    const coming = smsc!.received[1]!;
    expect(coming.templateId).toBe(TEMPLATE_IDS.donor_coming);
    expect(coming.dataCoding).toBe(0);
    expect(coming.text).toMatch(/donante/);
    expect(coming.text).toContain(request.trackingCode);
    expect(fitsOneSms(coming.text)).toBe(true);
    expect(coming.text).not.toMatch(/Arjun|Reddy|9811111111/);
    expectNothingPersonal(coming.text, request.contactPhone);
    const [comingRow] = (await requesterRows()).filter(
      (row) => row.payload?.kind === 'donor_coming',
    );
    expect(coming.text).toContain(`${PUBLIC_URL}/r/${comingRow!.shortCode}`);

    // The second acceptance tells the guest nothing more.
    await accept(second, request.id);
    expect(await deliverDue()).toBe(0);
    expect(smsc!.received).toHaveLength(2);
    expect((await requesterRows()).map((row) => row.payload?.kind)).toEqual([
      'request_received',
      'donor_coming',
    ]);
  });

  it('goes by WhatsApp (a template with the code and the tracking link) when SMS is not available', async () => {
    const admin = await start({ flags: 'whatsappIntegration', whatsapp: true });
    const donor = await makeDonor(subject!.app, db(), { km: 4, now: clock });
    const request = await createRequest({ language: 'ta' });
    await verify(admin, request.id);
    await accept(donor, request.id);
    expect(await deliverDue()).toBe(2);
    const trackingUrl = `${PUBLIC_URL}/emergency?track=${request.trackingCode}`;
    // Both are due in the same pass (the test's clock stands still), so they may leave in
    // either order: compare them in the order of the request's life.
    const order = ['blood_request_received', 'blood_request_donor_coming'];
    const sent = cloud!.messages
      .map((message) => message.body as { template?: { name?: string } })
      .sort(
        (a, b) => order.indexOf(a.template?.name ?? '') - order.indexOf(b.template?.name ?? ''),
      );
    expect(sent).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: request.contactPhone.slice(1),
        type: 'template',
        template: {
          name: 'blood_request_received',
          language: { code: 'ta' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: request.trackingCode },
                { type: 'text', text: trackingUrl },
              ],
            },
          ],
        },
      },
      expect.objectContaining({
        template: expect.objectContaining({ name: 'blood_request_donor_coming' }),
      }),
    ]);
    const kinds = ['request_received', 'donor_coming'];
    expect(
      (await requesterRows())
        .map((row) => [row.channel, row.status, row.payload?.kind ?? ''])
        .sort((a, b) => kinds.indexOf(a[2]!) - kinds.indexOf(b[2]!)),
    ).toEqual([
      ['whatsapp', 'sent', 'request_received'],
      ['whatsapp', 'sent', 'donor_coming'],
    ]);
  });

  it('queues nothing when the flag is off or no channel is configured', async () => {
    // SMS configured, its flag off.
    await start({ flags: '', sms: true });
    await createRequest();
    expect(await deliverDue()).toBe(0);
    expect(await requesterRows()).toEqual([]);
    expect(smsc!.received).toHaveLength(0);
    await subject!.close();
    await smsc!.close();
    smsc = null;

    // Both flags on, neither channel configured.
    await start({ flags: 'smsNotifications,whatsappIntegration' });
    await createRequest();
    expect(await deliverDue()).toBe(0);
    expect(await requesterRows()).toEqual([]);
  });

  it('sends no guest message for a signed-in requester, who is told in the app', async () => {
    const admin = await start({ flags: 'smsNotifications', sms: true });
    const requester = await signIn(subject!.app, db(), { role: 'donor' });
    const donor = await makeDonor(subject!.app, db(), { km: 4, now: clock });
    const request = await createRequest({}, requester);
    await verify(admin, request.id);
    await accept(donor, request.id);
    await deliverDue();
    expect(await requesterRows()).toEqual([]);
    expect(smsc!.received).toHaveLength(0);
    const told = await db()
      .select({ type: notifications.type })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, requester.row.id),
          eq(notifications.type, 'blood_request.donor_accepted'),
        ),
      );
    expect(told).toHaveLength(1);
  });

  it('delivers once when the SMPP peer is down at first and comes back', async () => {
    await start({ flags: 'smsNotifications', sms: true });
    smsc!.refuseBinds(true);
    smsc!.dropAll();
    const request = await createRequest();
    expect(await deliverDue()).toBe(1);
    expect(smsc!.received).toHaveLength(0);
    const [waiting] = await requesterRows();
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting!.lastError).toBeTruthy();

    smsc!.refuseBinds(false);
    await vi.waitFor(() => expect(smsc!.isBound).toBe(true), { timeout: 10_000 });
    // Past the retry delay (30 s × 2^1).
    clock += 61_000;
    expect(await deliverDue()).toBe(1);
    clock += 3_600_000;
    expect(await deliverDue()).toBe(0);
    expect(smsc!.received).toHaveLength(1);
    expect(smsc!.received[0]!.text).toContain(request.trackingCode);
    const [sent] = await requesterRows();
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });
});
