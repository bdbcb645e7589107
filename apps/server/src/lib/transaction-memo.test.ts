import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { flagInTransaction } from '../features/flags/flag-in-transaction';
import { featureFlags } from '../db/schema';
import { oncePerTransaction } from './transaction-memo';

let testDb: TestDatabase;
const db = () => testDb.database.db;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});

describe('oncePerTransaction', () => {
  it('loads a key once in a transaction, again in the next one, and every time on the pool', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      return loads;
    };
    await db().transaction(async (tx) => {
      expect(await oncePerTransaction(tx, 'k', load)).toBe(1);
      expect(await oncePerTransaction(tx, 'k', load)).toBe(1);
      expect(await oncePerTransaction(tx, 'other', load)).toBe(2);
    });
    await db().transaction(async (tx) => {
      expect(await oncePerTransaction(tx, 'k', load)).toBe(3);
    });
    expect(await oncePerTransaction(db(), 'k', load)).toBe(4);
    expect(await oncePerTransaction(db(), 'k', load)).toBe(5);
  });

  it('a flag changed by another transaction is seen by the next transaction', async () => {
    await db()
      .insert(featureFlags)
      .values({ key: 'advancedMatching', enabled: false, source: 'admin' })
      .onConflictDoUpdate({ target: featureFlags.key, set: { enabled: false } });
    expect(await db().transaction((tx) => flagInTransaction(tx, 'advancedMatching'))).toBe(false);
    await db().execute(sql`update feature_flags set enabled = true where key = 'advancedMatching'`);
    expect(await db().transaction((tx) => flagInTransaction(tx, 'advancedMatching'))).toBe(true);
  });
});
