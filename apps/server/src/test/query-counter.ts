import type { Database } from '../db/client';

/** Transaction control: node-postgres sends it as statements, PGlite does not; not counted. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release savepoint)\b/i;

/**
 * Runs `work` and returns its result with the statements the app sent meanwhile. The read cache
 * (db/read-cache.ts) is emptied first unless `warm`: a budget is what a call costs when nothing
 * of it is in memory.
 */
export async function countQueries<T>(
  database: Database,
  work: () => Promise<T>,
  { warm = false }: { warm?: boolean } = {},
): Promise<{ result: T; queries: string[] }> {
  if (!warm) database.readCache.clear();
  const queries: string[] = [];
  const stop = database.observeQueries((query) => {
    if (!TRANSACTION_CONTROL.test(query)) queries.push(query);
  });
  try {
    return { result: await work(), queries };
  } finally {
    stop();
  }
}
