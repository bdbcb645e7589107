import { ROLES } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, pushSubscriptions, refreshTokens, users } from '../../db/schema';
import { ACCOUNT_LIMITS } from '../../lib/auth-limits';
import { createAccessTokens, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../lib/tokens';
import { bearer, expectUserShape, loginAs, registerBody, seedUser } from '../../test/auth-helpers';
import type { App } from '../../app';
import { currentUser, requireActiveAccount, requireRole } from '../../plugins/auth';
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

function login(payload: object, remoteAddress = '203.0.113.10') {
  return subject.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload, remoteAddress });
}

function me(headers: Record<string, string>) {
  return subject.app.inject({ url: '/api/v1/auth/me', headers });
}

const SESSION_EXPIRED = {
  success: false,
  error: { code: 'UNAUTHENTICATED', message: 'Your session has expired. Please sign in again.' },
};

describe('POST /api/v1/auth/login', () => {
  it.each(ROLES)('signs in a %s with the role it asked for', async (role) => {
    const seeded = await seedUser(db(), { role });
    const res = await login({
      email: seeded.row.email.toUpperCase(),
      password: seeded.password,
      role,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { user, tokens } = res.json().data;
    expect(expectUserShape(user)).toMatchObject({ id: seeded.row.id, role });
    expect(tokens.expiresIn).toBe(3600);
    const who = await me(bearer(tokens.accessToken));
    expect(who.json().data.user.id).toBe(seeded.row.id);
    const [row] = await db().select().from(users).where(eq(users.id, seeded.row.id));
    expect(row!.lastLoginAt).toBeInstanceOf(Date);
    const entries = await db().select().from(activityLog);
    expect(entries).toMatchObject([{ action: 'user.signed_in', details: { method: 'password' } }]);
  });

  it('answers 403 ROLE_MISMATCH for another role, but only once the password is right', async () => {
    const donor = await seedUser(db(), { role: 'donor' });
    const mismatch = await login({
      email: donor.row.email,
      password: donor.password,
      role: 'admin',
    });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().error.code).toBe('ROLE_MISMATCH');
    const wrongPassword = await login({ email: donor.row.email, password: 'wrong', role: 'admin' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().error.code).toBe('INVALID_CREDENTIALS');
    expect(await db().select().from(refreshTokens)).toHaveLength(0);
  });

  it('gives the same answer for an unknown e-mail and a wrong password', async () => {
    const donor = await seedUser(db());
    const wrong = await login({ email: donor.row.email, password: 'not the password' });
    const unknown = await login({ email: 'nobody@example.org', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        error: { code: 'INVALID_CREDENTIALS', message: 'Incorrect e-mail or password.' },
      });
    }
  });

  it('refuses erased accounts like unknown ones, and lets suspended donors in', async () => {
    const erased = await seedUser(db(), { deletedAt: new Date() });
    const res = await login({ email: erased.row.email, password: erased.password });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('INVALID_CREDENTIALS');
    const suspended = await seedUser(db(), { status: 'suspended' });
    const signedIn = await login({ email: suspended.row.email, password: suspended.password });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data.user.status).toBe('suspended');
  });

  // Issue #32 item 13: keyed by the e-mail alone, five guesses from anywhere locked the owner out.
  it.each(ROLES)(
    `locks one client address out of a %s account after ${ACCOUNT_LIMITS.passwordFailures.max} wrong passwords, while the owner elsewhere signs in`,
    async (role) => {
      const owner = await seedUser(db(), { role });
      for (const email of [owner.row.email, 'ghost@example.org']) {
        for (let i = 0; i < ACCOUNT_LIMITS.passwordFailures.max; i += 1) {
          const res = await login({ email, password: `wrong ${i}` }, '198.51.100.66');
          expect(res.statusCode).toBe(401);
        }
        // The attacker's address is refused, even with the right password.
        const locked = await login({ email, password: owner.password }, '198.51.100.66');
        expect(locked.statusCode).toBe(429);
        expect(locked.json().error.code).toBe('RATE_LIMITED');
        const retryAfter = Number(locked.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(800);
        expect(retryAfter).toBeLessThanOrEqual(900);
      }
      // The owner, at their own address, is not.
      const res = await login({ email: owner.row.email, password: owner.password }, '203.0.113.7');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.user).toMatchObject({ id: owner.row.id, role });
      const [row] = await db().select().from(users).where(eq(users.id, owner.row.id));
      expect(row!.lastLoginAt).toBeInstanceOf(Date);
    },
  );

  it(`refuses an e-mail address everywhere after ${ACCOUNT_LIMITS.passwordFailuresPerAccount.max} wrong passwords spread over many client addresses`, async () => {
    const donor = await seedUser(db());
    const perAddress = ACCOUNT_LIMITS.passwordFailures.max;
    const ceiling = ACCOUNT_LIMITS.passwordFailuresPerAccount.max;
    expect(ceiling).toBeGreaterThan(perAddress);
    // A distributed guesser: each address stays under its own budget.
    for (let i = 0; i < ceiling; i += 1) {
      const address = `198.18.${Math.floor(i / (perAddress - 1))}.1`;
      const res = await login({ email: donor.row.email, password: `guess ${i}` }, address);
      expect(res.statusCode).toBe(401);
    }
    const refused = await login(
      { email: donor.row.email, password: donor.password },
      '203.0.113.8',
    );
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.lastLoginAt).toBeNull();
  });

  it('counts parallel guesses, so a burst from one address or from many cannot get past the limits', async () => {
    const donor = await seedUser(db());
    const oneAddress = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        login({ email: donor.row.email, password: `guess ${i}` }, '198.51.100.77'),
      ),
    );
    const statuses = oneAddress.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(
      ACCOUNT_LIMITS.passwordFailures.max,
    );
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      12 - ACCOUNT_LIMITS.passwordFailures.max,
    );
    // Many addresses at once: the account's ceiling holds under concurrency too.
    const left =
      ACCOUNT_LIMITS.passwordFailuresPerAccount.max - ACCOUNT_LIMITS.passwordFailures.max;
    const spread = await Promise.all(
      Array.from({ length: left + 6 }, (_, i) =>
        login({ email: donor.row.email, password: `guess ${i}` }, `198.19.${i}.1`),
      ),
    );
    const spreadStatuses = spread.map((res) => res.statusCode);
    expect(spreadStatuses.filter((status) => status === 401)).toHaveLength(left);
    expect(spreadStatuses.filter((status) => status === 429)).toHaveLength(6);
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const donor = await seedUser(db());
    for (let i = 0; i < ACCOUNT_LIMITS.passwordFailures.max - 1; i += 1) {
      await login({ email: donor.row.email, password: 'wrong' });
    }
    expect((await login({ email: donor.row.email, password: donor.password })).statusCode).toBe(
      200,
    );
    for (let i = 0; i < ACCOUNT_LIMITS.passwordFailures.max - 1; i += 1) {
      expect((await login({ email: donor.row.email, password: 'wrong' })).statusCode).toBe(401);
    }
    expect((await login({ email: donor.row.email, password: donor.password })).statusCode).toBe(
      200,
    );
  });

  it(`allows ${AUTH_RATE_LIMITS.login.max} attempts per 15 minutes per client address`, async () => {
    for (let i = 0; i < AUTH_RATE_LIMITS.login.max; i += 1) {
      const res = await login({ email: `user${i}@example.org`, password: 'x' }, '198.51.100.50');
      expect(res.statusCode).toBe(401);
    }
    const over = await login({ email: 'user@example.org', password: 'x' }, '198.51.100.50');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });

  it('validates the body', async () => {
    const res = await login({ email: 'not-an-address', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    const paths = res.json().error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(expect.arrayContaining(['body.email', 'body.password']));
  });
});

