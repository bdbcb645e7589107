import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const FLAG_SOURCES = ['env', 'admin'] as const;
export type FlagSource = (typeof FLAG_SOURCES)[number];

/**
 * Only flags that differ from the product spec's defaults need a row; the effective value is
 * the default overlaid with the row. `source` tells whether FEATURE_FLAGS or an admin set it.
 */
export const featureFlags = pgTable(
  'feature_flags',
  {
    key: text().primaryKey(),
    enabled: boolean().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    source: text().$type<FlagSource>().notNull(),
  },
  (table) => [check('feature_flags_source_check', sql`${table.source} in ('env', 'admin')`)],
);

export type FeatureFlagRow = typeof featureFlags.$inferSelect;
