import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limitStates } from '../db/schema';
import { ACCOUNT_LIMITS } from '../lib/auth-limits';
import { createPostgresLimitStore, limitKeyDigest } from '../lib/limit-store';
import { bearer, loginAs, seedUser } from './auth-helpers';
import { createTestApp, type TestApp } from './test-app';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * Issue #32 item 19: limit keys named e-mail addresses ("203.0.113.7|asha@example.org") in
 * `limit_states`, and an erased person's stayed there. Keys are keyed digests now, the same on
 * every instance sharing JWT_SECRET and after a restart.
 */
const SECRET = 'limit-keys-test-secret-0123456789abcdef';
const EMAIL = 'asha.rao@example.org';
const PHONE = '+919812340001';
const ADDRESS = '198.51.100.23';

let testDb: TestDatabase;
const opened: TestApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
  await testDb.truncate();
});
afterAll(async () => {
  await testDb?.close();
});

/** An app whose limits are kept in `limit_states` (as on PostgreSQL), so the test can read them. */
async function start(secret = SECRET): Promise<TestApp> {
  const app = await createTestApp({
    database: testDb.database,
    env: { JWT_SECRET: secret },
    services: {
      backgroundJobs: false,
      limitStore: createPostgresLimitStore(testDb.database.db),
    },
  });
  opened.push(app);
  return app;
}

const post = (subject: TestApp, url: string, payload: object, headers = {}) =>
  subject.app.inject({ method: 'POST', url, payload, remoteAddress: ADDRESS, headers });

describe('limit keys', () => {
  it('hold no e-mail address, phone or client address, before or after erasure', async () => {
    const subject = await start();
    const owner = await seedUser(testDb.database.db, { email: EMAIL, phone: PHONE });
    // Wrong passwords, codes and reset links asked for: each leaves a limit entry.
    for (let i = 0; i < 2; i += 1) {
      await post(subject, '/api/v1/auth/login', { email: EMAIL, password: `wrong ${i}` });
    }
    await post(subject, '/api/v1/auth/login-otp', { email: EMAIL });
    await post(subject, '/api/v1/auth/login-otp', { email: EMAIL, code: '000000' });
    await post(subject, '/api/v1/auth/reset-password', { email: EMAIL });
    const signedIn = await loginAs(subject.app, owner);
    const erased = await subject.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${owner.row.id}`,
      headers: bearer(signedIn.tokens.accessToken),
      payload: { password: owner.password },
    });
    expect(erased.statusCode, erased.body).toBe(200);

    const keys = (await testDb.database.db.select({ key: limitStates.key }).from(limitStates)).map(
      (row) => row.key,
    );
    expect(keys.length).toBeGreaterThan(3);
    const everything = keys.join('\n').toLowerCase();
    for (const personal of [EMAIL, 'asha.rao', 'example.org', PHONE, '9812340001', ADDRESS]) {
      expect(everything).not.toContain(personal);
    }
    for (const key of keys)
      expect(key).toMatch(/^([a-z][a-z0-9-]*:[a-z][a-z0-9-]*:)?[0-9a-f]{64}$/);
    expect(keys).toContain(
      limitKeyDigest(SECRET, `attempts:password-failures:${ADDRESS}|${EMAIL}`),
    );
  });

  it('are the same after a restart and on another instance sharing JWT_SECRET, and differ with another secret', async () => {
    const first = await start();
    for (let i = 0; i < ACCOUNT_LIMITS.passwordFailures.max; i += 1) {
      const res = await post(first, '/api/v1/auth/login', { email: EMAIL, password: `wrong ${i}` });
      expect(res.statusCode).toBe(401);
    }
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    // Restarted (a new process with the same secret): the address is still refused.
    const again = await start();
    const refused = await post(again, '/api/v1/auth/login', { email: EMAIL, password: 'x' });
    expect(refused.statusCode).toBe(429);
    // Another secret: other keys.
    expect(limitKeyDigest('another-secret-0123456789abcdef0123', 'attempts:x:y')).not.toBe(
      limitKeyDigest(SECRET, 'attempts:x:y'),
    );
  });
});
