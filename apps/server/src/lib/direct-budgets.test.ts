import { and, eq } from 'drizzle-orm';
import smpp from 'smpp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bloodRequests, channelConsents, dailyCounters, notifications, users } from '../db/schema';
import { requestBody } from '../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../test/donor-helpers';
import {
  createRecordingPhoneCodeSender,
  type RecordingPhoneCodeSender,
} from '../test/phone-code-recorder';
import { startTestSmppServer, type TestSmppServer } from '../test/smpp-server';
import { createTestApp, type TestApp } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { DIRECT_BUDGETS } from './direct-budgets';
import { CODES_PAUSED_MESSAGE } from './sms/phone-codes';

let testDb: TestDatabase;
let subject: TestApp | null = null;
let smsc: TestSmppServer | null = null;
let codes: RecordingPhoneCodeSender;

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
let address = 0;
const nextAddress = () => `198.51.100.${(address += 1) % 250}`;

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject!.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    payload,
    remoteAddress: nextAddress(),
  });
}

async function adminNotices(type: string) {
  return db().select().from(notifications).where(eq(notifications.type, type));
}

async function panel(admin: SignedInUser) {
  const res = await call('GET', '/api/v1/admin/notifications/channels', admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.directBudgets as Record<
    string,
    { sentToday: number; dailyBudget: number }
  >;
}

describe('the daily budget of phone codes (#32 item 8)', () => {
  it('sends exactly the budget under parallel requests, warns the administrators once, then refuses', async () => {
    codes = createRecordingPhoneCodeSender();
    subject = await createTestApp({
      database: testDb.database,
      env: { FEATURE_FLAGS: 'bloodRequests,phoneVerification' },
      services: { backgroundJobs: false, phoneCodeSender: codes },
    });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const set = await call('PUT', '/api/v1/admin/notifications/settings', admin, {
      phoneCodeDailyBudget: 5,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.phoneCodeDailyBudget).toBe(5);

    // Eight guests, eight numbers, at once: five codes go out, the rest go to review unconfirmed.
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', '/api/v1/blood-requests', undefined, {
          ...requestBody({ contactPhone: `98111444${String(i).padStart(2, '0')}` }),
        }),
      ),
    );
    expect(created.map((res) => res.statusCode)).toEqual(Array(8).fill(201));
    const statuses = created.map((res) => res.json().data.request.status).sort();
    expect(statuses).toEqual(['pending', 'pending', 'pending', ...Array(5).fill('unconfirmed')]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(codes.sent).toHaveLength(5);
    const rows = await db().select().from(bloodRequests);
    expect(
      rows.filter((row) => row.status === 'pending').map((row) => row.contactPhoneConfirmed),
    ).toEqual([false, false, false]);
    const [counter] = await db()
      .select()
      .from(dailyCounters)
      .where(eq(dailyCounters.key, DIRECT_BUDGETS.codes.key));
    expect(counter!.count).toBe(5);
    // Told once, at 80 % (the 4th code), each administrator.
    const warned = await adminNotices('budget.phone_codes_near');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ userId: admin.row.id });
    expect(warned[0]!.message).toContain('4 of today’s 5');

    // A sign-in code now: refused with a clear error, the same for a number with no account.
    const donor = await signIn(subject.app, db(), { role: 'donor', status: 'approved' });
    await db()
      .update(users)
      .set({ phone: '+919811144499', phoneVerifiedAt: new Date() })
      .where(eq(users.id, donor.row.id));
    for (const phone of ['9811144499', '9811144498']) {
      const refused = await call('POST', '/api/v1/auth/login-otp', undefined, { phone });
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json().error.message).toBe(CODES_PAUSED_MESSAGE);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    }
    expect(codes.sent).toHaveLength(5);
    expect(await panel(admin)).toMatchObject({ codes: { sentToday: 5, dailyBudget: 5 } });
  });
});

describe('the daily budget of answers to replies (#32 item 8)', () => {
  it('answers exactly the budget under parallel replies; past it a STOP still withdraws, unanswered', async () => {
    smsc = await startTestSmppServer();
    subject = await createTestApp({
      database: testDb.database,
      env: {
        FEATURE_FLAGS: 'smsNotifications',
        SMS_SMPP_URL: smsc.url,
        SMS_SENDER_ID: 'BDMSIN',
        SMS_DLT_ENTITY_ID: '1101234567890123456',
        SMS_DLT_TEMPLATE_IDS: 'reply=1107222222222222222',
      },
      services: { backgroundJobs: false, smsReconnectBaseMs: 20 },
    });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const set = await call('PUT', '/api/v1/admin/notifications/settings', admin, {
      smsEnabled: true,
      replyAnswerDailyBudget: 3,
    });
    expect(set.statusCode, set.body).toBe(200);
    const donor = await signIn(subject.app, db(), { role: 'donor', status: 'approved' });
    await db()
      .update(users)
      .set({ phone: '+919811155599', phoneVerifiedAt: new Date() })
      .where(eq(users.id, donor.row.id));
    const consent = await call('PUT', '/api/v1/notifications/channels/sms', donor, {
      consent: true,
      language: 'en',
    });
    expect(consent.statusCode, consent.body).toBe(200);

    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        smsc!.inbound(`9198111555${String(i).padStart(2, '0')}`, 'HELLO'),
      ),
    );
    expect(replies).toEqual(Array(6).fill(smpp.ESME_ROK));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smsc.received).toHaveLength(3);
    expect(await adminNotices('budget.reply_answers_near')).toHaveLength(1);

    // Over the budget, the donor's STOP still withdraws the consent; no answer goes out.
    expect(await smsc.inbound('919811155599', 'STOP')).toBe(smpp.ESME_ROK);
    const [row] = await db()
      .select()
      .from(channelConsents)
      .where(and(eq(channelConsents.userId, donor.row.id), eq(channelConsents.channel, 'sms')));
    expect(row!.withdrawnAt).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smsc.received).toHaveLength(3);
    expect(await panel(admin)).toMatchObject({ answers: { sentToday: 3, dailyBudget: 3 } });
  });
});
