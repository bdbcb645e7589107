import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/**
 * Whether `db` is a transaction (or a savepoint inside one). A transaction holds ONE database
 * connection, which answers one query at a time; the database handle itself is a pool (or
 * PGlite, which queues its queries) and may run several at once.
 */
export function isTransaction(db: Db): boolean {
  return is(db, PgTransaction);
}

type Results<T extends readonly (() => PromiseLike<unknown>)[]> = {
  -readonly [K in keyof T]: T[K] extends () => PromiseLike<infer R> ? R : never;
};

/**
 * Runs independent reads together on the pool, but one after the other inside a transaction:
 * node-postgres warns "Calling client.query() when the client is already executing a query" (and
 * pg@9 will refuse) when one connection is given a query before it has answered the previous one,
 * which is what `Promise.all` over a transaction's queries does. Each entry is a function, so
 * nothing is sent before its turn. Results come back in the order of `queries`.
 */
export async function queryAll<const T extends readonly (() => PromiseLike<unknown>)[]>(
  db: Db,
  queries: T,
): Promise<Results<T>> {
  if (!isTransaction(db)) {
    return (await Promise.all(queries.map((query) => query()))) as Results<T>;
  }
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as Results<T>;
}
