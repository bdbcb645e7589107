import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Hospital accounts' organisations. Each has its sign-in user (`users.hospital_id`), created by
 * an administrator with an e-mailed set-password link. `disabled_at` set: its users cannot sign
 * in. `facility_id` points at the blood bank directory, which comes later: no foreign key yet.
 */
export const hospitals = pgTable(
  'hospitals',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    facilityId: text(),
    city: text().notNull(),
    state: text().notNull(),
    phone: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('hospitals_created_at_idx').on(table.createdAt)],
);

export type HospitalRow = typeof hospitals.$inferSelect;
export type NewHospitalRow = typeof hospitals.$inferInsert;