describe('GET /api/v1/auth/me', () => {
  it('answers the signed-in user', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: registerBody(),
    });
    const { user, tokens } = res.json().data;
    const who = await me(bearer(tokens.accessToken));
    expect(who.statusCode).toBe(200);
    expect(who.json()).toEqual({ success: true, data: { user } });
  });

  it('answers 401 with one message for every kind of bad token', async () => {
    const donor = await seedUser(db());
    const secret = subject.config.jwtSecret;
    const claims = { sub: donor.row.id, role: 'donor' as const, tokenVersion: 0 };
    const otherKey = await createAccessTokens({ secret: 'x'.repeat(40) }).sign({
      id: donor.row.id,
      role: 'donor',
      tokenVersion: 0,
    });
    const expired = await createAccessTokens({
      secret,
      now: () => Date.now() - 2 * 3600_000,
    }).sign({ id: claims.sub, role: claims.role, tokenVersion: 0 });
    const algNone = new UnsecuredJWT({ role: 'donor', ver: 0 })
      .setSubject(donor.row.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    const wrongIssuer = await new SignJWT({ role: 'donor', ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(donor.row.id)
      .setIssuer('elsewhere')
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    const valid = (await loginAs(subject.app, donor)).tokens.accessToken;

    const cases: Record<string, string>[] = [
      {},
      bearer(otherKey),
      bearer(expired),
      bearer(algNone),
      bearer(wrongIssuer),
      bearer('not.a.jwt'),
      { authorization: valid },
      { authorization: `Basic ${valid}` },
      { authorization: `Bearer ${valid} extra` },
      { authorization: 'Bearer' },
    ];
    for (const headers of cases) {
      const res = await me(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual(SESSION_EXPIRED);
    }
    expect((await me(bearer(valid))).statusCode).toBe(200);
    expect((await me({ authorization: `bearer ${valid}` })).statusCode).toBe(200);
  });

  it('refuses the token of an account erased or signed out everywhere since', async () => {
    const donor = await seedUser(db());
    const { accessToken } = (await loginAs(subject.app, donor)).tokens;
    await db().update(users).set({ tokenVersion: 1 }).where(eq(users.id, donor.row.id));
    expect((await me(bearer(accessToken))).statusCode).toBe(401);

    const other = await seedUser(db());
    const token = (await loginAs(subject.app, other)).tokens.accessToken;
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, other.row.id));
    expect((await me(bearer(token))).json()).toEqual(SESSION_EXPIRED);
  });
});

