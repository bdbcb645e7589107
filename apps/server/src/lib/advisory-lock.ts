import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * Serialises one key across every server process until the transaction `tx` ends (commit or
 * rollback): `pg_advisory_xact_lock` on a 64-bit hash of `scope:key`. Two instances checking
 * "fewer than 3 requests from this phone?" then inserting would otherwise both see 2 and both
 * insert (issue #19). A hash collision only makes two unrelated keys wait for each other.
 * PGlite has one connection, where the lock is granted at once; the same code serves both.
 */
export async function lockKeyForTransaction(tx: Db, scope: string, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}:${key}`}, 0))`);
}
