import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { is, sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { PgTable, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { Config } from '../config/env';
import { acquireDataDirLock } from './data-dir-lock';
import { HOLDING, mergeMessages } from './merged-messages';
import { attachReadCache, createReadCache, shareWrites, type ReadCache } from './read-cache';
import * as schema from './schema';
import {
  cascadesOf,
  createWriteTracker,
  trackPglite,
  trackPgPool,
  type WriteTracker,
} from './write-tracker';

export type Schema = typeof schema;
/** Both drivers' databases (and their transactions) are this; repositories take it. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type DbDriver = 'pglite' | 'postgres';

interface DatabaseBase {
  db: Db;
  /**
   * Calls `observer` with the text of every statement the app sends through `db` (transaction
   * control included on node-postgres only); returns the function that stops it. Tests count the
   * queries of hot calls with it (src/test/query-counter.ts).
   */
  observeQueries(observer: QueryObserver): () => void;
  /** Which tables this process (and, once shared, every instance) has written (db/write-tracker.ts). */
  writes: WriteTracker;
  /** The signed-in reads' cache (db/read-cache.ts). */
  readCache: ReadCache;
  /** Resolves when the database answers a trivial query; used by /readyz. */
  ping(): Promise<void>;
  /** Idempotent. */
  close(): Promise<void>;
}

export interface PgliteDatabaseHandle extends DatabaseBase {
  driver: 'pglite';
  client: PGlite;
}

export interface PostgresDatabaseHandle extends DatabaseBase {
  driver: 'postgres';
  pool: pg.Pool;
  /**
   * Turns the read cache on for as long as `bus` listens: this instance's writes are announced
   * on it and other instances' writes heard from it (server.ts, with the PostgreSQL bus).
   * Without it the cache stays off, since another instance could write unseen.
   */
  shareWritesThrough(bus: Parameters<typeof shareWrites>[1] & { isListening(): boolean }): void;
}

export type Database = PgliteDatabaseHandle | PostgresDatabaseHandle;

/**
 * No `schema`: the relational query API (`db.query.…`) is not used, and with a schema Drizzle
 * builds a query builder per table for every transaction it opens (issue #20).
 */
export const DRIZZLE_OPTIONS = { casing: 'snake_case' } as const;

export type QueryObserver = (query: string) => void;

/** Tables whose rows change when a row they reference is deleted (foreign key actions). */
let schemaCascades: ReturnType<typeof cascadesOf> | undefined;
function newWriteTracker() {
  schemaCascades ??= cascadesOf(
    (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)),
  );
  return createWriteTracker(schemaCascades);
}

/** A Drizzle logger that tells the current observers; costs one empty loop when there are none. */
function queryObservers() {
  const observers = new Set<QueryObserver>();
  return {
    logger: {
      logQuery(query: string) {
        for (const observer of observers) observer(query);
      },
    },
    observeQueries(observer: QueryObserver) {
      observers.add(observer);
      return () => {
        observers.delete(observer);
      };
    },
  };
}

/** Wraps an open PGlite (a directory or in-memory instance); `close` closes it. */
export function createPgliteDatabase(
  client: PGlite,
  onClose: () => void = () => {},
): PgliteDatabaseHandle {
  const { logger, observeQueries } = queryObservers();
  const writes = newWriteTracker();
  trackPglite(client, writes);
  const db = drizzlePglite({ client, ...DRIZZLE_OPTIONS, logger });
  // One process owns the embedded database: every write passes the tracker, so the cache is on.
  const readCache = createReadCache({ tracker: writes });
  attachReadCache(db, readCache);
  return {
    db,
    observeQueries,
    writes,
    readCache,
    driver: 'pglite',
    client,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      if (client.closed) return;
      await client.close();
      onClose();
    },
  };
}

export function createPostgresDatabase(
  connectionString: string,
  /** DATABASE_POOL_MAX: connections this instance may hold (default 10). */
  max = 10,
): PostgresDatabaseHandle {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it kills the process.
  pool.on('error', () => {});
  // A checked-out client (a transaction between two queries) emits 'error' on itself instead,
  // where the pool listens only while it is idle: a PostgreSQL restart killed the server this
  // way (scripts/faults/postgres-restart.mjs). Its next query fails, the transaction is rolled
  // back and the pool drops the broken client, so nothing more is needed here.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  // Before the write tracker, which wraps what this puts in place.
  pool.on('connect', (client) => {
    const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
    const merged = mergeMessages((...args) => proto.query.apply(client, args));
    Object.assign(client, { query: merged, [HOLDING]: merged.holding });
  });
  const { logger, observeQueries } = queryObservers();
  const writes = newWriteTracker();
  trackPgPool(pool, writes);
  const db = drizzleNodePg({ client: pool, ...DRIZZLE_OPTIONS, logger });
  let coherent: (() => boolean) | null = null;
  const readCache = createReadCache({ tracker: writes, enabled: () => coherent?.() ?? false });
  attachReadCache(db, readCache);
  let closing: Promise<void> | undefined;
  return {
    db,
    observeQueries,
    writes,
    readCache,
    shareWritesThrough(bus) {
      shareWrites(writes, bus);
      // Whatever was cached before is dropped as the cache turns on (and whenever it was off).
      let wasListening = false;
      coherent = () => {
        const listening = bus.isListening();
        if (listening !== wasListening) {
          wasListening = listening;
          readCache.clear();
        }
        return listening;
      };
    },
    driver: 'postgres',
    pool,
    async ping() {
      await db.execute(sql`select 1`);
    },
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}

export function pgliteDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pgdata');
}

/**
 * PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/pgdata. PGlite is single-process:
 * a lock file refuses a second server on the same directory, which would corrupt it.
 */
export async function createDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolMax'>>,
): Promise<Database> {
  if (config.databaseUrl) return createPostgresDatabase(config.databaseUrl, config.databasePoolMax);
  const dir = pgliteDataDir(config);
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireDataDirLock(`${dir}.lock`);
  try {
    // pg_trgm: the facilities search's trigram index (the migration creates the extension).
    const client = new PGlite(dir, { extensions: { pg_trgm } });
    await client.waitReady;
    return createPgliteDatabase(client, release);
  } catch (error) {
    release();
    throw error;
  }
}

/** `user@host:port/db` without the password, for log lines. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/** Raw SQL rows; both drivers return `{ rows }`, which the shared Db type cannot express. */
export async function executeRows<T extends Record<string, unknown>>(
  db: Db,
  query: SQL,
): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
