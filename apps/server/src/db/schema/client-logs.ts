import { check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users';

/**
 * What the web app's logger sent from people's browsers (features/client-logs): errors, warnings
 * and performance measurements, read by administrators. Deleted after 30 days. The sender's
 * address is kept only as a keyed hash (to see that many entries came from one place).
 */
export const clientLogs = pgTable(
  'client_logs',
  {
    id: uuid().primaryKey().defaultRandom(),
    level: text({ enum: ['debug', 'info', 'warn', 'error'] }).notNull(),
    message: text().notNull(),
    category: text(),
    url: text(),
    stack: text(),
    context: jsonb().$type<Record<string, unknown>>(),
    sessionId: text(),
    clientVersion: text(),
    userAgent: text(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    ipHash: text().notNull(),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('client_logs_received_at_idx').on(table.receivedAt),
    index('client_logs_level_received_at_idx').on(table.level, table.receivedAt),
    check('client_logs_level_check', sql`${table.level} in ('debug', 'info', 'warn', 'error')`),
  ],
);

export type ClientLogRow = typeof clientLogs.$inferSelect;
