import { OTP_MAX_ATTEMPTS, OTP_TTL_MINUTES } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, dailyCounters, oneTimeCodes, users } from '../../db/schema';
import { DAILY_LIMITS } from '../../lib/auth-limits';
import { indiaDay } from '../../lib/daily-counters';
import { keyedDigest } from '../../lib/tokens';
import { phoneCodeBudgetKey } from '../../lib/sms/phone-codes';
import { bearer, loginAs, registerBody, seedUser } from '../../test/auth-helpers';
import {
  createRecordingPhoneCodeSender,
  type RecordingPhoneCodeSender,
} from '../../test/phone-code-recorder';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

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
    env: { FEATURE_FLAGS: 'phoneVerification' },
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
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

function post(url: string, payload: object, remoteAddress = OWNER, headers: object = {}) {
  return subject.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress,
    headers: { ...headers },
  });
}

async function verifiedDonor(phone: string, language = 'en') {
  const seeded = await seedUser(db(), { phone, language, status: 'approved' });
  await db().update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, seeded.row.id));
  return seeded;
}

describe('POST /api/v1/auth/login-otp by phone', () => {
  it('sends a sign-in code by SMS to a verified phone, in the account language, and signs in with it', async () => {
    const donor = await verifiedDonor('+919811100001', 'hi');
    const res = await post('/api/v1/auth/login-otp', { phone: '098111 00001' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { sent: true } });
    const message = await sms.last('+919811100001');
    expect(message).toMatchObject({ to: '+919811100001', purpose: 'login', language: 'hi' });
    expect(message!.code).toMatch(/^\d{6}$/);
    expect(message!.text.startsWith(`${message!.code} `)).toBe(true);
    expect(message!.text).toMatch(/[\u0900-\u097F]/);
    // Stored hashed, never the plain code; expires after OTP_TTL_MINUTES.
    const [row] = await db().select().from(oneTimeCodes);
    expect(row).toMatchObject({ userId: donor.row.id, purpose: 'login', phone: '+919811100001' });
    expect(row!.codeHash).not.toContain(message!.code);
    expect(row!.codeHash.length).toBeGreaterThanOrEqual(43);
    const ttl = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(ttl).toBe(OTP_TTL_MINUTES * 60_000);

    const signIn = await post('/api/v1/auth/login-otp', {
      phone: '+919811100001',
      code: message!.code,
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().data.user).toMatchObject({
      id: donor.row.id,
      phone: '+919811100001',
      phoneVerifiedAt: expect.any(String),
    });
    expect(signIn.json().data.tokens.accessToken).toEqual(expect.any(String));
    // Used: it does not sign in twice.
    const again = await post('/api/v1/auth/login-otp', {
      phone: '+919811100001',
      code: message!.code,
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('INVALID_OTP');
  });

  it('answers the same for an unknown, an unverified and a deleted account, and sends nothing', async () => {
    await seedUser(db(), { phone: '+919811100002' }); // never verified
    const gone = await verifiedDonor('+919811100003');
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.row.id));
    const known = await verifiedDonor('+919811100004');
    const replies = [];
    for (const phone of ['9811100009', '9811100002', '9811100003', '9811100004']) {
      const res = await post('/api/v1/auth/login-otp', { phone });
      replies.push({ status: res.statusCode, body: res.json() });
    }
    expect(new Set(replies.map((reply) => JSON.stringify(reply))).size).toBe(1);
    await settle();
    expect(sms.sent.map((message) => message.to)).toEqual(['+919811100004']);
    const rows = await db().select().from(oneTimeCodes);
    expect(rows.map((row) => row.userId)).toEqual([known.row.id]);
    // The unverified phone cannot sign in either, whatever the code.
    const guess = await post('/api/v1/auth/login-otp', { phone: '9811100002', code: '123456' });
    expect(guess.json().error.code).toBe('INVALID_OTP');
  });

  it('takes exactly one of e-mail and phone, and a mobile only', async () => {
    const both = await post('/api/v1/auth/login-otp', { phone: '9811100001', email: 'a@b.in' });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.code).toBe('VALIDATION_ERROR');
    const neither = await post('/api/v1/auth/login-otp', { code: '123456' });
    expect(neither.statusCode).toBe(400);
    const landline = await post('/api/v1/auth/login-otp', { phone: '040-2345 6789' });
    expect(landline.statusCode).toBe(400);
    expect(JSON.stringify(landline.json().error.details)).toContain('body.phone');
    expect(sms.sent).toHaveLength(0);
  });

  it('is 409 SMS_UNAVAILABLE without a provider, before counting anything; e-mail still works', async () => {
    const bare = await createTestApp({
      database: testDb.database,
      services: { backgroundJobs: false },
    });
    try {
      await verifiedDonor('+919811100001');
      const res = await bare.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login-otp',
        payload: { phone: '9811100001' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('SMS_UNAVAILABLE');
      expect(await db().select().from(dailyCounters)).toHaveLength(0);
      expect(await db().select().from(oneTimeCodes)).toHaveLength(0);
      const mail = await bare.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login-otp',
        payload: { email: 'nobody@example.org' },
      });
      expect(mail.json()).toEqual({ success: true, data: { sent: true } });
    } finally {
      await bare.close();
    }
  });

  it('caps sign-in codes per phone per day in the database, registered or not', async () => {
    await verifiedDonor('+919811100001');
    const statuses: Record<string, number[]> = { known: [], unknown: [] };
    for (let i = 0; i < DAILY_LIMITS.loginCodesByPhone + 1; i += 1) {
      // Each from its own address, so only the daily cap (not the backoff) can stop it.
      const address = `198.51.100.${i + 1}`;
      statuses.known!.push(
        (await post('/api/v1/auth/login-otp', { phone: '9811100001' }, address)).statusCode,
      );
      statuses.unknown!.push(
        (await post('/api/v1/auth/login-otp', { phone: '9811100099' }, address)).statusCode,
      );
    }
    const expected = [...Array(DAILY_LIMITS.loginCodesByPhone).fill(200), 429];
    expect(statuses).toEqual({ known: expected, unknown: expected });
    await settle();
    expect(sms.sent).toHaveLength(DAILY_LIMITS.loginCodesByPhone);
  });
});

