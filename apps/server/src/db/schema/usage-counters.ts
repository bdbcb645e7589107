import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Counters shared by every server process (lib/usage-counter): how much of a budget was used in
 * one fixed time window, e.g. the bytes all anonymous browsers reported in one minute, or the
 * Critical-request e-mails one administrator got in ten minutes. A row per key and window;
 * windows long past are deleted by the writers.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    used: integer().notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

export type UsageCounterRow = typeof usageCounters.$inferSelect;
