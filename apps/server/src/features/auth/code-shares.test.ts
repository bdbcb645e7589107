import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oneTimeCodes, users } from '../../db/schema';
import { DAILY_LIMITS } from '../../lib/auth-limits';
import { seedUser } from '../../test/auth-helpers';
import {
  createRecordingPhoneCodeSender,
  type RecordingPhoneCodeSender,
} from '../../test/phone-code-recorder';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

/**
 * Issue #32 item 13: a stranger spending an account's daily sign-in codes by phone, from their
 * own address, must leave the owner at another address codes of their own.
 */
let testDb: TestDatabase;
let subject: TestApp;
let sms: RecordingPhoneCodeSender;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  sms = createRecordingPhoneCodeSender();
  subject = await createTestApp({
    database: testDb.database,
    services: { phoneCodeSender: sms, backgroundJobs: false },
  });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
const OWNER = '203.0.113.10';
const STRANGER = '198.51.100.66';

const post = (payload: object, remoteAddress: string) =>
  subject.app.inject({ method: 'POST', url: '/api/v1/auth/login-otp', payload, remoteAddress });

describe('sign-in codes by phone, per client address and number', () => {
  it(`lets a stranger spend only ${DAILY_LIMITS.loginCodesByPhonePerAddress} of a number's codes; the owner elsewhere still gets one and signs in`, async () => {
    expect(DAILY_LIMITS.loginCodesByPhone).toBeGreaterThan(
      DAILY_LIMITS.loginCodesByPhonePerAddress,
    );
    const owner = await seedUser(db(), { phone: '+919811100021', status: 'approved' });
    await db().update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, owner.row.id));

    for (let i = 0; i < DAILY_LIMITS.loginCodesByPhonePerAddress; i += 1) {
      expect((await post({ phone: '9811100021' }, STRANGER)).statusCode).toBe(200);
    }
    const over = await post({ phone: '9811100021' }, STRANGER);
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('RATE_LIMITED');

    sms.clear();
    const asked = await post({ phone: '9811100021' }, OWNER);
    expect(asked.statusCode, asked.body).toBe(200);
    const message = await sms.last('+919811100021', 'login');
    expect(message?.code).toMatch(/^\d{6}$/);
    const signedIn = await post({ phone: '9811100021', code: message!.code }, OWNER);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data.user.id).toBe(owner.row.id);
    const codes = await db()
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, owner.row.id));
    expect(codes).toHaveLength(DAILY_LIMITS.loginCodesByPhonePerAddress + 1);
  });
});
