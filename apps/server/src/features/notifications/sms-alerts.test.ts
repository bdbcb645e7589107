import { CHANNEL_CONSENT_WORDING } from '@bdms/shared';
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
import { startTestSmppServer, type TestSmppServer } from '../../test/smpp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { fitsOneSms } from './channels/phone-texts';

const PUBLIC_URL = 'https://rakt.example.in';
let testDb: TestDatabase;
let subject: TestApp | null = null;
let smsc: TestSmppServer | null = null;
let clock: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await subject?.close();
  await smsc?.close();
  subject = null;
  smsc = null;
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start(at: number) {
  clock = at;
  smsc = await startTestSmppServer();
  subject = await createTestApp({
    database: testDb.database,
    env: {
      PUBLIC_URL,
      FEATURE_FLAGS: 'smsNotifications',
      SMS_SMPP_URL: smsc.url,
      SMS_SENDER_ID: 'BDMSIN',
      SMS_DLT_ENTITY_ID: '1101234567890123456',
      SMS_DLT_TEMPLATE_IDS: 'donor_alert=1107111111111111111,reply=1107222222222222222',
    },
    services: { backgroundJobs: false, now: () => clock, smsReconnectBaseMs: 20 },
  });
  const admin = await signIn(subject.app, db(), { role: 'admin' });
  await call('PUT', '/api/v1/admin/notifications/settings', admin, {
    smsEnabled: true,
    // The same donor is asked about several requests here.
    maxAlertsPerDonorPer7d: 20,
  });
  return admin;
}

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject!.app.inject({ method, url, headers: user?.headers ?? {}, payload });
}

/** An approved donor near the request with a phone who turned SMS alerts on. */
async function smsDonor(phone: string, language: 'en' | 'hi' = 'en') {
  const donor = await makeDonor(subject!.app, db(), { km: 4, now: clock });
  // A verified number: phone alerts and replies need one (issue #32 item 7).
  await db()
    .update(users)
    .set({ phone, language, phoneVerifiedAt: new Date(clock) })
    .where(eq(users.id, donor.row.id));
  const res = await call('PUT', '/api/v1/notifications/channels/sms', donor, {
    consent: true,
    language,
  });
  expect(res.statusCode, res.body).toBe(200);
  return donor;
}

async function verifiedRequest(admin: SignedInUser, overrides: Record<string, unknown> = {}) {
  // A signed-in requester: a guest would also get its tracking code by SMS
  // (requester-messages.test.ts); here only the donor alerts go out.
  const requester = await signIn(subject!.app, db(), { role: 'donor' });
  const created = await call('POST', '/api/v1/blood-requests', requester, {
    ...requestBody({ bloodType: 'O-', urgency: 'critical', ...overrides }),
  });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json().data.request.id;
  const started = Date.now();
  const verified = await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
    status: 'verified',
    notes: 'Called the hospital',
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return { id, started };
}

/** The outbox's SMS rows (codes and answers to replies are recorded too: #32 item 11). */
const smsRows = () =>
  db()
    .select()
    .from(notificationDeliveries)
    .where(
      and(eq(notificationDeliveries.channel, 'sms'), eq(notificationDeliveries.kind, 'outbox')),
    );

