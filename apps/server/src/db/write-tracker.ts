import type { PGlite, Transaction } from '@electric-sql/pglite';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { preparedText } from './prepared-texts';

/**
 * Knows, per table, whether a write is under way and how many have ended (issue #20: the read
 * cache of db/read-cache.ts serves a person's own rows from memory only while nothing they were
 * read from has been written since). Every statement this process sends to the database passes
 * through the driver wrappers below (`trackPglite`, `trackPgPool`), which tell the tracker when
 * a write begins (its first statement) and when it ends (the statement's reply, or the
 * transaction's COMMIT or ROLLBACK reply, after which other sessions see it). Other instances'
 * writes arrive through `changed` (the change bus, wired in db/read-cache.ts).
 *
 * A table's stamp is a sum of counters that only grow, so "the same stamp" means "no write to
 * these tables began or ended in between"; while a write is under way there is no stamp.
 * Writes it cannot attribute to tables (DDL, COPY, a DO block) count as a write to every table.
 */
export interface WriteTracker {
  /** A number that changes when a write to any of `tables` begins or ends; null during one. */
  stamp(tables: readonly string[]): number | null;
  /** Another instance wrote these tables (or, with 'all', anything). */
  changed(tables: Iterable<string> | 'all'): void;
  /** Calls `listener` with the tables of each write this process finished; returns the unsubscribe. */
  onWritten(listener: (tables: ReadonlySet<string> | 'all') => void): () => void;
}

export type Written = Set<string> | 'all';

const READ_ONLY_STATEMENTS = new Set([
  'select',
  'values',
  'show',
  'set',
  'reset',
  'begin',
  'start',
  'commit',
  'end',
  'rollback',
  'abort',
  'savepoint',
  'release',
  'listen',
  'unlisten',
  'notify',
  'explain',
  'deallocate',
  'discard',
  'prepare',
  'lock',
  'analyze',
  'vacuum',
]);
// TRUNCATE may name several tables, and cascades: every table.
const DML_STATEMENTS = new Set(['with', 'insert', 'update', 'delete', 'merge']);
const DML_TARGET =
  /\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_$]*)"?/gi;
const FIRST_WORD = /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*([a-z]+)/i;
const EXECUTE_NAME = /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*execute\s+([a-z_][a-z0-9_]*)/i;

/**
 * The tables a statement writes: none (null), some, or 'all' when it cannot tell (DDL, COPY,
 * DO, several statements in one text). Over-counting only costs the cache a read; so an
 * `ON CONFLICT DO UPDATE SET` naming a table "set" is harmless.
 */
export function writtenTables(statement: string): Written | null {
  const first = FIRST_WORD.exec(statement)?.[1]?.toLowerCase();
  if (!first) return null;
  if (first === 'execute') {
    // A statement this process prepared, sent as text: what that statement writes.
    const name = EXECUTE_NAME.exec(statement)?.[1];
    const text = name === undefined ? undefined : preparedText(name);
    return text === undefined ? 'all' : writtenTables(text);
  }
  if (READ_ONLY_STATEMENTS.has(first)) return null;
  if (!DML_STATEMENTS.has(first)) return 'all';
  const tables = new Set<string>();
  for (const match of statement.matchAll(DML_TARGET)) tables.add(match[1]!.toLowerCase());
  if (tables.size > 0) return tables;
  // A WITH that only reads; anything else that names no table is not understood.
  return first === 'with' ? null : 'all';
}

/**
 * `writtenTables` of the statements seen lately: the app sends the same few hundred texts again
 * and again, some of them kilobytes long (a request's insert with its trail), and reading each
 * again for its tables cost about 1 % of a guest request's CPU (issue #20). Texts with literals
 * vary (an advisory lock's key), so the memo is emptied when it is full.
 */
const WRITTEN_MEMO_SIZE = 2_000;
const writtenMemo = new Map<string, Written | null>();
function writtenTablesOf(statement: string): Written | null {
  const known = writtenMemo.get(statement);
  if (known !== undefined) return known;
  // An EXECUTE carries its values as literals, a new text each time: its statement is what is
  // remembered.
  const name = EXECUTE_NAME.exec(statement)?.[1];
  if (name !== undefined) {
    const text = preparedText(name);
    return text === undefined ? 'all' : writtenTablesOf(text);
  }
  const found = writtenTables(statement);
  // A merged message's text (db/merged-messages.ts) carries literals too.
  if (statement.startsWith('/*')) return found;
  if (writtenMemo.size >= WRITTEN_MEMO_SIZE) writtenMemo.clear();
  writtenMemo.set(statement, found);
  return found;
}