describe('POST /api/v1/auth/refresh', () => {
  function refresh(refreshToken: unknown) {
    return subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken },
    });
  }

  it('gives a new access token and keeps the refresh token', async () => {
    const donor = await seedUser(db());
    const { tokens } = await loginAs(subject.app, donor);
    const res = await refresh(tokens.refreshToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { accessToken: expect.any(String), expiresIn: 3600 },
    });
    expect((await me(bearer(res.json().data.accessToken))).statusCode).toBe(200);
    // Not rotated: the same refresh token works again.
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(200);
    const [row] = await db().select().from(refreshTokens);
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
  });

  it('answers 401 INVALID_REFRESH_TOKEN for unknown, revoked, expired and orphaned tokens', async () => {
    const donor = await seedUser(db());
    const { tokens } = await loginAs(subject.app, donor);
    const unknown = await refresh('x'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toEqual({
      code: 'INVALID_REFRESH_TOKEN',
      message: 'Your session has expired. Please sign in again.',
    });

    await db()
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await refresh(tokens.refreshToken)).json().error.code).toBe('INVALID_REFRESH_TOKEN');

    await db()
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() + 60_000), revokedAt: new Date() });
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(401);

    await db().update(refreshTokens).set({ revokedAt: null });
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(200);
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, donor.row.id));
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(401);

    const invalid = await refresh('short');
    expect(invalid.statusCode).toBe(400);
  });

  it('issues the role the account has now', async () => {
    const donor = await seedUser(db());
    const { tokens } = await loginAs(subject.app, donor);
    await db().update(users).set({ role: 'hospital' }).where(eq(users.id, donor.row.id));
    const res = await refresh(tokens.refreshToken);
    const payload = JSON.parse(
      Buffer.from(res.json().data.accessToken.split('.')[1], 'base64url').toString('utf8'),
    );
    expect(payload.role).toBe('hospital');
  });
});

