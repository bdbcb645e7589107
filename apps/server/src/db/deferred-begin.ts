import type pg from 'pg';

/**
 * node-postgres: a transaction's BEGIN goes out with its first statement when that statement can
 * travel in the same message, saving one round trip per transaction (issue #20).
 *
 * Drizzle sends `begin` on its own and waits for the reply before the transaction's first
 * statement. PostgreSQL's simple-query protocol takes several statements in one message
 * (`begin; select …`), each with its own snapshot, so a statement without parameters (the
 * advisory lock that opens every locked transaction: lib/advisory-lock.ts) can carry the BEGIN.
 * A statement with parameters goes as before: the BEGIN, then once it is answered the statement.
 *
 * - A COMMIT or ROLLBACK with nothing sent since BEGIN sends nothing: there is nothing to end.
 * - An error in the merged message is that statement's error, as it would have been: PostgreSQL
 *   ran the BEGIN, the transaction is aborted and Drizzle's ROLLBACK ends it.
 * - The write tracker (db/write-tracker.ts) wraps this and still sees BEGIN, the statement and
 *   COMMIT one by one.
 *
 * It also lets a read go with the statement before it (`LAST_RESULT_ONLY`).
 */

const BEGIN = /^\s*begin\s*;?\s*$/i;
const END = /^\s*(?:commit|rollback)\s*;?\s*$/i;

type Send = (...args: unknown[]) => unknown;

/** The text of a query with no parameters and no name (one the simple protocol can carry). */
function simpleText(args: readonly unknown[]): string | null {
  if (typeof args[args.length - 1] === 'function') return null;
  const [first, values] = args;
  if (values !== undefined && !(Array.isArray(values) && values.length === 0)) return null;
  if (typeof first === 'string') return first;
  if (!first || typeof first !== 'object') return null;
  const config = first as { text?: unknown; values?: unknown; name?: unknown };
  if (typeof config.text !== 'string' || config.name) return null;
  if (
    config.values !== undefined &&
    !(Array.isArray(config.values) && config.values.length === 0)
  ) {
    return null;
  }
  return config.text;
}

const NOTHING_SENT = { command: 'BEGIN', rowCount: null, rows: [], fields: [] };

/**
 * A query without parameters whose text starts with this answers with the result of its last
 * statement only, as if it were that statement alone (a lock and a read sent together:
 * db/prebuilt.ts `after`). PostgreSQL ignores the comment.
 */
export const LAST_RESULT_ONLY = '/* last result */ ';

const lastOf = (results: unknown) =>
  Array.isArray(results) ? (results[results.length - 1] as unknown) : results;

/** `send`: the connection's own query method. Returns the query method to use in its place. */
export function deferBegin(send: Send): Send {
  let pending = false;
  return (...args: unknown[]) => {
    const text = simpleText(args);
    const lastOnly = text?.startsWith(LAST_RESULT_ONLY) ?? false;
    if (!pending) {
      if (text !== null && BEGIN.test(text)) {
        pending = true;
        return Promise.resolve(NOTHING_SENT);
      }
      return lastOnly ? (send(...args) as Promise<unknown>).then(lastOf) : send(...args);
    }
    pending = false;
    if (text === null) {
      // One at a time on a connection (pg warns of a query sent while one is running).
      return (send('begin') as Promise<unknown>).then(() => send(...args));
    }
    if (END.test(text)) return Promise.resolve({ ...NOTHING_SENT, command: 'COMMIT' });
    const first = args[0];
    const merged =
      typeof first === 'string'
        ? `begin; ${text}`
        : { ...(first as object), text: `begin; ${text}`, values: undefined };
    return (send(merged) as Promise<pg.QueryResult | pg.QueryResult[]>).then((results) => {
      if (!Array.isArray(results)) return results;
      const rest = results.slice(1);
      if (lastOnly) return lastOf(rest);
      return rest.length === 1 ? rest[0] : rest;
    });
  };
}
