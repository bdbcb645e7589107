import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { usageCounters } from '../db/schema';

export interface UsageWindow {
  /** The total used in the window, this use included. */
  used: number;
  windowStart: Date;
  windowEnd: Date;
}

/** The fixed window of `windowMs` that holds `at` (windows start at multiples of windowMs). */
export function windowOf(at: number, windowMs: number): { start: Date; end: Date } {
  const start = Math.floor(at / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

/** Whole seconds until `end`, at least 1 (for Retry-After). */
export function secondsUntil(end: Date, at: number): number {
  return Math.max(1, Math.ceil((end.getTime() - at) / 1000));
}

/**
 * Budgets shared by every server process: a counter per key and fixed time window in
 * PostgreSQL (`usage_counters`), incremented with one atomic upsert, so two processes adding at
 * once both see the sum. Pass a transaction as `db` to make the use part of it (rolled back
 * with it). A key's earlier windows are deleted when its next window begins.
 */
export function createUsageCounter(db: Db) {
  return {
    async add(key: string, amount: number, windowMs: number, at: number): Promise<UsageWindow> {
      const { start, end } = windowOf(at, windowMs);
      const [row] = await db
        .insert(usageCounters)
        .values({ key, windowStart: start, used: amount })
        .onConflictDoUpdate({
          target: [usageCounters.key, usageCounters.windowStart],
          set: { used: sql`${usageCounters.used} + ${amount}` },
        })
        .returning({ used: usageCounters.used });
      const used = row?.used ?? amount;
      if (used === amount) {
        // The first use of this window: the key's past windows are of no further use.
        await db
          .delete(usageCounters)
          .where(and(eq(usageCounters.key, key), lt(usageCounters.windowStart, start)));
      }
      return { used, windowStart: start, windowEnd: end };
    },
  };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;
