import { createMemoryLimitStore, type LimitEntry, type LimitStore } from './limit-store';

/**
 * A sliding-window counter per key ("5 failed sign-ins for this e-mail in 15 minutes"), for
 * limits that @fastify/rate-limit cannot express because the key is in the body, not the address.
 *
 * The state is in a LimitStore (lib/limit-store.ts): PostgreSQL or Redis when several instances
 * share the work, so the limit is the same whichever instance a request reaches (issue #19);
 * memory for the embedded single-process default.
 */
export interface AttemptLimiterOptions {
  max: number;
  windowMs: number;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  /**
   * Memory store only: keys tracked at most; beyond it the least recently used key is
   * forgotten, so a flood of made-up e-mail addresses cannot exhaust memory.
   */
  maxKeys?: number;
  /** Where the attempts are kept; an in-process store by default. */
  store?: LimitStore;
  /** Keeps this limiter's keys apart from the others' in a shared store. */
  name?: string;
}

export interface AttemptLimiter {
  /** Seconds until `key` may try again; 0 when it may try now. Records nothing. */
  retryAfterSeconds(key: string): Promise<number>;
  /** Records one attempt (a failure, or a request that counts) for `key`. */
  record(key: string): Promise<void>;
  /** Checks and records in one step: 0 and recorded when allowed, else the seconds to wait. */
  consume(key: string): Promise<number>;
  /** Forgets `key` (after a successful sign-in). */
  reset(key: string): Promise<void>;
}

interface Stamps {
  stamps: number[];
}

export function createAttemptLimiter(options: AttemptLimiterOptions): AttemptLimiter {
  const { max, windowMs } = options;
  const store =
    options.store ?? createMemoryLimitStore({ now: options.now, maxKeys: options.maxKeys });
  const prefix = `attempts:${options.name ?? 'default'}:`;

  const recent = (entry: LimitEntry<Stamps> | null, at: number) =>
    (entry?.state.stamps ?? []).filter((stamp) => stamp > at - windowMs);

  function waitFor(stamps: number[], at: number): number {
    if (stamps.length < max) return 0;
    // Allowed again once enough of the oldest attempts have left the window to be under `max`.
    const freeing = stamps[stamps.length - max] ?? at;
    return Math.max(1, Math.ceil((freeing + windowMs - at) / 1000));
  }

  const keep = (stamps: number[]): LimitEntry<Stamps> | null =>
    stamps.length === 0
      ? null
      : { state: { stamps: stamps.slice(-max) }, expiresAt: Math.max(...stamps) + windowMs };

  return {
    retryAfterSeconds: (key) =>
      store.update<Stamps, number>(prefix + key, (entry, at) => {
        const stamps = recent(entry, at);
        return { next: keep(stamps), result: waitFor(stamps, at) };
      }),
    record: (key) =>
      store.update<Stamps, void>(prefix + key, (entry, at) => ({
        next: keep([...recent(entry, at), at]),
        result: undefined,
      })),
    consume: (key) =>
      store.update<Stamps, number>(prefix + key, (entry, at) => {
        const stamps = recent(entry, at);
        const wait = waitFor(stamps, at);
        return { next: keep(wait === 0 ? [...stamps, at] : stamps), result: wait };
      }),
    reset: (key) =>
      store.update<Stamps, void>(prefix + key, () => ({ next: null, result: undefined })),
  };
}
