import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usageCounters } from '../../db/schema';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { digestHolds, EMAIL_DIGEST_POLICIES } from './email-digest';

const POLICY = EMAIL_DIGEST_POLICIES['blood_request.critical']!;
const WINDOW_START = Date.parse('2026-05-01T10:00:00Z');
const WINDOW_END = new Date(WINDOW_START + POLICY.windowMs);

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterEach(async () => {
  await testDb.truncate();
});
afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
const use = (userId: string, at = WINDOW_START + 1_000) => ({
  userId,
  type: 'blood_request.critical' as const,
  at,
});

describe('digestHolds: a batch of e-mails counted in one upsert', () => {
  it('counts several e-mails to one person in a batch as if sent one after the other', async () => {
    const batch = [use('a'), use('b'), use('a'), use('a'), use('a'), use('b'), use('a')];
    const holds = await digestHolds(db(), batch);
    // Person a: the first POLICY.max (3) go now, the 4th and 5th wait for the digest.
    expect(holds).toEqual([null, null, null, null, WINDOW_END, null, WINDOW_END]);

    // The window remembers the batch: the next e-mail to a waits, the next to b (3rd) goes.
    expect(await digestHolds(db(), [use('a'), use('b')])).toEqual([WINDOW_END, null]);
    const rows = await db().select().from(usageCounters);
    expect(Object.fromEntries(rows.map((row) => [row.key.split(':').at(-1), row.used]))).toEqual({
      a: 6,
      b: 3,
    });
  });

  it('starts a new window after the old one and drops the old row; a type without a policy is never held', async () => {
    await digestHolds(db(), [use('a'), use('a'), use('a'), use('a')]);
    const next = WINDOW_START + POLICY.windowMs + 1_000;
    const holds = await digestHolds(db(), [
      use('a', next),
      { userId: 'a', type: 'blood_request.match', at: next },
    ]);
    expect(holds).toEqual([null, null]);
    const rows = await db().select().from(usageCounters);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      used: 1,
      windowStart: new Date(WINDOW_START + POLICY.windowMs),
    });
  });

  it('parallel batches sharing people, in opposite orders, all count and none fails (PostgreSQL: real transactions)', async () => {
    const people = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const batches = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? [...people].reverse() : people).map((userId) => use(userId)),
    );
    const results = await Promise.allSettled(
      batches.map((batch) =>
        db().transaction(async (tx) => {
          const holds = await digestHolds(tx, batch);
          // Hold the rows' locks a moment, so the batches overlap.
          await tx.execute(sql`select pg_sleep(0.02)`);
          return holds;
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const rows = await db().select().from(usageCounters);
    expect(rows.map((row) => row.used)).toEqual(people.map(() => batches.length));
  });

  it('an empty batch writes nothing', async () => {
    expect(await digestHolds(db(), [])).toEqual([]);
    expect(await db().select().from(usageCounters)).toEqual([]);
  });
});
