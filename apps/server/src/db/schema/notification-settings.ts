import type { NotificationSettings } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, smallint, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The administrators' notification settings: one row (id 1), the values as JSON so a new
 * setting needs no migration. Readers overlay NOTIFICATION_SETTINGS_DEFAULTS, so a missing row
 * or key means the default.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    id: smallint().primaryKey().default(1),
    settings: jsonb().$type<Partial<NotificationSettings>>().notNull().default({}),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [check('notification_settings_single_row', sql`${table.id} = 1`)],
);

export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;
