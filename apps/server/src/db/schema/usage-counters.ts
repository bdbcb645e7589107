import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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

/**
 * The state of every request limit when several instances share PostgreSQL (lib/limit-store.ts):
 * the per-address hits of @fastify/rate-limit (`{"count": n}`, reset at `expires_at`) and the
 * per-account limiters (sliding window stamps, backoff state). Read and written under a row
 * lock, so two instances never both take the last attempt. Rows past `expires_at` mean nothing
 * and are deleted by a periodic sweep.
 */
export const limitStates = pgTable(
  'limit_states',
  {
    key: text().primaryKey(),
    state: jsonb().$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('limit_states_expires_at_idx').on(table.expiresAt)],
);