const TRANSACTION_BEGIN = /^\s*(?:begin|start\s+transaction)\b/i;
const TRANSACTION_END = /^\s*(?:commit|end|abort|rollback)\s*(?:work|transaction)?\s*;?\s*$/i;

/**
 * The tables whose rows change when a row of the key table is deleted or its key updated
 * (foreign keys ON DELETE/UPDATE CASCADE, SET NULL or SET DEFAULT), transitively.
 */
export function cascadesOf(tables: readonly PgTable[]): Map<string, Set<string>> {
  const children = new Map<string, Set<string>>();
  for (const table of tables) {
    const config = getTableConfig(table);
    for (const fk of config.foreignKeys) {
      const acts = [fk.onDelete, fk.onUpdate].some(
        (action) => action === 'cascade' || action === 'set null' || action === 'set default',
      );
      if (!acts) continue;
      const parent = getTableConfig(fk.reference().foreignTable).name;
      let set = children.get(parent);
      if (!set) children.set(parent, (set = new Set()));
      set.add(config.name);
    }
  }
  const closure = new Map<string, Set<string>>();
  for (const parent of children.keys()) {
    const reached = new Set<string>();
    const stack = [...children.get(parent)!];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (reached.has(next)) continue;
      reached.add(next);
      stack.push(...(children.get(next) ?? []));
    }
    closure.set(parent, reached);
  }
  return closure;
}

export interface TrackerInternals extends WriteTracker {
  /** The tables a write to `tables` changes: themselves and what cascades from them. */
  expand(tables: Iterable<string>): Set<string>;
  /** A write to these tables (already expanded) begins; each `began` is matched by one `ended`. */
  began(written: Written): void;
  ended(written: Written): void;
}

