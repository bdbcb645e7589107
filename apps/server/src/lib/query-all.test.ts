import { FEATURE_FLAG_DEFAULTS } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { executeRows, type Db } from '../db/client';
import { seedUser } from '../test/auth-helpers';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../test/test-database';
import { loadDonorFacts, refreshLastDonation } from './donor-facts';
import { isTransaction, queryAll } from './query-all';
import { createUserViews } from './user-view';

let testDb: TestDatabase;
const db = () => testDb.database.db;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

/** Queries that note when each one starts and ends, and answer their own number. */
function recorded(handle: Db, count: number) {
  const events: string[] = [];
  const queries = Array.from({ length: count }, (_, i) => async () => {
    events.push(`start ${i}`);
    const [row] = await executeRows<{ n: number }>(handle, sql`select ${i}::int as n`);
    events.push(`end ${i}`);
    return row!.n;
  });
  return { events, queries };
}

describe('queryAll', () => {
  it('runs the queries together on the database handle, answers in order', async () => {
    expect(isTransaction(db())).toBe(false);
    const { events, queries } = recorded(db(), 3);
    expect(await queryAll(db(), queries)).toEqual([0, 1, 2]);
    expect(events.slice(0, 3)).toEqual(['start 0', 'start 1', 'start 2']);
  });

  it('runs them one after the other in a transaction and in a savepoint', async () => {
    for (const nested of [false, true]) {
      const { events, answers } = await db().transaction(async (tx) => {
        const run = async (handle: Db) => {
          expect(isTransaction(handle)).toBe(true);
          const { events, queries } = recorded(handle, 3);
          return { events, answers: await queryAll(handle, queries) };
        };
        return nested ? tx.transaction(run) : run(tx);
      });
      expect(answers).toEqual([0, 1, 2]);
      expect(events).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    }
  });

  it('stops at the first failure in a transaction and passes the error on', async () => {
    const ran: number[] = [];
    await expect(
      db().transaction((tx) =>
        queryAll(tx, [
          async () => ran.push(1),
          () => tx.execute(sql`select 1 / 0`),
          async () => ran.push(3),
        ]),
      ),
    ).rejects.toThrow();
    expect(ran).toEqual([1]);
  });
});

/**
 * Every query sent on a node-postgres connection that has not answered the previous one yet:
 * what makes pg warn "Calling client.query() when the client is already executing a query".
 * The pool's own queries (with a callback, one connection each) are not counted.
 */
function watchConnections() {
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const running = new WeakMap<object, number>();
  const overlaps: string[] = [];
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const busy = running.get(this) ?? 0;
    if (busy > 0) {
      const query = args[0] as string | { text?: string };
      overlaps.push(String(typeof query === 'string' ? query : query.text).slice(0, 80));
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) {
      running.set(this, busy + 1);
      const done = () => running.set(this, (running.get(this) ?? 1) - 1);
      result.then(done, done);
    }
    return result as never;
  });
  return overlaps;
}

describe.runIf(wantsPostgres())('on PostgreSQL, inside a transaction', () => {
  it('reads a donor’s facts, last donation and user objects without overlapping queries', async () => {
    const donor = await seedUser(db());
    const hospitalUser = await seedUser(db(), { role: 'admin' });
    const views = createUserViews({
      db: db(),
      flags: { getFlags: async () => ({ ...FEATURE_FLAG_DEFAULTS }) },
    });
    const overlaps = watchConnections();
    const facts = await db().transaction(async (tx) => {
      const loaded = await loadDonorFacts(tx, donor.row.id);
      await refreshLastDonation(tx, donor.row.id);
      const users = await views.loadMany([donor.row, hospitalUser.row], tx);
      expect(users.map((user) => user.id)).toEqual([donor.row.id, hospitalUser.row.id]);
      return loaded;
    });
    expect(facts).toEqual({
      documents: [],
      questionnaire: null,
      totalDonations: 0,
      verifiedUnits: 0,
    });
    expect(overlaps).toEqual([]);
  });

  it('the watch itself sees Promise.all over a transaction', async () => {
    const overlaps = watchConnections();
    await db().transaction((tx) =>
      Promise.all([tx.execute(sql`select 1`), tx.execute(sql`select 2`)]),
    );
    expect(overlaps).toHaveLength(1);
  });
});
