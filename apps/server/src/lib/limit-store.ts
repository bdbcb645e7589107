import { eq, lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../db/client';
import { limitStates } from '../db/schema';
import { keyedDigest } from './tokens';

/**
 * Where every request limit keeps its state (issue #19): with several instances behind a load
 * balancer a limit kept in each process's memory would let through `max` × instances, and a
 * restart would forget it. PostgreSQL (`limit_states`) is the default when DATABASE_URL is set,
 * Redis when REDIS_URL is, memory only for the embedded single-process PGlite.
 *
 * A limit reads its state, decides, and writes the next state in one atomic step (a row lock in
 * PostgreSQL, WATCH/MULTI in Redis), so two instances never both take the last attempt.
 */
export interface LimitEntry<S> {
  state: S;
  /** Milliseconds since the epoch; after it the entry is gone. */
  expiresAt: number;
}

/** Decides from the current entry (null: none, or expired) what to keep and what to answer. */
export type LimitStep<S, R> = (
  current: LimitEntry<S> | null,
  at: number,
) => { next: LimitEntry<S> | null; result: R };

export interface LimitStore {
  readonly kind: 'memory' | 'postgres' | 'redis';
  update<S extends object, R>(key: string, step: LimitStep<S, R>): Promise<R>;
  /** Deletes expired entries (PostgreSQL: a periodic sweep; the others expire by themselves). */
  sweep(): Promise<number>;
}

// The limiters' own names ("attempts:password-failures:", "backoff:otp-requests:") stay
// readable; what follows them is the part that names someone.
const KEY_NAMESPACE = /^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*:/;

/**
 * What a limit's key becomes in a store (issue #32 item 19): its namespace, then a keyed digest
 * (HMAC-SHA-256 with the server's JWT secret, the same on every instance and across restarts)
 * of the rest. Keys name e-mail addresses, phones and client addresses ("203.0.113.7|asha@…");
 * a copy of `limit_states` or of Redis, or an erased person's leftovers, must name nobody.
 */
export function limitKeyDigest(secret: string, key: string): string {
  const namespace = KEY_NAMESPACE.exec(key)?.[0] ?? '';
  return `${namespace}${keyedDigest(secret, 'limit-key', key)}`;
}

/** `store` with every key replaced by `limitKeyDigest` before it is kept. */
export function withDigestedKeys(store: LimitStore, secret: string): LimitStore {
  return {
    kind: store.kind,
    update<S extends object, R>(key: string, step: LimitStep<S, R>): Promise<R> {
      return store.update(limitKeyDigest(secret, key), step);
    },
    sweep: () => store.sweep(),
  };
}

/** One process: a Map, least recently used first, bounded so made-up keys cannot fill memory. */
export function createMemoryLimitStore(
  options: { now?: () => number; maxKeys?: number } = {},
): LimitStore {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 200_000;
  const entries = new Map<string, LimitEntry<unknown>>();
  return {
    kind: 'memory',
    async update<S extends object, R>(key: string, step: LimitStep<S, R>): Promise<R> {
      const at = now();
      const found = entries.get(key) as LimitEntry<S> | undefined;
      const current = found && found.expiresAt > at ? found : null;
      const { next, result } = step(current, at);
      entries.delete(key);
      if (next) entries.set(key, next);
      while (entries.size > maxKeys) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      return result;
    },
    async sweep() {
      const at = now();
      let removed = 0;
      for (const [key, entry] of entries)
        if (entry.expiresAt <= at) {
          entries.delete(key);
          removed += 1;
        }
      return removed;
    },
  };
}

/** `limit_states` rows, each step in a transaction holding the key's row lock. */
export function createPostgresLimitStore(db: Db, now: () => number = Date.now): LimitStore {
  return {
    kind: 'postgres',
    update<S extends object, R>(key: string, step: LimitStep<S, R>): Promise<R> {
      return db.transaction(async (tx) => {
        // The row must exist to be locked: two first attempts would otherwise both see none.
        // One statement inserts it or, when it exists, locks it (ON CONFLICT DO UPDATE takes the
        // row lock, waits for a holder, and returns the latest committed state); a sweep that
        // deleted it meanwhile only makes this the insert.
        const [row] = await tx
          .insert(limitStates)
          .values({ key, state: {}, expiresAt: new Date(0) })
          .onConflictDoUpdate({ target: limitStates.key, set: { key: sql`excluded.key` } })
          .returning();
        if (!row) throw new Error(`the limit ${key} could not be locked`);
        // The time is read once the lock is held: read before, it could be older than the
        // state a transaction that held the lock before us wrote, and that state would look
        // like the future (a backoff block not yet over).
        const at = now();
        const current =
          row.expiresAt.getTime() > at
            ? { state: row.state as S, expiresAt: row.expiresAt.getTime() }
            : null;
        const { next, result } = step(current, at);
        // Never deleted here: a transaction waiting on this row's lock would find it gone and
        // start afresh, taking an attempt that is not free. An entry with no next state is kept
        // as expired (read as none) and the sweep removes it.
        await tx
          .update(limitStates)
          .set({
            state: (next?.state ?? {}) as Record<string, unknown>,
            expiresAt: new Date(next ? next.expiresAt : 0),
          })
          .where(eq(limitStates.key, key));
        return result;
      });
    },
    async sweep() {
      const removed = await db
        .delete(limitStates)
        .where(lt(limitStates.expiresAt, new Date(now())))
        .returning({ key: limitStates.key });
      return removed.length;
    },
  };
}

/** Compare-and-set: writes ARGV[2] (or deletes, when empty) only if the key still holds ARGV[1]. */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1])
else redis.call('SET', KEYS[1], ARGV[2], 'PX', tonumber(ARGV[3])) end
return 1
`;

/**
 * Redis: read, decide, then compare-and-set in one Lua call (retried when another instance
 * wrote the key meanwhile); the entry as JSON with a PX expiry, so Redis forgets it by itself.
 * Safe on one shared connection (WATCH would not be: it belongs to the connection).
 */
export function createRedisLimitStore(
  redis: Redis,
  options: { prefix?: string; now?: () => number } = {},
): LimitStore {
  const prefix = options.prefix ?? 'bdms:limit:';
  const now = options.now ?? Date.now;
  return {
    kind: 'redis',
    async update<S extends object, R>(key: string, step: LimitStep<S, R>): Promise<R> {
      const name = `${prefix}${key}`;
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const raw = (await redis.get(name)) ?? '';
        const at = now();
        let current: LimitEntry<S> | null = null;
        if (raw) {
          try {
            const parsed = JSON.parse(raw) as LimitEntry<S>;
            if (parsed.expiresAt > at) current = parsed;
          } catch {
            current = null;
          }
        }
        const { next, result } = step(current, at);
        const keep = next && next.expiresAt > at;
        const written = await redis.eval(
          COMPARE_AND_SET,
          1,
          name,
          raw,
          keep ? JSON.stringify(next) : '',
          keep ? String(Math.max(1, Math.ceil(next.expiresAt - at))) : '0',
        );
        if (written === 1) return result;
        // Another instance took an attempt meanwhile: read again, after a short random pause.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
      }
      throw new Error(`the limit ${key} is too contended to update`);
    },
    async sweep() {
      return 0;
    },
  };
}
