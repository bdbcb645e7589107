import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The audit trail admins read (API.md "Admin": recent activity). Rows outlive their actor, so
 * the actor reference is cleared rather than cascading; `target_id` is text because targets
 * are not all uuids (a flag's key, a tracking code).
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: uuid().primaryKey().defaultRandom(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    actorRole: text(),
    action: text().notNull(),
    targetType: text(),
    targetId: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    requestId: text(),
  },
  (table) => [
    index('activity_log_at_idx').on(table.at),
    // A donor's activity (admin details, the donor's own list) is read by target.
    index('activity_log_target_idx').on(table.targetType, table.targetId, table.at),
  ],
);

export type ActivityLogRow = typeof activityLog.$inferSelect;
export type NewActivityLogRow = typeof activityLog.$inferInsert;