describe('donor alerts by SMS over SMPP', () => {
  it('sends a critical alert in one SMS with DLT ids and a short link; YES accepts like the app; STOP withdraws', async () => {
    const admin = await start(Date.parse('2026-11-25T12:00:00+05:30'));
    const donor = await smsDonor('+919812345678');
    const [consent] = await db()
      .select()
      .from(channelConsents)
      .where(eq(channelConsents.userId, donor.row.id));
    expect(consent).toMatchObject({
      channel: 'sms',
      language: 'en',
      wording: CHANNEL_CONSENT_WORDING.sms.en,
      withdrawnAt: null,
    });

    const { id, started } = await verifiedRequest(admin, { hospitalName: 'Gandhi Hospital' });
    await subject!.app.services.notifier.deliverDue();
    expect(smsc!.received).toHaveLength(1);
    const sms = smsc!.received[0]!;
    // The figure reported: verification to the SMS acknowledged at the SMPP peer.
    console.info(`verification → SMS at the SMPP peer: ${sms.at - started} ms`);
    expect(sms).toMatchObject({
      sourceAddr: 'BDMSIN',
      destinationAddr: '919812345678',
      dataCoding: 0,
      entityId: '1101234567890123456',
      templateId: '1107111111111111111',
    });
    expect(fitsOneSms(sms.text)).toBe(true);
    expect(sms.text).toContain('O- blood');
    expect(sms.text).toContain('Reply YES');
    const [row] = await smsRows();
    expect(row).toMatchObject({
      status: 'sent',
      destination: '+919812345678',
      providerMessageId: sms.messageId,
      bloodRequestId: id,
      critical: true,
    });
    expect(sms.text).toContain(`${PUBLIC_URL}/r/${row!.shortCode}`);

    // The short link opens the donor's matched request page; a made-up one goes home.
    const link = await call('GET', `/r/${row!.shortCode}`);
    expect(link.statusCode).toBe(302);
    expect(link.headers.location).toBe(`/dashboard?request=${id}`);
    expect((await call('GET', '/r/ZZZZZZZZ')).headers.location).toBe('/');

    // The delivery receipt lands on the delivery row.
    expect(await smsc!.receipt(sms.messageId, 'DELIVRD')).toBe(0);
    const [receipted] = await smsRows();
    expect(receipted!.receiptStatus).toBe('DELIVRD');

    // YES accepts through the in-app service: match answered, request in progress, contact sent.
    expect(await smsc!.inbound('919812345678', 'yes')).toBe(0);
    const [match] = await db()
      .select()
      .from(bloodRequestMatches)
      .where(
        and(eq(bloodRequestMatches.requestId, id), eq(bloodRequestMatches.donorId, donor.row.id)),
      );
    expect(match!.response).toBe('accepted');
    const [request] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, id));
    expect(request!.status).toBe('in_progress');
    const answer = smsc!.received[1]!;
    expect(answer.destinationAddr).toBe('919812345678');
    expect(answer.templateId).toBe('1107222222222222222');
    expect(answer.text).toContain('Ravi Kumar');
    expect(answer.text).toContain(request!.contactPhone!);

    // Something else gets a polite "did not understand", and changes nothing.
    expect(await smsc!.inbound('919812345678', 'maybe later')).toBe(0);
    expect(smsc!.received[2]!.text).toMatch(/did not understand/);

    // A number nobody registered gets the same polite answer.
    expect(await smsc!.inbound('919000000001', 'YES')).toBe(0);
    expect(smsc!.received[3]!.text).toMatch(/did not understand/);

    // STOP withdraws at once and is confirmed.
    expect(await smsc!.inbound('919812345678', 'STOP')).toBe(0);
    const [withdrawn] = await db()
      .select()
      .from(channelConsents)
      .where(eq(channelConsents.userId, donor.row.id));
    expect(withdrawn!.withdrawnVia).toBe('reply');
    expect(withdrawn!.withdrawnAt).not.toBeNull();
    expect(smsc!.received[4]!.text).toMatch(/no more alerts/);
    const consents = await call('GET', '/api/v1/notifications/channels', donor);
    expect(consents.json().data.channels[0]).toMatchObject({
      channel: 'sms',
      available: true,
      consented: false,
      withdrawnVia: 'reply',
    });
  });

  it('loses nothing and sends nothing twice when the SMSC drops the link mid-batch', async () => {
    const admin = await start(Date.parse('2026-11-25T12:00:00+05:30'));
    const phones = Array.from({ length: 6 }, (_, i) => `+91981234560${i}`);
    for (const phone of phones) await smsDonor(phone);
    await verifiedRequest(admin);
    smsc!.dropAfter(3);
    await subject!.app.services.notifier.deliverDue();
    const afterDrop = await smsRows();
    expect(afterDrop.filter((row) => row.status === 'sent').length).toBeLessThan(6);
    expect(afterDrop.filter((row) => row.status === 'queued').length).toBeGreaterThan(0);
    // Past the retry delay (30 s × 2^attempts) the link is back and the rest goes out once.
    clock += 61_000;
    await subject!.app.services.notifier.deliverDue();
    const rows = await smsRows();
    expect(rows.map((row) => row.status)).toEqual(Array(6).fill('sent'));
    const acknowledged = smsc!.received.map((sms) => `+${sms.destinationAddr}`).sort();
    expect(acknowledged).toEqual([...phones].sort());
    expect(new Set(rows.map((row) => row.providerMessageId)).size).toBe(6);
    expect(smsc!.binds).toBe(2);
  });

  it('holds non-critical alerts through quiet hours, and over the budget sends Critical only', async () => {
    // 06:55 in India, 01:25 UTC: quiet hours until 07:00 India time.
    const admin = await start(Date.parse('2026-11-26T06:55:00+05:30'));
    const donor = await smsDonor('+919812345670', 'hi');
    await verifiedRequest(admin, { urgency: 'urgent' });
    await subject!.app.services.notifier.deliverDue();
    expect(smsc!.received).toHaveLength(0);
    const [held] = await smsRows();
    expect(held!.nextAttemptAt.toISOString()).toBe('2026-11-26T01:30:00.000Z'); // 07:00 IST
    clock = Date.parse('2026-11-26T07:00:00+05:30');
    await subject!.app.services.notifier.deliverDue();
    expect(smsc!.received).toHaveLength(1);
    expect(smsc!.received[0]!.dataCoding).toBe(8);
    expect(fitsOneSms(smsc!.received[0]!.text)).toBe(true);
    expect(smsc!.received[0]!.text).toContain('रक्त');

    // The budget is spent: an urgent alert is skipped, a critical one goes and is counted.
    await call('PUT', '/api/v1/admin/notifications/settings', admin, { smsDailyBudget: 1 });
    await verifiedRequest(admin, { urgency: 'urgent', bloodType: 'O-' });
    await verifiedRequest(admin, { urgency: 'critical', bloodType: 'O-' });
    await subject!.app.services.notifier.deliverDue();
    const rows = await smsRows();
    expect(rows.map((row) => [row.critical, row.status, row.overBudget]).sort()).toEqual(
      [
        [false, 'sent', false],
        [false, 'skipped', false],
        [true, 'sent', true],
      ].sort(),
    );
    const status = await call('GET', '/api/v1/admin/notifications/channels', admin);
    expect(status.statusCode).toBe(200);
    const sms = status
      .json()
      .data.channels.find((channel: { channel: string }) => channel.channel === 'sms');
    expect(sms).toMatchObject({
      configured: true,
      enabled: true,
      failingSince: null,
      sentToday: 2,
      dailyBudget: 1,
      overBudgetToday: 1,
    });
    expect((await call('GET', '/api/v1/admin/notifications/channels', donor)).statusCode).toBe(403);
  });
});
