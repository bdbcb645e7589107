import { sql } from 'drizzle-orm';
import { CHANGE_CHANNEL } from '../lib/change-bus';
import type { Db } from './client';
import type { WriteTracker } from './write-tracker';

/**
 * A per-process cache of the prepared reads behind a signed-in person's own screens (issue
 * #20): the caller's row, `/auth/me`, the dashboard, the donation and notification pages. A
 * repeated read costs no statement while none of the tables it reads has been written since.
 *
 * Why it is right:
 * - Every statement of this process goes through the write tracker (db/write-tracker.ts); a
 *   cached row is served only while its stamp (the read tables' write counters) is unchanged,
 *   and nothing is cached while a write to those tables is under way.
 * - On PostgreSQL other instances write too: the cache is on only while the change bus listens
 *   (LISTEN/NOTIFY); each instance announces the tables its writes changed once they are
 *   committed, and a bus that loses its connection turns the cache off until it listens again,
 *   then drops everything. What another instance changed is seen here within the notification's
 *   delivery (milliseconds); `ttlMs` bounds anything missed (an edit by hand).
 * - Only statements that do not depend on the clock are cached (`now()` and the like refuse),
 *   and rows are frozen: a caller cannot change what the next one gets.
 */
export interface ReadCache {
  /**
   * `read(params)` through the cache, keyed by `name` and the parameters. `sqlText` is the
   * statement (its tables are what the entry depends on).
   */
  wrap<P extends Record<string, unknown>, R>(
    name: string,
    sqlText: string,
    read: (params: P) => Promise<R>,
  ): (params: P) => Promise<R>;
  /**
   * `load()` through the cache under `key`, depending on `tables` (the tables `load` reads).
   * For reads whose statement is built per call (inside a transaction).
   */
  get<R>(key: string, tables: readonly string[], load: () => Promise<R>): Promise<R>;
  /** Drops every entry. */
  clear(): void;
  /** Entries now held (tests and the debug panel). */
  size(): number;
}

export interface ReadCacheOptions {
  tracker: WriteTracker;
  /** At most this many entries; the least recently used go first. */
  max?: number;
  /** An entry is read again after this long, whatever the tracker says. */
  ttlMs?: number;
  now?: () => number;
  /** False: every read goes to the database (no coherent bus yet, or turned off). */
  enabled?: () => boolean;
}

