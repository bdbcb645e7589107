import { CONSENT_VERSION } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  consentRecords,
  idempotencyKeys,
  refreshTokens,
  users,
} from '../../db/schema';
import { verifyPassword } from '../../lib/password';
import {
  bearer,
  birthDateYearsAgo,
  expectUserShape,
  registerBody,
  seedUser,
} from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { AUTH_RATE_LIMITS } from './auth.routes';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({ database: testDb.database });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

function register(payload: unknown, headers: Record<string, string> = {}) {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: payload as object,
    headers,
  });
}

describe('POST /api/v1/auth/register', () => {
  it('creates a pending donor, signs them in, and records consent and the activity', async () => {
    const body = registerBody({
      email: '  Asha.Verma@Example.ORG ',
      phone: '+91 98765 43210',
      language: 'hi',
    });
    const res = await register(body, { 'user-agent': 'vitest-browser/1.0' });
    expect(res.statusCode, res.body).toBe(201);
    const { success, data } = res.json();
    expect(success).toBe(true);
    const user = expectUserShape(data.user);
    expect(user).toMatchObject({
      email: 'asha.verma@example.org',
      role: 'donor',
      status: 'pending',
      isApproved: false,
      verification: { isVerified: false },
      onboardingCompleted: false,
      questionnaireCompleted: false,
      documents: [],
      name: 'Asha Verma',
      fullName: 'Asha Verma',
      phone: '+919876543210',
      phoneNumber: '+919876543210',
      bloodType: 'O+',
      gender: 'female',
      dateOfBirth: body.dateOfBirth,
      city: 'Pune',
      state: 'Maharashtra',
      pincode: '411001',
      available: true,
      lastDonationAt: null,
      nextEligibleAt: null,
      totalDonations: 0,
      language: 'hi',
    });
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
    expect(data.tokens).toEqual({
      accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refreshToken: expect.stringMatching(/^[\w-]{43}$/),
      expiresIn: 3600,
    });

    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row!.passwordHash, body.password)).toBe(true);

    const consents = await db().select().from(consentRecords);
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({
      userId: user.id,
      version: CONSENT_VERSION,
      purposes: ['privacy_policy', 'terms', 'data_processing_for_matching'],
      userAgent: 'vitest-browser/1.0',
      ip: '127.0.0.1',
    });

    const sessions = await db().select().from(refreshTokens);
    expect(sessions).toHaveLength(1);
    // Only the hash is stored.
    expect(sessions[0]!.tokenHash).not.toBe(data.tokens.refreshToken);
    expect(sessions[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const entries = await db().select().from(activityLog);
    expect(entries.map((entry) => entry.action)).toEqual(['user.registered']);
    expect(entries[0]).toMatchObject({ actorId: user.id, targetId: user.id });

    // The access token works.
    const me = await subject.app.inject({
      url: '/api/v1/auth/me',
      headers: bearer(data.tokens.accessToken),
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.user.id).toBe(user.id);
  });

  it('defaults the e-mail language to English', async () => {
    const res = await register(registerBody());
    expect(res.json().data.user.language).toBe('en');
  });

  it('refuses a taken e-mail address with 409 EMAIL_TAKEN, whatever its case', async () => {
    await register(registerBody({ email: 'taken@example.org' }));
    const res = await register(registerBody({ email: 'TAKEN@example.org' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      error: {
        code: 'EMAIL_TAKEN',
        message: 'An account with this e-mail address already exists.',
        details: [{ path: 'body.email', message: expect.any(String) }],
      },
    });
    expect(await db().select().from(users)).toHaveLength(1);
  });

  it('refuses a taken phone number written another way with 409 PHONE_TAKEN', async () => {
    await register(registerBody({ phone: '9876501234' }));
    for (const phone of ['+91 98765 01234', '09876501234', '91-98765-01234']) {
      const res = await register(registerBody({ phone }));
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('PHONE_TAKEN');
    }
    expect(await db().select().from(users)).toHaveLength(1);
  });

  it('answers 409, never 500, when two registrations with one address race', async () => {
    const body = registerBody();
    const results = await Promise.all([
      register(body),
      register({ ...body, phone: '9123456780' }),
      register({ ...body, phone: '9123456781' }),
    ]);
    const statuses = results.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const res of results.filter((r) => r.statusCode === 409)) {
      expect(res.json().error.code).toBe('EMAIL_TAKEN');
    }
    expect(await db().select().from(users)).toHaveLength(1);
  });

  it('refuses donors under 18 and over 65 with the field path', async () => {
    const young = await register(registerBody({ dateOfBirth: birthDateYearsAgo(18, 1) }));
    expect(young.statusCode).toBe(400);
    expect(young.json().error.code).toBe('VALIDATION_ERROR');
    expect(young.json().error.details).toEqual([
      { path: 'body.dateOfBirth', message: 'Donors must be 18 to 65 years old.' },
    ]);
    const old = await register(registerBody({ dateOfBirth: birthDateYearsAgo(66) }));
    expect(old.statusCode).toBe(400);
    expect(old.json().error.details[0].path).toBe('body.dateOfBirth');
    const eighteen = await register(registerBody({ dateOfBirth: birthDateYearsAgo(18) }));
    expect(eighteen.statusCode).toBe(201);
  });

  it("refuses a landline as a donor's phone (donors receive SMS), and keeps a Tamil interface language", async () => {
    const landline = await register({ ...registerBody(), phone: '040-2345 6789' });
    expect(landline.statusCode).toBe(400);
    expect(landline.json().error.details.map((detail: { path: string }) => detail.path)).toContain(
      'body.phone',
    );
    expect(await db().select().from(users)).toHaveLength(0);

    const tamil = await register({ ...registerBody(), language: 'ta' });
    expect(tamil.statusCode, tamil.body).toBe(201);
    expect(tamil.json().data.user.language).toBe('ta');
    const [row] = await db().select().from(users);
    expect(row!.language).toBe('ta');
  });

  it('requires consent, a valid phone and a known blood type', async () => {
    const res = await register({
      ...registerBody(),
      consent: false,
      phone: '12345',
      bloodType: 'C+',
    });
    expect(res.statusCode).toBe(400);
    const paths = res.json().error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(expect.arrayContaining(['body.consent', 'body.phone', 'body.bloodType']));
    expect(await db().select().from(users)).toHaveLength(0);
  });

  it('is idempotent by X-Request-ID: a retry gets the same account with new tokens and creates nothing else', async () => {
    const body = registerBody();
    const first = await register(body, { 'x-request-id': 'register-retry-1' });
    expect(first.statusCode).toBe(201);
    const retry = await register(body, { 'x-request-id': 'register-retry-1' });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.user).toEqual(first.json().data.user);
    // Tokens are never stored, so the retry gets a session of its own, and it works.
    const retryTokens = retry.json().data.tokens;
    expect(retryTokens.refreshToken).not.toBe(first.json().data.tokens.refreshToken);
    const me = await subject.app.inject({
      url: '/api/v1/auth/me',
      headers: bearer(retryTokens.accessToken),
    });
    expect(me.json().data.user.id).toBe(first.json().data.user.id);
    expect(await db().select().from(users)).toHaveLength(1);
    expect(await db().select().from(refreshTokens)).toHaveLength(2);
    expect(await db().select().from(consentRecords)).toHaveLength(1);
    expect(await db().select().from(idempotencyKeys)).toHaveLength(1);

    // A concurrent duplicate is answered the same way.
    const racing = registerBody();
    const both = await Promise.all([
      register(racing, { 'x-request-id': 'register-race-2' }),
      register(racing, { 'x-request-id': 'register-race-2' }),
    ]);
    expect(both.map((res) => res.statusCode)).toEqual([201, 201]);
    expect(both[0]!.json().data.user.id).toBe(both[1]!.json().data.user.id);
    expect(await db().select().from(users)).toHaveLength(2);
  });

  it('keeps no token of the reply at rest: the stored reply holds only the user id', async () => {
    const body = registerBody();
    const res = await register(body, { 'x-request-id': 'register-at-rest-1' });
    expect(res.statusCode).toBe(201);
    const { user, tokens } = res.json().data;
    const rows = await db().select().from(idempotencyKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body).toEqual({ user: { id: user.id } });
    // Neither token, nor any 12-character piece of one, is anywhere in the table.
    const stored = JSON.stringify(rows);
    for (const token of [tokens.accessToken, tokens.refreshToken] as string[]) {
      for (let start = 0; start + 12 <= token.length; start += 6) {
        expect(stored).not.toContain(token.slice(start, start + 12));
      }
    }
    expect(stored).not.toContain(body.password);
  });

  it('replays only to someone who still has the password: after a change, a retry is 409', async () => {
    const body = registerBody();
    const first = await register(body, { 'x-request-id': 'register-changed-1' });
    const { user, tokens } = first.json().data;
    const changed = await subject.app.inject({
      method: 'POST',
      url: `/api/v1/users/${user.id}/password`,
      headers: bearer(tokens.accessToken),
      payload: { currentPassword: body.password, newPassword: 'a brand new passphrase' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const sessionsBefore = (await db().select().from(refreshTokens)).length;
    const retry = await register(body, { 'x-request-id': 'register-changed-1' });
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error).toEqual({
      code: 'CONFLICT',
      message:
        'This registration was already completed. Sign in with your e-mail address and password.',
    });
    expect(await db().select().from(refreshTokens)).toHaveLength(sessionsBefore);
  });

  it('refuses a commonly breached or easily guessed password with 400 WEAK_PASSWORD', async () => {
    for (const password of ['Password@123', 'qwertyuiop', 'india@123', 'Asha@9812345678']) {
      const res = await register(registerBody({ password, phone: '98123 45678' }));
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error).toEqual({
        code: 'WEAK_PASSWORD',
        message: expect.stringContaining('too common'),
        details: [{ path: 'body.password', message: expect.stringContaining('too common') }],
      });
    }
    expect(await db().select().from(users)).toHaveLength(0);
  });

  it('refuses the same X-Request-ID with another body, and treats a new id as a new request', async () => {
    const body = registerBody();
    await register(body, { 'x-request-id': 'register-reuse-1' });
    const other = await register(registerBody(), { 'x-request-id': 'register-reuse-1' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('CONFLICT');
    const again = await register(body, { 'x-request-id': 'register-reuse-2' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('EMAIL_TAKEN');
  });

  it('does not store a failed attempt, so its retry runs again', async () => {
    await seedUser(db(), { email: 'first@example.org' });
    const body = registerBody({ email: 'first@example.org' });
    const failed = await register(body, { 'x-request-id': 'register-fail-1' });
    expect(failed.json().error.code).toBe('EMAIL_TAKEN');
    expect(await db().select().from(idempotencyKeys)).toHaveLength(0);
  });

  it(`allows ${AUTH_RATE_LIMITS.register.max} registrations per hour per address`, async () => {
    for (let i = 0; i < AUTH_RATE_LIMITS.register.max; i += 1) {
      const res = await subject.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { consent: false },
        remoteAddress: '198.51.100.7',
      });
      expect(res.statusCode).toBe(400);
    }
    const over = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: registerBody(),
      remoteAddress: '198.51.100.7',
    });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('POST /api/v1/auth/check-email and check-phone', () => {
  it('tells whether an address is free, ignoring case and spaces', async () => {
    await seedUser(db(), { email: 'known@example.org', phone: '+919812345678' });
    const check = (email: string) =>
      subject.app.inject({ method: 'POST', url: '/api/v1/auth/check-email', payload: { email } });
    const known = await check(' KNOWN@example.org');
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ success: true, data: { available: false } });
    expect((await check('new@example.org')).json().data).toEqual({ available: true });
    const invalid = await check('not-an-address');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.details[0].path).toBe('body.email');
  });

  it('tells whether a phone number is free, in any accepted format', async () => {
    await seedUser(db(), { phone: '+919812345678' });
    const check = (phone: string) =>
      subject.app.inject({ method: 'POST', url: '/api/v1/auth/check-phone', payload: { phone } });
    for (const phone of ['9812345678', '+91 98123 45678', '098123-45678']) {
      expect((await check(phone)).json().data).toEqual({ available: false });
    }
    expect((await check('9812345679')).json().data).toEqual({ available: true });
    const invalid = await check('5812345678');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.details).toEqual([
      { path: 'body.phone', message: 'Enter a 10-digit Indian mobile number.' },
    ]);
  });

  it(`limits each check to ${AUTH_RATE_LIMITS.availability.max} a minute per address`, async () => {
    for (const [url, payload] of [
      ['/api/v1/auth/check-email', { email: 'someone@example.org' }],
      ['/api/v1/auth/check-phone', { phone: '9812345678' }],
    ] as const) {
      for (let i = 0; i < AUTH_RATE_LIMITS.availability.max; i += 1) {
        const res = await subject.app.inject({
          method: 'POST',
          url,
          payload,
          remoteAddress: '198.51.100.20',
        });
        expect(res.statusCode).toBe(200);
      }
      const over = await subject.app.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: '198.51.100.20',
      });
      expect(over.statusCode).toBe(429);
      expect(over.json().error.code).toBe('RATE_LIMITED');
      expect(over.headers['retry-after']).toBeDefined();
      // Another address is not affected.
      const other = await subject.app.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: '198.51.100.21',
      });
      expect(other.statusCode).toBe(200);
    }
  });
});
