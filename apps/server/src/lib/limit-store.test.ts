import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { limitStates } from '../db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../test/test-database';
import { createAttemptLimiter } from './attempt-limiter';
import { createBackoffLimiter } from './backoff-limiter';
import {
  createMemoryLimitStore,
  createPostgresLimitStore,
  createRedisLimitStore,
  type LimitStore,
} from './limit-store';

// Test helpers may read process.env directly (the app reads it only in config/env.ts).
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * The same checks on every store. Two limiter objects on one store stand for two instances:
 * what one counts, the other sees; parallel attempts never get past the limit together.
 */
function storeContract(name: string, open: () => Promise<LimitStore>) {
  describe(name, () => {
    let store: LimitStore;
    beforeAll(async () => {
      store = await open();
    });
    const unique = () => `k${Math.random().toString(36).slice(2)}`;

    it('shares one limit between two instances, and 30 parallel attempts take exactly max', async () => {
      const options = { max: 5, windowMs: 60_000, name: 'password-failures' };
      const a = createAttemptLimiter({ ...options, store });
      const b = createAttemptLimiter({ ...options, store });
      const key = unique();
      const waits = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).consume(key)),
      );
      expect(waits.filter((wait) => wait === 0)).toHaveLength(5);
      expect(waits.filter((wait) => wait > 0 && wait <= 60)).toHaveLength(25);
      expect(await a.retryAfterSeconds(key)).toBeGreaterThan(0);
      await b.reset(key);
      expect(await a.retryAfterSeconds(key)).toBe(0);
    });

    it('backs off across instances: 3 free, then a wait', async () => {
      const options = {
        freeAttempts: 3,
        baseMs: 60_000,
        maxMs: 3_600_000,
        forgetAfterMs: 3_600_000,
        name: 'otp-requests',
      };
      const a = createBackoffLimiter({ ...options, store });
      const b = createBackoffLimiter({ ...options, store });
      const key = unique();
      const waits = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).consume(key)),
      );
      // The 3 free attempts pass (the 3rd starts the block); the other 7 wait.
      expect(waits.filter((wait) => wait === 0)).toHaveLength(3);
      expect(waits.filter((wait) => wait > 0)).toHaveLength(7);
    });

    it('forgets an entry once it expires', async () => {
      const key = unique();
      const step = (entry: { state: { n: number } } | null, at: number) => ({
        next: { state: { n: (entry?.state.n ?? 0) + 1 }, expiresAt: at + 400 },
        result: (entry?.state.n ?? 0) + 1,
      });
      expect(await store.update(key, step)).toBe(1);
      expect(await store.update(key, step)).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await store.update(key, step)).toBe(1);
    });
  });
}

storeContract('memory limit store', async () => createMemoryLimitStore());

describe.skipIf(!wantsPostgres())('on PostgreSQL', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.close();
  });
  storeContract('postgres limit store (limit_states)', async () =>
    createPostgresLimitStore(testDb.database.db),
  );
  /** Holds `key`'s row lock, as another instance's transaction would, until `release()`. */
  async function holdRowLock(key: string) {
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const done = testDb.database.db.transaction(async (tx) => {
      await tx.select().from(limitStates).where(eq(limitStates.key, key)).for('update');
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    return async () => {
      release();
      await done;
    };
  }
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const count = (entry: { state: { n: number } } | null, at: number) => ({
    next: { state: { n: (entry?.state.n ?? 0) + 1 }, expiresAt: at + 60_000 },
    result: (entry?.state.n ?? 0) + 1,
  });

  it('reads the time once it holds the lock, not while it waits for it', async () => {
    let time = 1_000_000;
    const store = createPostgresLimitStore(testDb.database.db, () => time);
    await store.update('clock', count);
    const release = await holdRowLock('clock');
    const seen = store.update('clock', (_entry, at) => ({ next: null, result: at }));
    await pause(100);
    time += 5_000;
    await release();
    // Read before the lock, the time would be older than what the holder wrote: a backoff
    // block the holder had just started would look unfinished, an attempt refused unfairly.
    expect(await seen).toBe(1_005_000);
  });

  it('loses no attempt made while another instance resets the same key', async () => {
    const store = createPostgresLimitStore(testDb.database.db);
    await store.update('reset-race', count);
    const release = await holdRowLock('reset-race');
    const reset = store.update('reset-race', () => ({ next: null, result: 0 }));
    await pause(100);
    const attempt = store.update('reset-race', count);
    await pause(100);
    await release();
    expect(await reset).toBe(0);
    expect(await attempt).toBe(1);
    // The reset kept the row (as expired) for the waiting attempt to lock: its count stayed.
    expect(await store.update('reset-race', count)).toBe(2);
  });

  it('sweeps expired rows', async () => {
    const store = createPostgresLimitStore(testDb.database.db);
    await store.update('sweep-me', (_entry, at) => ({
      next: { state: { n: 1 }, expiresAt: at + 10 },
      result: null,
    }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
  });
});

describe.skipIf(!redisUrl)('on Redis', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(redisUrl!, { lazyConnect: true });
    await redis.connect();
  });
  afterAll(async () => {
    await redis?.quit();
  });
  storeContract('redis limit store', async () =>
    createRedisLimitStore(redis, { prefix: `bdms-test:${process.pid}:` }),
  );
});