describe('phone verification', () => {
  it('at registration with the flag on: the phone is unverified until the code comes back', async () => {
    const res = await post(
      '/api/v1/auth/register',
      registerBody({ phone: '98111 00005', email: 'asha@example.org', language: 'ta' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data.user.phoneVerifiedAt).toBeNull();
    expect(data.phoneVerification).toEqual({
      phone: '+919811100005',
      expiresAt: expect.any(String),
    });
    const message = await sms.last('+919811100005', 'phone_verification');
    expect(message).toMatchObject({ language: 'ta' });
    expect(message!.text).toMatch(/[\u0B80-\u0BFF]/);
    const headers = bearer(data.tokens.accessToken);

    // An unverified phone cannot be used to sign in by code.
    await post('/api/v1/auth/login-otp', { phone: '9811100005' }, '198.51.100.1');
    await settle();
    expect(sms.sent.filter((sent) => sent.purpose === 'login')).toHaveLength(0);

    const wrong = await post(
      `/api/v1/users/${data.user.id}/phone/verify`,
      { code: wrongCode(message!.code) },
      OWNER,
      headers,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('INVALID_PHONE_CODE');
    const ok = await post(
      `/api/v1/users/${data.user.id}/phone/verify`,
      { code: message!.code },
      OWNER,
      headers,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Date.parse(ok.json().data.user.phoneVerifiedAt)).toBeGreaterThan(Date.now() - 60_000);
    const [row] = await db().select().from(users).where(eq(users.id, data.user.id));
    expect(row!.phoneVerifiedAt).toBeInstanceOf(Date);
    const log = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'user.phone_verified'));
    expect(log).toHaveLength(1);
    // Now it signs in by SMS.
    await post('/api/v1/auth/login-otp', { phone: '9811100005' }, '198.51.100.2');
    expect(await sms.last('+919811100005', 'login')).toBeDefined();
    // And asking again is refused: it is verified.
    const again = await post(
      `/api/v1/users/${data.user.id}/phone/verification`,
      {},
      OWNER,
      headers,
    );
    expect(again.statusCode).toBe(409);
  });

  it('registers with the flags cache cold: the flag is read inside the transaction', async () => {
    // On PGlite (one connection) a flags read outside the open transaction would wait for it
    // forever: the registration would never answer.
    subject.app.services.flags.invalidate();
    const res = await post('/api/v1/auth/register', registerBody({ phone: '98111 00077' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.phoneVerification.phone).toBe('+919811100077');
    expect(await sms.last('+919811100077', 'phone_verification')).toBeDefined();
  });

  it("registers all the same when the number's codes for today are spent, unverified", async () => {
    await db()
      .insert(dailyCounters)
      .values({
        key: phoneCodeBudgetKey(subject.config.jwtSecret, 'phone_verification', '+919811100013'),
        day: indiaDay(Date.now()),
        count: DAILY_LIMITS.phoneCodesPerPurpose.account_phone,
      });
    const res = await post(
      '/api/v1/auth/register',
      registerBody({ phone: '98111 00013', email: 'meena@example.org' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.phoneVerification).toBeUndefined();
    expect(res.json().data.user.phoneVerifiedAt).toBeNull();
    await settle();
    expect(sms.sent).toHaveLength(0);
  });

  it('with the flag off, registration sends nothing and the phone is not verified', async () => {
    const plain = await createTestApp({
      database: testDb.database,
      services: { phoneCodeSender: sms, backgroundJobs: false },
    });
    try {
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: registerBody({ phone: '98111 00006', email: 'ravi@example.org' }),
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.phoneVerification).toBeUndefined();
      expect(res.json().data.user.phoneVerifiedAt).toBeNull();
      await settle();
      expect(sms.sent).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });

  it('a resent code voids the earlier one; only the account itself may ask', async () => {
    const donor = await seedUser(db(), { phone: '+919811100007' });
    const other = await seedUser(db());
    const { tokens } = await loginAs(subject.app, donor);
    const { tokens: otherTokens } = await loginAs(subject.app, other);
    const first = await post(
      `/api/v1/users/${donor.row.id}/phone/verification`,
      {},
      OWNER,
      bearer(tokens.accessToken),
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ phone: '+919811100007', expiresAt: expect.any(String) });
    const firstCode = (await sms.last('+919811100007'))!.code;
    await post(
      `/api/v1/users/${donor.row.id}/phone/verification`,
      {},
      OWNER,
      bearer(tokens.accessToken),
    );
    await settle();
    expect(sms.sent).toHaveLength(2);
    const secondCode = sms.sent[1]!.code;
    const stranger = await post(
      `/api/v1/users/${donor.row.id}/phone/verification`,
      {},
      OWNER,
      bearer(otherTokens.accessToken),
    );
    expect(stranger.statusCode).toBe(403);
    if (firstCode !== secondCode) {
      const old = await post(
        `/api/v1/users/${donor.row.id}/phone/verify`,
        { code: firstCode },
        OWNER,
        bearer(tokens.accessToken),
      );
      expect(old.json().error.code).toBe('INVALID_PHONE_CODE');
    }
    const stolen = await post(
      `/api/v1/users/${donor.row.id}/phone/verify`,
      { code: secondCode },
      OWNER,
      bearer(otherTokens.accessToken),
    );
    expect(stolen.statusCode).toBe(403);
    const ok = await post(
      `/api/v1/users/${donor.row.id}/phone/verify`,
      { code: secondCode },
      OWNER,
      bearer(tokens.accessToken),
    );
    expect(ok.json().data.user.phoneVerifiedAt).toEqual(expect.any(String));
  });

  it(`counts parallel wrong codes exactly: ${OTP_MAX_ATTEMPTS} tries, then even the right code fails`, async () => {
    const donor = await seedUser(db(), { phone: '+919811100008' });
    const { tokens } = await loginAs(subject.app, donor);
    const headers = bearer(tokens.accessToken);
    await post(`/api/v1/users/${donor.row.id}/phone/verification`, {}, OWNER, headers);
    const code = (await sms.last('+919811100008'))!.code;
    const guesses = await Promise.all(
      Array.from({ length: 12 }, () =>
        post(
          `/api/v1/users/${donor.row.id}/phone/verify`,
          { code: wrongCode(code) },
          OWNER,
          headers,
        ),
      ),
    );
    expect(guesses.every((res) => res.statusCode === 400)).toBe(true);
    const [row] = await db()
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, donor.row.id));
    expect(row!.attempts).toBe(OTP_MAX_ATTEMPTS);
    const late = await post(`/api/v1/users/${donor.row.id}/phone/verify`, { code }, OWNER, headers);
    expect(late.statusCode).toBe(400);
    const [user] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(user!.phoneVerifiedAt).toBeNull();
  });

  it('caps sign-in codes per phone per day, exactly, under parallel requests; other purposes do not count', async () => {
    const donor = await verifiedDonor('+919811100010');
    // Codes of other purposes sent earlier today take nothing from the sign-in codes; sign-in
    // codes sent earlier leave room for two more.
    await db()
      .insert(dailyCounters)
      .values([
        {
          key: phoneCodeBudgetKey(subject.config.jwtSecret, 'phone_verification', '+919811100010'),
          day: indiaDay(Date.now()),
          count: DAILY_LIMITS.phoneCodesPerPurpose.account_phone,
        },
        {
          key: `login-code-phone:${keyedDigest(subject.config.jwtSecret, 'phone', '+919811100010')}`,
          day: indiaDay(Date.now()),
          count: DAILY_LIMITS.loginCodesByPhone - 2,
        },
      ]);
    const requests = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post('/api/v1/auth/login-otp', { phone: '9811100010' }, `198.51.100.${i + 1}`),
      ),
    );
    const statuses = requests.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
    expect(requests.find((res) => res.statusCode === 429)!.headers['retry-after']).toMatch(/^\d+$/);
    await settle();
    expect(sms.sent.filter((message) => message.to === donor.row.phone)).toHaveLength(2);
  });

  it('a phone change confirmed by code verifies the new number', async () => {
    const donor = await seedUser(db(), { phone: '+919811100011' });
    const { tokens } = await loginAs(subject.app, donor);
    const headers = bearer(tokens.accessToken);
    const patch = await subject.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${donor.row.id}`,
      payload: { phone: '9811100012' },
      headers,
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const message = await sms.last('+919811100012', 'phone_change');
    const res = await post(
      `/api/v1/users/${donor.row.id}/phone/confirm`,
      { code: message!.code },
      OWNER,
      headers,
    );
    expect(res.json().data.user).toMatchObject({
      phone: '+919811100012',
      phoneVerifiedAt: expect.any(String),
    });
  });
});
