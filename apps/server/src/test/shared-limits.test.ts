import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_RATE_LIMITS } from '../features/auth/auth.routes';
import { createRedisLimitStore } from '../lib/limit-store';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app';
import { createTestDatabase, wantsPostgres, type TestDatabase } from './test-database';

// Issue #19: two instances on one database (two apps here, each with its own services, as two
// processes would have) share every limit. Test helpers may read process.env directly.
const redisUrl = process.env.TEST_REDIS_URL;

let testDb: TestDatabase;
const opened: TestApp[] = [];
const SHARED_SECRET = 'shared-limits-test-secret-0123456789abcdef';

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

async function twoInstances(services: TestAppOptions['services'] = {}) {
  for (let i = 0; i < 2; i += 1)
    opened.push(
      await createTestApp({
        database: testDb.database,
        // Instances share the secret (required with DATABASE_URL): limit keys are its digests.
        env: { JWT_SECRET: SHARED_SECRET },
        services: { backgroundJobs: false, ...services },
      }),
    );
  return opened.slice(-2) as [TestApp, TestApp];
}

const signInFrom = (instance: TestApp, address: string, n: number) =>
  instance.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress: address,
    payload: { email: `nobody-${n}@example.org`, password: 'not the password' },
  });

async function expectSharedSignInLimit(a: TestApp, b: TestApp) {
  const address = '203.0.113.77';
  const max = AUTH_RATE_LIMITS.login.max;
  // Alternating instances: each one alone sees only half.
  const replies = await Promise.all(
    Array.from({ length: max }, (_, n) => signInFrom(n % 2 ? a : b, address, n)),
  );
  expect(replies.map((res) => res.statusCode)).toEqual(Array(max).fill(401));
  for (const instance of [a, b]) {
    const refused = await signInFrom(instance, address, max + 1);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  }
  // Another address is not affected.
  expect((await signInFrom(b, '203.0.113.78', 0)).statusCode).toBe(401);
}

describe.skipIf(!wantsPostgres())('limits shared through PostgreSQL', () => {
  it('refuses the 21st sign-in from one address whichever instance gets it', async () => {
    const [a, b] = await twoInstances();
    expect(a.app.services.limitStore.kind).toBe('postgres');
    await expectSharedSignInLimit(a, b);
  });

  it('counts wrong passwords for one account across instances', async () => {
    const [a, b] = await twoInstances();
    const key = 'victim@example.org';
    for (let i = 0; i < 5; i += 1)
      expect(await (i % 2 ? a : b).app.services.limiters.passwordFailures.consume(key)).toBe(0);
    expect(await a.app.services.limiters.passwordFailures.consume(key)).toBeGreaterThan(0);
    expect(await b.app.services.limiters.passwordFailures.consume(key)).toBeGreaterThan(0);
  });
});

describe.skipIf(!redisUrl)('limits shared through Redis (REDIS_URL)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(redisUrl!, { lazyConnect: true });
    await redis.connect();
    const stale = await redis.keys('bdms:rate:*');
    if (stale.length > 0) await redis.del(...stale);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it('refuses the 21st sign-in from one address whichever instance gets it', async () => {
    const prefix = `bdms-test:${process.pid}:${Date.now()}:`;
    const [a, b] = await twoInstances({
      redis,
      limitStore: createRedisLimitStore(redis, { prefix }),
    });
    expect(a.app.services.limitStore.kind).toBe('redis');
    await expectSharedSignInLimit(a, b);
  });
});