export function createWriteTracker(cascades = new Map<string, Set<string>>()): TrackerInternals {
  const generations = new Map<string, number>();
  const busy = new Map<string, number>();
  let epoch = 0;
  let busyAll = 0;
  const listeners = new Set<(tables: ReadonlySet<string> | 'all') => void>();

  const expand = (tables: Iterable<string>): Set<string> => {
    const all = new Set<string>();
    for (const table of tables) {
      all.add(table);
      for (const child of cascades.get(table) ?? []) all.add(child);
    }
    return all;
  };
  const bump = (tables: Iterable<string>, busyDelta: number) => {
    for (const table of tables) {
      generations.set(table, (generations.get(table) ?? 0) + 1);
      if (busyDelta !== 0) busy.set(table, (busy.get(table) ?? 0) + busyDelta);
    }
  };

  return {
    expand,
    stamp(tables) {
      if (busyAll > 0) return null;
      let sum = epoch;
      for (const table of tables) {
        if ((busy.get(table) ?? 0) > 0) return null;
        sum += generations.get(table) ?? 0;
      }
      return sum;
    },
    began(written) {
      if (written === 'all') {
        busyAll += 1;
        epoch += 1;
      } else bump(written, 1);
    },
    ended(written) {
      if (written === 'all') {
        busyAll -= 1;
        epoch += 1;
      } else bump(written, -1);
      for (const listener of listeners) listener(written);
    },
    changed(tables) {
      if (tables === 'all') epoch += 1;
      else bump(expand(tables), 0);
    },
    onWritten(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * One connection's transaction state: the tables written since BEGIN are "under way" until the
 * COMMIT or ROLLBACK is answered (or the connection ends); outside a transaction, a statement's
 * write is under way until its own reply. Each table is begun once per transaction and ended
 * once at its end, so the tracker's counts always return to zero.
 */
export function connectionTracker(tracker: TrackerInternals) {
  let inTransaction = false;
  let begun = new Set<string>();
  let begunAll = false;
  const finish = () => {
    const tables = begun;
    const all = begunAll;
    begun = new Set();
    begunAll = false;
    inTransaction = false;
    if (tables.size > 0) tracker.ended(tables);
    if (all) tracker.ended('all');
  };
  return {
    async run<T>(text: string, send: () => Promise<T>): Promise<T> {
      if (TRANSACTION_BEGIN.test(text)) {
        inTransaction = true;
        return send();
      }
      if (inTransaction && TRANSACTION_END.test(text)) {
        try {
          return await send();
        } finally {
          finish();
        }
      }
      const found = writtenTablesOf(text);
      if (found === null) return send();
      const written: Written = found === 'all' ? 'all' : tracker.expand(found);
      if (inTransaction) {
        if (written === 'all') {
          if (!begunAll) {
            begunAll = true;
            tracker.began('all');
          }
        } else {
          const fresh = new Set([...written].filter((table) => !begun.has(table)));
          if (fresh.size > 0) {
            for (const table of fresh) begun.add(table);
            tracker.began(fresh);
          }
        }
        return send();
      }
      tracker.began(written);
      try {
        return await send();
      } finally {
        tracker.ended(written);
      }
    },
    /** The connection closed: whatever it had under way is over. */
    closed: finish,
  };
}

function textOf(query: unknown): string {
  if (typeof query === 'string') return query;
  if (query && typeof query === 'object' && 'text' in query) return String(query.text);
  return '';
}

/** node-postgres: every pooled connection's statements pass through the tracker. */
export function trackPgPool(pool: pg.Pool, tracker: TrackerInternals): void {
  pool.on('connect', (client: pg.PoolClient) => {
    const connection = connectionTracker(tracker);
    // What the connection had in place (db/merged-messages.ts), else the class's own method,
    // looked up on every call (so a test's spy on it still sees it).
    const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
    const own = Object.hasOwn(client, 'query')
      ? (client as unknown as { query: (...args: unknown[]) => unknown }).query
      : null;
    const query = own ?? ((...args: unknown[]) => proto.query.apply(client, args));
    client.on('end', connection.closed);
    (client as { query: unknown }).query = (...args: unknown[]) => {
      // A Submittable (a cursor; not used here) passes straight through.
      if (typeof (args[0] as { submit?: unknown } | null)?.submit === 'function') {
        return query(...args);
      }
      const text = textOf(args[0]);
      const last = args[args.length - 1];
      if (typeof last !== 'function') {
        return connection.run(text, () => query(...args) as Promise<unknown>);
      }
      // The callback form: pg-pool's own `pool.query` uses it.
      const callback = last as (error: unknown, result?: unknown) => void;
      const rest = args.slice(0, -1);
      connection
        .run(
          text,
          () =>
            new Promise((resolve, reject) => {
              query(...rest, (error: unknown, result: unknown) =>
                error ? reject(error as Error) : resolve(result),
              );
            }),
        )
        .then(
          (result) => callback(null, result),
          (error: unknown) => callback(error),
        );
      return undefined;
    };
  });
}

type Send = (text: string, ...rest: unknown[]) => Promise<unknown>;

/** `send` with each statement passed through `connection`. */
function through(connection: ReturnType<typeof connectionTracker>, send: Send): Send {
  return (text, ...rest) => connection.run(text, () => send(text, ...rest));
}

/** PGlite: its statements, and those of its transactions, pass through the tracker. */
export function trackPglite(client: PGlite, tracker: TrackerInternals): void {
  const outside = connectionTracker(tracker);
  const transaction = client.transaction.bind(client);
  client.query = through(outside, client.query.bind(client) as Send) as PGlite['query'];
  client.exec = through(outside, client.exec.bind(client) as Send) as PGlite['exec'];
  client.transaction = (async <T>(callback: (tx: Transaction) => Promise<T>) => {
    const inside = connectionTracker(tracker);
    // PGlite sends BEGIN and COMMIT itself; mark the transaction's bounds for the tracker.
    await inside.run('begin', async () => undefined);
    try {
      return await transaction(async (tx) => {
        tx.query = through(inside, tx.query.bind(tx) as Send) as Transaction['query'];
        tx.exec = through(inside, tx.exec.bind(tx) as Send) as Transaction['exec'];
        return callback(tx);
      });
    } finally {
      inside.closed();
    }
  }) as PGlite['transaction'];
}