describe('POST /api/v1/auth/logout', () => {
  function logout(payload: object | undefined, headers: Record<string, string> = {}) {
    return subject.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload, headers });
  }
  const revoked = async () =>
    (await db().select().from(refreshTokens)).filter((row) => row.revokedAt !== null);

  it('revokes the refresh token, with or without an access token', async () => {
    const donor = await seedUser(db());
    const first = await loginAs(subject.app, donor);
    const res = await logout(
      { refreshToken: first.tokens.refreshToken },
      bearer(first.tokens.accessToken),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { loggedOut: true } });
    const after = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken: first.tokens.refreshToken },
    });
    expect(after.statusCode).toBe(401);
    expect(await revoked()).toMatchObject([{ revokedReason: 'logout' }]);

    const second = await loginAs(subject.app, donor);
    expect((await logout({ refreshToken: second.tokens.refreshToken })).statusCode).toBe(200);
    expect(await revoked()).toHaveLength(2);
  });

  it('never fails: unknown, already revoked, missing tokens and no body are fine', async () => {
    const donor = await seedUser(db());
    const { tokens } = await loginAs(subject.app, donor);
    expect((await logout({ refreshToken: tokens.refreshToken })).statusCode).toBe(200);
    expect((await logout({ refreshToken: tokens.refreshToken })).statusCode).toBe(200);
    expect((await logout({ refreshToken: 'unknown-token' })).statusCode).toBe(200);
    expect((await logout({})).statusCode).toBe(200);
    expect((await logout(undefined, bearer(tokens.accessToken))).json().data).toEqual({
      loggedOut: true,
    });
    expect((await logout({}, { authorization: 'Bearer expired.or.bad' })).statusCode).toBe(200);
  });

  it("ends the access token too, and removes this device's push subscription only", async () => {
    const donor = await seedUser(db());
    const phone = await loginAs(subject.app, donor);
    const laptop = await loginAs(subject.app, donor);
    const subscription = (endpoint: string) => ({
      userId: donor.row.id,
      endpoint,
      p256dh:
        'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    });
    await db()
      .insert(pushSubscriptions)
      .values([
        subscription('https://fcm.googleapis.com/fcm/send/shared-phone'),
        subscription('https://fcm.googleapis.com/fcm/send/laptop'),
      ]);

    const res = await logout(
      {
        refreshToken: phone.tokens.refreshToken,
        pushEndpoint: 'https://fcm.googleapis.com/fcm/send/shared-phone',
      },
      bearer(phone.tokens.accessToken),
    );
    expect(res.json()).toEqual({ success: true, data: { loggedOut: true } });
    // The access token taken before sign-out no longer works.
    expect((await me(bearer(phone.tokens.accessToken))).json()).toEqual(SESSION_EXPIRED);
    const left = await db().select().from(pushSubscriptions);
    expect(left.map((row) => row.endpoint)).toEqual(['https://fcm.googleapis.com/fcm/send/laptop']);
    // The other device stays signed in: its next refresh gives a working access token.
    const refreshed = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken: laptop.tokens.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    expect((await me(bearer(refreshed.json().data.accessToken))).statusCode).toBe(200);
  });

  it('with only the refresh token (access token expired), still ends access tokens and the subscription', async () => {
    const donor = await seedUser(db());
    const session = await loginAs(subject.app, donor);
    await db().insert(pushSubscriptions).values({
      userId: donor.row.id,
      endpoint: 'https://fcm.googleapis.com/fcm/send/only-refresh',
      p256dh: 'k',
      auth: 'a',
    });
    await logout({
      refreshToken: session.tokens.refreshToken,
      pushEndpoint: 'https://fcm.googleapis.com/fcm/send/only-refresh',
    });
    expect((await me(bearer(session.tokens.accessToken))).statusCode).toBe(401);
    expect(await db().select().from(pushSubscriptions)).toHaveLength(0);
  });

  it("never removes another user's push subscription", async () => {
    const alice = await seedUser(db());
    const bob = await seedUser(db());
    const aliceSession = await loginAs(subject.app, alice);
    await db().insert(pushSubscriptions).values({
      userId: bob.row.id,
      endpoint: 'https://fcm.googleapis.com/fcm/send/bob',
      p256dh: 'k',
      auth: 'a',
    });
    await logout(
      {
        refreshToken: aliceSession.tokens.refreshToken,
        pushEndpoint: 'https://fcm.googleapis.com/fcm/send/bob',
      },
      bearer(aliceSession.tokens.accessToken),
    );
    expect(await db().select().from(pushSubscriptions)).toHaveLength(1);
  });

  it("does not revoke another user's token for a signed-in caller", async () => {
    const alice = await seedUser(db());
    const bob = await seedUser(db());
    const aliceSession = await loginAs(subject.app, alice);
    const bobSession = await loginAs(subject.app, bob);
    await logout(
      { refreshToken: bobSession.tokens.refreshToken },
      bearer(aliceSession.tokens.accessToken),
    );
    expect(await revoked()).toHaveLength(0);
  });
});

