import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/client';

/**
 * Serialises one key across every server process until the transaction `tx` ends (commit or
 * rollback): `pg_advisory_xact_lock` on a 64-bit hash of `scope:key`. Two instances checking
 * "fewer than 3 requests from this phone?" then inserting would otherwise both see 2 and both
 * insert (issue #19). A hash collision only makes two unrelated keys wait for each other.
 * PGlite has one connection, where the lock is granted at once; the same code serves both.
 *
 * The key goes as a literal (node-postgres' own escaping), not a parameter: a statement without
 * parameters travels with the transaction's BEGIN in one message when it is the first one
 * (db/merged-messages.ts), one round trip fewer on every locked transaction (issue #20).
 */
export async function lockKeyForTransaction(tx: Db, scope: string, key: string): Promise<void> {
  await tx.execute(sql.raw(lockStatement(scope, key)));
}

/** The statement `lockKeyForTransaction` sends, to send with another (db/prebuilt.ts `after`). */
export function lockStatement(scope: string, key: string): string {
  const literal = pg.escapeLiteral(`${scope}:${key}`);
  return `select pg_advisory_xact_lock(hashtextextended(${literal}, 0))`;
}
