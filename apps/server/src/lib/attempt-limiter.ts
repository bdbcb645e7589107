/**
 * A sliding-window counter per key ("5 failed sign-ins for this e-mail in 15 minutes"), for
 * limits that @fastify/rate-limit cannot express because the key is in the body, not the address.
 *
 * State is in memory, per process: with several server processes behind a load balancer each
 * one counts separately, so the effective limit is `max` times the number of processes. That is
 * acceptable for slowing down guessing; a shared store would be needed for an exact limit.
 */
export interface AttemptLimiterOptions {
  max: number;
  windowMs: number;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  /**
   * Keys tracked at most; beyond it the least recently used key is forgotten, so a flood of
   * made-up e-mail addresses cannot exhaust memory.
   */
  maxKeys?: number;
}

export interface AttemptLimiter {
  /** Seconds until `key` may try again; 0 when it may try now. Records nothing. */
  retryAfterSeconds(key: string): number;
  /** Records one attempt (a failure, or a request that counts) for `key`. */
  record(key: string): void;
  /** Checks and records in one step: 0 and recorded when allowed, else the seconds to wait. */
  consume(key: string): number;
  /** Forgets `key` (after a successful sign-in). */
  reset(key: string): void;
  /** Keys currently tracked (for tests and metrics). */
  size(): number;
}

export function createAttemptLimiter(options: AttemptLimiterOptions): AttemptLimiter {
  const { max, windowMs } = options;
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  // Map iteration order is insertion order; re-inserting on use keeps it least-recently-used first.
  const attempts = new Map<string, number[]>();

  function recent(key: string, at: number): number[] {
    const stamps = attempts.get(key);
    if (!stamps) return [];
    const kept = stamps.filter((stamp) => stamp > at - windowMs);
    if (kept.length === 0) attempts.delete(key);
    else if (kept.length !== stamps.length) attempts.set(key, kept);
    return kept;
  }

  function retryAfterAt(key: string, at: number): number {
    const stamps = recent(key, at);
    if (stamps.length < max) return 0;
    // Allowed again once enough of the oldest attempts have left the window to be under `max`.
    const freeing = stamps[stamps.length - max] ?? at;
    return Math.max(1, Math.ceil((freeing + windowMs - at) / 1000));
  }

  function recordAt(key: string, at: number): void {
    const stamps = recent(key, at);
    attempts.delete(key);
    attempts.set(key, [...stamps, at]);
    while (attempts.size > maxKeys) {
      const oldest = attempts.keys().next().value;
      if (oldest === undefined) break;
      attempts.delete(oldest);
    }
  }

  return {
    retryAfterSeconds: (key) => retryAfterAt(key, now()),
    record: (key) => recordAt(key, now()),
    consume(key) {
      const at = now();
      const wait = retryAfterAt(key, at);
      if (wait === 0) recordAt(key, at);
      return wait;
    },
    reset(key) {
      attempts.delete(key);
    },
    size: () => attempts.size,
  };
}