describe('authenticate, requireRole and requireActiveAccount', () => {
  function guardedRoutes(app: App) {
    app.get(
      '/api/v1/test/admin-only',
      { preHandler: [app.authenticate, requireRole('admin')] },
      async (request) => ({
        success: true,
        data: { id: currentUser(request).id },
      }),
    );
    app.get(
      '/api/v1/test/staff',
      { preHandler: [app.authenticate, requireRole('admin', 'hospital')] },
      async () => ({ success: true, data: { ok: true } }),
    );
    app.get(
      '/api/v1/test/active',
      { preHandler: [app.authenticate, requireActiveAccount] },
      async () => ({ success: true, data: { ok: true } }),
    );
  }

  it('answers 401 without a session, 403 FORBIDDEN for the wrong role or a suspended account', async () => {
    const guarded = await createTestApp({ database: testDb.database, extraRoutes: guardedRoutes });
    try {
      const tokenOf = async (options: Parameters<typeof seedUser>[1]) =>
        bearer((await loginAs(guarded.app, await seedUser(db(), options))).tokens.accessToken);
      const admin = await tokenOf({ role: 'admin' });
      const hospital = await tokenOf({ role: 'hospital' });
      const donor = await tokenOf({ role: 'donor', status: 'approved' });
      const suspended = await tokenOf({ role: 'donor', status: 'suspended' });
      const get = (url: string, headers: Record<string, string>) =>
        guarded.app.inject({ url, headers });

      expect((await get('/api/v1/test/admin-only', {})).statusCode).toBe(401);
      expect((await get('/api/v1/test/admin-only', admin)).statusCode).toBe(200);
      const refused = await get('/api/v1/test/admin-only', donor);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('FORBIDDEN');
      expect((await get('/api/v1/test/staff', hospital)).statusCode).toBe(200);
      expect((await get('/api/v1/test/staff', donor)).statusCode).toBe(403);
      expect((await get('/api/v1/test/active', donor)).statusCode).toBe(200);
      const blocked = await get('/api/v1/test/active', suspended);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().error.message).toContain('suspended');
      // A suspended donor still reads their own account.
      expect((await get('/api/v1/auth/me', suspended)).statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
