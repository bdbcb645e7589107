import { OTP_MAX_ATTEMPTS } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, dailyCounters, oneTimeCodes, users } from '../../db/schema';
import { DAILY_LIMITS } from '../../lib/auth-limits';
import type { PhoneCodeMessage, PhoneCodeSender } from '../../lib/sms/phone-code-sender';
import { bearer, loginAs, seedUser } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

let testDb: TestDatabase;
let subject: TestApp;
let sent: PhoneCodeMessage[];

/** A stand-in for the SMS provider a later issue adds: keeps what it was asked to send. */
const capturingSender: PhoneCodeSender = {
  async send(message) {
    sent.push(message);
  },
};

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  sent = [];
  subject = await createTestApp({
    database: testDb.database,
    services: { phoneCodeSender: capturingSender, backgroundJobs: false },
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

async function signedIn(options: Parameters<typeof seedUser>[1] = {}) {
  const seeded = await seedUser(db(), options);
  const { tokens } = await loginAs(subject.app, seeded);
  return { ...seeded, headers: bearer(tokens.accessToken) };
}

const patchUser = (app: TestApp['app'], id: string, payload: object, headers: object) =>
  app.inject({ method: 'PATCH', url: `/api/v1/users/${id}`, payload, headers: { ...headers } });
const confirm = (id: string, code: string, headers: object) =>
  subject.app.inject({
    method: 'POST',
    url: `/api/v1/users/${id}/phone/confirm`,
    payload: { code },
    headers: { ...headers },
  });
const phoneOf = async (id: string) =>
  (await db().select({ phone: users.phone }).from(users).where(eq(users.id, id)))[0]!.phone;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
/** Waits for the (not awaited) hand-over to the sender. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PATCH /api/v1/users/{id} with a new phone', () => {
  it('refuses with 409 SMS_UNAVAILABLE when no SMS provider is configured, and applies nothing', async () => {
    const bare = await createTestApp({
      database: testDb.database,
      services: { backgroundJobs: false },
    });
    try {
      const donor = await seedUser(db(), { phone: '+919811100001' });
      const { tokens } = await loginAs(bare.app, donor);
      const res = await patchUser(
        bare.app,
        donor.row.id,
        { phone: '98111 00002', city: 'Nagpur' },
        bearer(tokens.accessToken),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        success: false,
        error: {
          code: 'SMS_UNAVAILABLE',
          message: expect.stringContaining('SMS is not available'),
          details: [{ path: 'body.phone', message: expect.any(String) }],
        },
      });
      const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
      expect(row).toMatchObject({ phone: '+919811100001', city: null });
      expect(await db().select().from(oneTimeCodes)).toHaveLength(0);
      // Other fields alone still work.
      const city = await patchUser(
        bare.app,
        donor.row.id,
        { city: 'Nagpur' },
        bearer(tokens.accessToken),
      );
      expect(city.json().data.user.city).toBe('Nagpur');
    } finally {
      await bare.close();
    }
  });

  it('keeps the old phone, sends a code to the new one, and applies it only once confirmed', async () => {
    const donor = await signedIn({ phone: '+919811100001', language: 'hi' });
    const res = await patchUser(
      subject.app,
      donor.row.id,
      { phone: '0 98111 00002', city: 'Agra' },
      donor.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.user).toMatchObject({ phone: '+919811100001', city: 'Agra' });
    expect(data.phoneChange).toEqual({ phone: '+919811100002', expiresAt: expect.any(String) });
    expect(Date.parse(data.phoneChange.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(await phoneOf(donor.row.id)).toBe('+919811100001');

    await settle();
    expect(sent).toEqual([
      {
        to: '+919811100002',
        code: expect.stringMatching(/^\d{6}$/),
        purpose: 'phone_change',
        language: 'hi',
        text: expect.stringContaining('फ़ोन नंबर'),
      },
    ]);
    const code = sent[0]!.code;
    expect(sent[0]!.text).toContain(code);
    // Stored as a keyed hash with the pending number, never the code itself.
    const [pending] = await db().select().from(oneTimeCodes);
    expect(pending).toMatchObject({ purpose: 'phone_change', phone: '+919811100002' });
    expect(JSON.stringify(pending)).not.toContain(code);

    const wrong = await confirm(donor.row.id, wrongCode(code), donor.headers);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'INVALID_PHONE_CODE',
      details: [{ path: 'body.code' }],
    });
    expect(await phoneOf(donor.row.id)).toBe('+919811100001');

    const right = await confirm(donor.row.id, code, donor.headers);
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().data.user).toMatchObject({
      phone: '+919811100002',
      phoneNumber: '+919811100002',
    });
    expect(await phoneOf(donor.row.id)).toBe('+919811100002');
    // Used up.
    expect((await confirm(donor.row.id, code, donor.headers)).statusCode).toBe(400);
    const actions = (await db().select().from(activityLog)).map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['user.updated', 'user.phone_change_requested', 'user.phone_changed']),
    );
    const logged = JSON.stringify(await db().select().from(activityLog));
    expect(logged).not.toContain('98111');
  });

  it('answers a registered number exactly like a free one, and sends it no code', async () => {
    await seedUser(db(), { phone: '+919822200009' });
    const donor = await signedIn({ phone: '+919811100001' });
    const taken = await patchUser(
      subject.app,
      donor.row.id,
      { phone: '98222 00009' },
      donor.headers,
    );
    const free = await patchUser(
      subject.app,
      donor.row.id,
      { phone: '98222 00010' },
      donor.headers,
    );
    for (const res of [taken, free]) expect(res.statusCode, res.body).toBe(200);
    const shape = (body: string) =>
      JSON.parse(body, (key, value) => (key === 'expiresAt' || key === 'phone' ? 'x' : value));
    expect(shape(taken.body)).toEqual(shape(free.body));
    expect(taken.json().data.phoneChange.phone).toBe('+919822200009');
    await settle();
    expect(sent.map((message) => message.to)).toEqual(['+919822200010']);
    // The earlier (taken) request is void: only the newest change is pending.
    const live = (await db().select().from(oneTimeCodes)).filter((row) => !row.consumedAt);
    expect(live.map((row) => row.phone)).toEqual(['+919822200010']);
  });

  it('checks the number again when the code is confirmed, with a generic message', async () => {
    const donor = await signedIn({ phone: '+919811100001' });
    await patchUser(subject.app, donor.row.id, { phone: '98111 00003' }, donor.headers);
    await settle();
    // Someone else gets the number meanwhile (e.g. an administrator corrects their account).
    await seedUser(db(), { phone: '+919811100003' });
    const res = await confirm(donor.row.id, sent[0]!.code, donor.headers);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'PHONE_TAKEN',
      message:
        'This phone number cannot be used for this account. Contact support if the number is yours.',
    });
    expect(await phoneOf(donor.row.id)).toBe('+919811100001');
  });

  it(`voids the code after ${OTP_MAX_ATTEMPTS} wrong tries`, async () => {
    const donor = await signedIn();
    await patchUser(subject.app, donor.row.id, { phone: '98111 00004' }, donor.headers);
    await settle();
    const code = sent[0]!.code;
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i += 1) {
      expect((await confirm(donor.row.id, wrongCode(code), donor.headers)).statusCode).toBe(400);
    }
    const right = await confirm(donor.row.id, code, donor.headers);
    expect(right.statusCode).toBe(400);
    expect(right.json().error.code).toBe('INVALID_PHONE_CODE');
    expect(await phoneOf(donor.row.id)).toBe(donor.row.phone);
  });

  it('lets nobody else confirm: another donor gets 403', async () => {
    const donor = await signedIn();
    const other = await signedIn();
    await patchUser(subject.app, donor.row.id, { phone: '98111 00005' }, donor.headers);
    await settle();
    const res = await confirm(donor.row.id, sent[0]!.code, other.headers);
    expect(res.statusCode).toBe(403);
    expect(await phoneOf(donor.row.id)).toBe(donor.row.phone);
  });

  it(`allows ${DAILY_LIMITS.phoneChanges} phone changes per account per day, even to parallel requests`, async () => {
    const donor = await signedIn();
    const replies = await Promise.all(
      Array.from({ length: DAILY_LIMITS.phoneChanges + 3 }, (_, i) =>
        patchUser(subject.app, donor.row.id, { phone: `98333 0000${i}` }, donor.headers),
      ),
    );
    const statuses = replies.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(DAILY_LIMITS.phoneChanges);
    const refused = replies.filter((res) => res.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Each new number also counts towards its own daily ceiling of codes (issue #16).
    const [counter] = await db()
      .select()
      .from(dailyCounters)
      .where(eq(dailyCounters.key, `phone-change:${donor.row.id}`));
    expect(counter).toMatchObject({ key: `phone-change:${donor.row.id}`, count: 5 });
    expect(await db().select().from(oneTimeCodes)).toHaveLength(DAILY_LIMITS.phoneChanges);
  });
});
