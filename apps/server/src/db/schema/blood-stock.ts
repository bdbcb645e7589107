import type { BloodComponent, BloodType, StockChange } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { facilities } from './facilities';
import { users } from './users';

/**
 * What a blood centre (a directory facility with a verified account) holds: one row per blood
 * group and component. `updated_at` is when the centre last confirmed the figure (a "nothing
 * changed" tap refreshes it); older than 24 hours it is stale and never counted as available.
 * The availability search reads (component, blood_type) rows with units, fresh first.
 */
export const bloodStock = pgTable(
  'blood_stock',
  {
    facilityId: text()
      .notNull()
      .references(() => facilities.id, { onDelete: 'cascade' }),
    bloodType: text().$type<BloodType>().notNull(),
    component: text().$type<BloodComponent>().notNull(),
    units: integer().notNull(),
    /** Of `units`, how many expire within 3 days; null when the centre does not say. */
    expiringUnits: integer(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    updatedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    /**
     * Demo data (the `mockData` flag, docs/decisions/010-demo-data.md): a synthetic figure. A centre's
     * own update of the line replaces it and clears the mark.
     */
    isDemo: boolean().notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.facilityId, table.bloodType, table.component] }),
    index('blood_stock_available_idx')
      .on(table.component, table.bloodType, table.updatedAt)
      .where(sql`${table.units} > 0`),
  ],
);

export type BloodStockRow = typeof bloodStock.$inferSelect;

/**
 * Every stock submission, with who and when: `updated` lists the lines whose figures changed,
 * `confirmed` ("nothing changed") has none. Rows outlive their author (actor set null).
 */
export const bloodStockUpdates = pgTable(
  'blood_stock_updates',
  {
    id: uuid().primaryKey().defaultRandom(),
    facilityId: text()
      .notNull()
      .references(() => facilities.id, { onDelete: 'cascade' }),
    kind: text().$type<'updated' | 'confirmed'>().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    changes: jsonb().$type<StockChange[]>().notNull().default([]),
  },
  (table) => [index('blood_stock_updates_facility_at_idx').on(table.facilityId, table.at)],
);

export type BloodStockUpdateRow = typeof bloodStockUpdates.$inferSelect;
