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
    /**
     * `verified` (invited by an administrator, or checked by one), `pending` (registered itself,
     * waiting for an administrator) or `rejected`. Only a verified, enabled account may act.
     */
    verificationStatus: text()
      .$type<'pending' | 'verified' | 'rejected'>()
      .notNull()
      .default('verified'),
    /** `invitation` (an administrator created it) or `self` (hospitalRegistration). */
    registeredVia: text().$type<'invitation' | 'self'>().notNull().default('invitation'),
    /** The blood bank licence number (Drugs and Cosmetics Rules, Form 28-C) as given. */
    licenceNumber: text(),
    /** The person who registered it (a real person, not a role address). */
    contactName: text(),
    emailConfirmedAt: timestamp({ withTimezone: true }),
    /** Null until a code sent by SMS is entered (no SMS provider: confirmed later). */
    phoneConfirmedAt: timestamp({ withTimezone: true }),
    verifiedAt: timestamp({ withTimezone: true }),
    verifiedBy: uuid(),
    rejectionReason: text(),
    /** When the centre was last reminded to update its stock (once per lapse of 3 days). */
    stockRemindedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('hospitals_created_at_idx').on(table.createdAt),
    index('hospitals_facility_id_idx').on(table.facilityId),
  ],
);

export type HospitalRow = typeof hospitals.$inferSelect;
export type NewHospitalRow = typeof hospitals.$inferInsert;
