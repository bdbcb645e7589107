import { addressKey } from './client-address';
import { createMemoryLimitStore, type LimitStore } from './limit-store';

/**
 * Exponential backoff per key: the first `freeAttempts` attempts pass at once; after that each
 * attempt must wait `baseMs`, then twice as long, and so on up to `maxMs`. A key left alone for
 * `forgetAfterMs` starts again. Used with keys made of the client address and the account
 * (`accountKey`), so someone guessing from elsewhere slows down only themself, never the owner.
 *
 * The state is in a LimitStore (lib/limit-store.ts), shared by every instance on PostgreSQL or
 * Redis (issue #19), in memory for the embedded single-process default.
 */
export interface BackoffLimiterOptions {
  freeAttempts: number;
  baseMs: number;
  maxMs: number;
  forgetAfterMs: number;
  now?: () => number;
  /** Memory store only: keys tracked at most; the least recently used are forgotten beyond it. */
  maxKeys?: number;
  store?: LimitStore;
  /** Keeps this limiter's keys apart from the others' in a shared store. */
  name?: string;
}

export interface BackoffLimiter {
  /** Checks and records in one step: 0 when allowed (and counted), else the seconds to wait. */
  consume(key: string): Promise<number>;
  /** Forgets `key` (after a success). */
  reset(key: string): Promise<void>;
}

interface KeyState {
  count: number;
  lastAt: number;
  blockedUntil: number;
}

export function createBackoffLimiter(options: BackoffLimiterOptions): BackoffLimiter {
  const store =
    options.store ?? createMemoryLimitStore({ now: options.now, maxKeys: options.maxKeys });
  const prefix = `backoff:${options.name ?? 'default'}:`;

  return {
    consume: (key) =>
      store.update<KeyState, number>(prefix + key, (entry, at) => {
        const state = entry?.state;
        if (state && state.blockedUntil > at) {
          return { next: entry, result: Math.ceil((state.blockedUntil - at) / 1000) };
        }
        const count = (state?.count ?? 0) + 1;
        const over = count - options.freeAttempts;
        const blockedUntil =
          over >= 0 ? at + Math.min(options.maxMs, options.baseMs * 2 ** over) : at;
        return {
          next: {
            state: { count, lastAt: at, blockedUntil },
            // Left alone for more than forgetAfterMs after its last attempt, a key starts again
            // (maxMs ≤ forgetAfterMs, so a block never outlives it).
            expiresAt: at + options.forgetAfterMs + 1,
          },
          result: 0,
        };
      }),
    reset: (key) =>
      store.update<KeyState, void>(prefix + key, () => ({ next: null, result: undefined })),
  };
}

/**
 * The key of "this client address trying this account" (the e-mail lower-cased); an IPv6
 * client's address is its /64 (lib/client-address.ts, issue #32 item 8).
 */
export function accountKey(ip: string | null | undefined, account: string): string {
  return `${addressKey(ip)}|${account.toLowerCase()}`;
}
