import type pg from 'pg';

/**
 * node-postgres: statements of a transaction that can travel together go to PostgreSQL in one
 * message, one round trip instead of several (issue #20). Every message costs the server a
 * socket write and a wake-up of PostgreSQL, and on a loaded machine that was a quarter of a
 * guest request's CPU.
 *
 * PostgreSQL's simple-query protocol takes several statements without parameters in one message
 * (`begin; select …`) and runs them in order, each with its own snapshot, stopping at the first
 * error. Three things use it:
 *
 * - **BEGIN** waits for the transaction's first statement and goes in front of it when that
 *   statement has no parameters (the advisory lock that opens a locked transaction:
 *   lib/advisory-lock.ts). Before one with parameters it goes alone, as Drizzle sends it. A
 *   COMMIT or ROLLBACK with nothing sent since BEGIN sends nothing.
 * - **LAST_RESULT_ONLY**: a query whose text starts with it answers with its last statement's
 *   result only (a lock and the read after it: db/prebuilt.ts `after`).
 * - **WITH_NEXT**: inside a transaction, a statement whose text starts with it is held and goes
 *   in front of the transaction's next statement, COMMIT included (a write whose result is
 *   known beforehand: db/prebuilt.ts `withNext`). It answers at once with no rows. If it fails,
 *   the statement it travelled with fails with its error, nothing after it runs, and the
 *   transaction is rolled back as for any failed statement; a ROLLBACK drops it unsent. So hold
 *   only a write whose failure fails the whole transaction: code that catches an error of the
 *   next statement (to go on differently) would be handed the held write's error instead.
 *
 * The write tracker (db/write-tracker.ts) wraps this and still sees every statement one by one,
 * as the app sent them.
 */

const BEGIN = /^\s*begin\s*;?\s*$/i;
const END = /^\s*(commit|rollback)\s*;?\s*$/i;

export const LAST_RESULT_ONLY = '/* last result */ ';
export const WITH_NEXT = '/* with next */ ';

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

const answered = (command: string) =>
  Promise.resolve({ command, rowCount: null, rows: [], fields: [] });

/** The query `args` with `text` in place of its own (and no parameters). */
function withText(args: readonly unknown[], text: string): unknown {
  const first = args[0];
  return typeof first === 'string' ? text : { ...(first as object), text, values: undefined };
}

/**
 * On a connection object, the function that tells whether something waits to go in front of its
 * next statement (a BEGIN, a held write): a prepared statement sent then as plain text goes in
 * the same message (db/prebuilt.ts).
 */
export const HOLDING = Symbol.for('bdms.merged-messages.holding');

export type MergedSend = Send & { holding(): boolean };

/** `send`: the connection's own query method. Returns the query method to use in its place. */
export function mergeMessages(send: Send): MergedSend {
  let beginHeld = false;
  let inTransaction = false;
  let held: string[] = [];

  /** What waits to go in front of the next statement; emptied. */
  const takeFront = (ending: 'commit' | 'rollback' | null): string[] => {
    const front = [...(beginHeld ? ['begin'] : []), ...(ending === 'rollback' ? [] : held)];
    beginHeld = false;
    held = [];
    return front;
  };

  const query = (...args: unknown[]) => {
    const text = simpleText(args);
    if (text !== null && BEGIN.test(text) && !inTransaction) {
      beginHeld = true;
      inTransaction = true;
      return answered('BEGIN');
    }
    if (text !== null && text.startsWith(WITH_NEXT)) {
      const statement = text.slice(WITH_NEXT.length);
      if (inTransaction) {
        held.push(statement);
        return answered('HELD');
      }
      // Outside a transaction nothing is sure to follow: it goes now.
      return send(withText(args, statement));
    }
    const ending = text === null ? null : (END.exec(text)?.[1]?.toLowerCase() ?? null);
    if (ending) inTransaction = false;
    const nothingSent = beginHeld;
    const front = takeFront(ending as 'commit' | 'rollback' | null);
    const lastOnly = text?.startsWith(LAST_RESULT_ONLY) ?? false;
    if (ending === 'rollback' && nothingSent) return answered('ROLLBACK');
    if (ending === 'commit' && nothingSent && front.length === 1) return answered('COMMIT');
    if (front.length === 0) {
      if (!lastOnly) return send(...args);
      return (send(...args) as Promise<pg.QueryResult | pg.QueryResult[]>).then((results) =>
        Array.isArray(results) ? results[results.length - 1] : results,
      );
    }
    if (text === null) {
      // One message at a time on a connection (pg warns of a query sent while one runs).
      return (send(front.join('; ')) as Promise<unknown>).then(() => send(...args));
    }
    return (send(withText(args, `${front.join('; ')}; ${text}`)) as Promise<pg.QueryResult[]>).then(
      (results) => {
        const own = results.slice(front.length);
        if (lastOnly || own.length === 1) return own[own.length - 1];
        return own;
      },
    );
  };
  return Object.assign(query, { holding: () => beginHeld || held.length > 0 });
}
