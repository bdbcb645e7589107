import { eq } from 'drizzle-orm';
import smpp from 'smpp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notificationDeliveries, users } from '../../../db/schema';
import { signIn } from '../../../test/donor-helpers';
import { startTestSmppServer, type TestSmppServer } from '../../../test/smpp-server';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';

let testDb: TestDatabase;
let subject: TestApp | null = null;
let smsc: TestSmppServer | null = null;

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

async function start() {
  smsc = await startTestSmppServer();
  subject = await createTestApp({
    database: testDb.database,
    env: {
      FEATURE_FLAGS: 'smsNotifications,phoneVerification',
      SMS_SMPP_URL: smsc.url,
      SMS_SENDER_ID: 'BDMSIN',
      SMS_DLT_ENTITY_ID: '1101234567890123456',
      SMS_DLT_TEMPLATE_IDS: 'phone_code=1107333333333333333,reply=1107222222222222222',
    },
    services: { backgroundJobs: false, smsReconnectBaseMs: 20 },
  });
}

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

describe('SMS sent outside the outbox (#32 item 11)', () => {
  it('records a sign-in code and the answer to a reply, and accepts their delivery receipts', async () => {
    await start();
    const admin = await signIn(subject!.app, db(), { role: 'admin' });
    const donor = await signIn(subject!.app, db(), { role: 'donor', status: 'approved' });
    await db()
      .update(users)
      .set({ phone: '+919811133301', phoneVerifiedAt: new Date() })
      .where(eq(users.id, donor.row.id));

    // A sign-in code goes out over SMPP.
    const asked = await subject!.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login-otp',
      payload: { phone: '9811133301' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const code = await waitFor(() =>
      smsc!.received.find((m) => m.destinationAddr.endsWith('9811133301')),
    );
    expect(code.templateId).toBe('1107333333333333333');
    // Its row: no number and no text (the code is a secret), the SMSC's message id.
    const codeRow = await waitFor(async () => {
      const [row] = await db()
        .select()
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.providerMessageId, code.messageId));
      return row;
    });
    expect(codeRow).toMatchObject({
      channel: 'sms',
      kind: 'code',
      status: 'sent',
      destination: null,
      notificationId: null,
    });
    expect(JSON.stringify(codeRow.payload)).not.toContain(code.text.slice(0, 6));
    // Its receipt is accepted (ESME_ROK), not refused for ever, and lands on the row.
    expect(await smsc!.receipt(code.messageId, 'DELIVRD')).toBe(smpp.ESME_ROK);
    const [receipted] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, codeRow.id));
    expect(receipted!.receiptStatus).toBe('DELIVRD');
    expect(receipted!.receiptAt).not.toBeNull();

    // A reply from a stranger gets its answer; that answer's receipt is accepted too.
    expect(await smsc!.inbound('919811133399', 'HELLO')).toBe(smpp.ESME_ROK);
    const answer = await waitFor(() =>
      smsc!.received.find((m) => m.destinationAddr.endsWith('9811133399')),
    );
    const answerRow = await waitFor(async () => {
      const [row] = await db()
        .select()
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.providerMessageId, answer.messageId));
      return row;
    });
    expect(answerRow).toMatchObject({ kind: 'answer', status: 'sent', destination: null });
    expect(await smsc!.receipt(answer.messageId, 'UNDELIV', '001')).toBe(smpp.ESME_ROK);
    const [undelivered] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, answerRow.id));
    expect(undelivered!.receiptStatus).toBe('UNDELIV');

    // A receipt for a message this server never sent is still refused (the SMSC retries).
    expect(await smsc!.receipt('no-such-id')).not.toBe(smpp.ESME_ROK);

    // The channels panel counts both.
    const panel = await subject!.app.inject({
      method: 'GET',
      url: '/api/v1/admin/notifications/channels',
      headers: admin.headers,
    });
    expect(panel.statusCode, panel.body).toBe(200);
    const row = panel
      .json()
      .data.channels.find((channel: { channel: string }) => channel.channel === 'sms');
    expect(row.sentToday).toBe(2);
  });
});
