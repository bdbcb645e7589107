import { and, eq, lt, or, sql } from 'drizzle-orm';
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
export interface UsageAdd {
  key: string;
  amount: number;
  windowMs: number;
  at: number;
}

export function createUsageCounter(db: Db) {
  /**
   * Several keys' uses in one upsert (and at most one delete), however many keys: a burst of
   * notifications counts every recipient's use in the same round trip (issue #20). Uses of the
   * same key and window are summed first (one row may be upserted once per statement). Returns
   * each use's window, in order; `used` is the window's total after the whole batch.
   */
  async function addMany(uses: readonly UsageAdd[]): Promise<UsageWindow[]> {
    const windows = uses.map((use) => ({ ...use, ...windowOf(use.at, use.windowMs) }));
    const rows = new Map<string, { key: string; windowStart: Date; used: number }>();
    const slot = (key: string, start: Date) => `${start.toISOString()} ${key}`;
    for (const use of windows) {
      const id = slot(use.key, use.start);
      const row = rows.get(id);
      if (row) row.used += use.amount;
      else rows.set(id, { key: use.key, windowStart: use.start, used: use.amount });
    }
    if (rows.size === 0) return [];
    // In key order: two batches sharing keys (two verifications alerting the same donors) then
    // lock their rows in the same order and cannot deadlock on PostgreSQL.
    const ordered = [...rows.values()].sort((a, b) =>
      a.key === b.key ? a.windowStart.getTime() - b.windowStart.getTime() : a.key < b.key ? -1 : 1,
    );
    const returned = await db
      .insert(usageCounters)
      .values(ordered)
      .onConflictDoUpdate({
        target: [usageCounters.key, usageCounters.windowStart],
        set: { used: sql`${usageCounters.used} + excluded.used` },
      })
      .returning({
        key: usageCounters.key,
        windowStart: usageCounters.windowStart,
        used: usageCounters.used,
      });
    const totals = new Map(returned.map((row) => [slot(row.key, row.windowStart), row.used]));
    // The first use of a window: the key's past windows are of no further use.
    const fresh = [...rows.entries()].filter(
      ([id, row]) => (totals.get(id) ?? row.used) === row.used,
    );
    if (fresh.length > 0) {
      await db
        .delete(usageCounters)
        .where(
          or(
            ...fresh.map(([, row]) =>
              and(eq(usageCounters.key, row.key), lt(usageCounters.windowStart, row.windowStart)),
            ),
          ),
        );
    }
    return windows.map((use) => {
      const id = slot(use.key, use.start);
      return {
        used: totals.get(id) ?? rows.get(id)!.used,
        windowStart: use.start,
        windowEnd: use.end,
      };
    });
  }

  return {
    addMany,

    async add(key: string, amount: number, windowMs: number, at: number): Promise<UsageWindow> {
      const [window] = await addMany([{ key, amount, windowMs, at }]);
      if (!window) throw new Error('usage counter returned no window');
      return window;
    },
  };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;
