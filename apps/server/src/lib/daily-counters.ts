import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dailyCounters } from '../db/schema';

// India Standard Time is UTC+05:30 all year (no daylight saving since 1945), so a fixed offset
// gives the calendar day in Asia/Kolkata exactly.
const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day in India (YYYY-MM-DD) at `ms`. */
export function indiaDay(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** Milliseconds since the epoch of the next midnight in India after `ms`. */
export function nextIndiaMidnight(ms: number): number {
  return Date.parse(`${indiaDay(ms)}T00:00:00Z`) - IST_OFFSET_MS + DAY_MS;
}

export interface DailyTake {
  allowed: boolean;
  /** Seconds until the count starts again (next midnight in India); 0 when allowed. */
  retryAfterSeconds: number;
  /** The count today after this take (when allowed; the cap when not). */
  count: number;
}

/**
 * Caps of "at most N per day" kept in PostgreSQL, so every server process shares them. Taking one
 * is a single upsert that raises the count only while it is below the cap: parallel requests
 * wait on the row and cannot get past it together.
 */
export function createDailyCounters(db: Db, now: () => number = Date.now) {
  return {
    async take(key: string, max: number, tx: Db = db): Promise<DailyTake> {
      const at = now();
      const day = indiaDay(at);
      const refused = () => ({
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((nextIndiaMidnight(at) - at) / 1000)),
        count: max,
      });
      // A cap of 0 (a budget set to nothing): the first insert below would count 1 past it.
      if (max <= 0) return refused();
      const [row] = await tx
        .insert(dailyCounters)
        .values({ key, day, count: 1 })
        .onConflictDoUpdate({
          target: [dailyCounters.key, dailyCounters.day],
          set: { count: sql`${dailyCounters.count} + 1` },
          setWhere: sql`${dailyCounters.count} < ${max}`,
        })
        .returning({ count: dailyCounters.count });
      if (!row) return refused();
      // The first count of a key today: a good moment to forget the days before yesterday.
      if (row.count === 1) {
        await tx.delete(dailyCounters).where(lt(dailyCounters.day, indiaDay(at - DAY_MS)));
      }
      return { allowed: true, retryAfterSeconds: 0, count: row.count };
    },

    async count(key: string): Promise<number> {
      const [row] = await db
        .select({ count: dailyCounters.count })
        .from(dailyCounters)
        .where(sql`${dailyCounters.key} = ${key} and ${dailyCounters.day} = ${indiaDay(now())}`);
      return row?.count ?? 0;
    },
  };
}

export type DailyCounters = ReturnType<typeof createDailyCounters>;