const READ_TABLES = /\b(?:from|join)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_$]*)"?/gi;
const CLOCK =
  /\b(?:now\s*\(|current_date|current_time|current_timestamp|localtime|localtimestamp|clock_timestamp|statement_timestamp|transaction_timestamp|random\s*\(|nextval\s*\()/i;

/** The tables a read statement names after FROM or JOIN. */
export function readTables(statement: string): string[] {
  const tables = new Set<string>();
  for (const match of statement.matchAll(READ_TABLES)) tables.add(match[1]!.toLowerCase());
  return [...tables];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}

interface Entry {
  stamp: number;
  expires: number;
  value: Promise<unknown>;
}

export function createReadCache(options: ReadCacheOptions): ReadCache {
  const { tracker } = options;
  const max = options.max ?? 5_000;
  const ttl = options.ttlMs ?? 15_000;
  const now = options.now ?? Date.now;
  const enabled = options.enabled ?? (() => true);
  const entries = new Map<string, Entry>();

  function get<R>(key: string, tables: readonly string[], load: () => Promise<R>): Promise<R> {
    const stamp = enabled() ? tracker.stamp(tables) : null;
    if (stamp === null) {
      return load();
    }
    const at = now();
    const found = entries.get(key);
    if (found && found.stamp === stamp && found.expires > at) {
      // Most recently used last.
      entries.delete(key);
      entries.set(key, found);
      return found.value as Promise<R>;
    }
    const value = load().then(deepFreeze);
    const entry: Entry = { stamp, expires: at + ttl, value };
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > max) entries.delete(entries.keys().next().value!);
    // A failure is not remembered.
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return value;
  }

  return {
    get,
    wrap(name, sqlText, read) {
      if (CLOCK.test(sqlText)) throw new Error(`read ${name} depends on the clock: not cacheable`);
      const tables = readTables(sqlText);
      if (tables.length === 0) throw new Error(`read ${name}: no table found in its statement`);
      return (params) => get(`${name}\u0000${JSON.stringify(params)}`, tables, () => read(params));
    },
    clear: () => entries.clear(),
    size: () => entries.size,
  };
}

const caches = new WeakMap<Db, ReadCache>();
/** Each transaction of a handle with a cache, for `readThroughCache`. */
const transactionCaches = new WeakMap<Db, ReadCache>();

/**
 * Gives `db` (a Database's handle) its read cache, and each of its transactions too (read
 * committed, the only level this app uses: a statement inside one sees what the handle would,
 * except the transaction's own writes, which the tracker counts as under way). db/client.ts
 * does it.
 */
export function attachReadCache(db: Db, cache: ReadCache): void {
  caches.set(db, cache);
  const transaction = db.transaction.bind(db);
  db.transaction = ((run: (tx: Db) => Promise<unknown>, config?: { isolationLevel?: string }) =>
    transaction(
      (tx) => {
        if (!config?.isolationLevel || config.isolationLevel === 'read committed') {
          transactionCaches.set(tx as unknown as Db, cache);
        }
        return run(tx as unknown as Db);
      },
      config as Parameters<typeof transaction>[1],
    )) as Db['transaction'];
}

/**
 * A small read inside a transaction (settings, flags, the administrators) through the cache of
 * the handle it belongs to: `load` reads through the transaction itself (on PGlite a read
 * outside it would wait for it forever), so a miss costs what it did before and a hit nothing.
 * `tables` are the tables `load` reads. Without a cache (a nested transaction, tests) it loads.
 */
export function readThroughCache<R>(
  db: Db,
  key: string,
  tables: readonly string[],
  load: () => Promise<R>,
): Promise<R> {
  const cache = transactionCaches.get(db) ?? caches.get(db);
  return cache ? cache.get(`tx\u0000${key}`, tables, load) : load();
}

/** The read cache of `db`; undefined for a transaction or a handle without one. */
export function readCacheOf(db: Db): ReadCache | undefined {
  return caches.get(db);
}

/**
 * A prepared read through `db`'s cache when it has one, else straight to the database. Takes
 * the statement's text from the prepared query itself.
 */
export function cachedRead<P extends Record<string, unknown>, R>(
  db: Db,
  name: string,
  prepared: { execute(params: P): Promise<R>; getQuery(): { sql: string } },
): (params: P) => Promise<R> {
  const execute = (params: P) => prepared.execute(params);
  const cache = readCacheOf(db);
  return cache ? cache.wrap(name, prepared.getQuery().sql, execute) : execute;
}

export const TABLES_CHANGE_TOPIC = 'db.tables';
/** An announcement unanswered this long (ms) no longer holds the next one back. */
export const ANNOUNCEMENT_STALL_MS = 1_000;

/**
 * Tells every running instance on this PostgreSQL to drop all it holds in memory: for a program
 * that writes without being one of them (`npm run demo:remove`).
 */
export async function announceEverythingChanged(db: Db): Promise<void> {
  const payload = JSON.stringify({ topic: TABLES_CHANGE_TOPIC, data: '*', origin: 'script' });
  await db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${payload})`);
}

/**
 * Tells other instances (through the change bus) which tables this one's writes changed, and
 * applies theirs here. One announcement per turn of the event loop carries every table written
 * in it, and one is in flight at a time: what is written meanwhile goes in the next one, sent as
 * soon as the last is answered. Under load that is one NOTIFY per round trip to PostgreSQL
 * instead of one per turn (about one per two guest requests at 600 a second), each a statement
 * on the pool and a message to every instance (issue #20); an idle server still announces at
 * once.
 */
export function shareWrites(
  tracker: WriteTracker,
  bus: {
    publishData(topic: string, data: string): Promise<void>;
    subscribeData(topic: string, listener: (data: string | null) => void): () => void;
  },
): () => void {
  let batch: Set<string> | 'all' | null = null;
  // When the announcement in flight was sent; null when none is. One stuck past
  // ANNOUNCEMENT_STALL_MS (a connection that hangs) no longer holds the next one back.
  let inFlightSince: number | null = null;
  const flush = () => {
    const tables = batch;
    batch = null;
    if (tables === null) return;
    const since = Date.now();
    inFlightSince = since;
    bus
      .publishData(TABLES_CHANGE_TOPIC, tables === 'all' ? '*' : [...tables].join(','))
      .catch(() => {})
      .finally(() => {
        if (inFlightSince !== since) return;
        inFlightSince = null;
        if (batch !== null) flush();
      });
  };
  const waiting = () =>
    inFlightSince !== null && Date.now() - inFlightSince < ANNOUNCEMENT_STALL_MS;
  let scheduled = false;
  const stopWritten = tracker.onWritten((tables) => {
    if (tables === 'all' || batch === 'all') batch = 'all';
    else {
      batch ??= new Set();
      for (const table of tables) batch.add(table);
    }
    if (scheduled || waiting()) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flush();
    });
  });
  const stopHeard = bus.subscribeData(TABLES_CHANGE_TOPIC, (data) => {
    // null: the bus reconnected and may have missed messages, or the list was too long.
    if (data === null || data === '*') tracker.changed('all');
    else tracker.changed(data.split(','));
  });
  return () => {
    stopWritten();
    stopHeard();
  };
}
