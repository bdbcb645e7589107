/**
 * Exponential backoff per key: the first `freeAttempts` attempts pass at once; after that each
 * attempt must wait `baseMs`, then twice as long, and so on up to `maxMs`. A key left alone for
 * `forgetAfterMs` starts again. Used with keys made of the client address and the account
 * (`accountKey`), so someone guessing from elsewhere slows down only themself, never the owner.
 *
 * In memory, per process, like attempt-limiter: it slows guessing down; the hard ceilings that
 * must hold across processes are the daily counters in PostgreSQL (daily-counters.ts).
 */
export interface BackoffLimiterOptions {
  freeAttempts: number;
  baseMs: number;
  maxMs: number;
  forgetAfterMs: number;
  now?: () => number;
  /** Keys tracked at most; the least recently used are forgotten beyond it. */
  maxKeys?: number;
}

export interface BackoffLimiter {
  /** Checks and records in one step: 0 when allowed (and counted), else the seconds to wait. */
  consume(key: string): number;
  /** Forgets `key` (after a success). */
  reset(key: string): void;
  size(): number;
}

interface KeyState {
  count: number;
  lastAt: number;
  blockedUntil: number;
}

export function createBackoffLimiter(options: BackoffLimiterOptions): BackoffLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  const states = new Map<string, KeyState>();

  return {
    consume(key) {
      const at = now();
      let state = states.get(key);
      if (state && at - state.lastAt > options.forgetAfterMs) state = undefined;
      if (state && state.blockedUntil > at) return Math.ceil((state.blockedUntil - at) / 1000);
      const count = (state?.count ?? 0) + 1;
      const over = count - options.freeAttempts;
      const blockedUntil =
        over >= 0 ? at + Math.min(options.maxMs, options.baseMs * 2 ** over) : at;
      // Re-inserting keeps the map in least-recently-used order.
      states.delete(key);
      states.set(key, { count, lastAt: at, blockedUntil });
      while (states.size > maxKeys) {
        const oldest = states.keys().next().value;
        if (oldest === undefined) break;
        states.delete(oldest);
      }
      return 0;
    },
    reset(key) {
      states.delete(key);
    },
    size: () => states.size,
  };
}

/** The key of "this client address trying this account" (the e-mail lower-cased). */
export function accountKey(ip: string | null | undefined, account: string): string {
  return `${ip ?? 'unknown'}|${account.toLowerCase()}`;
}
