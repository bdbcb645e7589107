import type { BLOOD_REQUEST_ACTOR_ROLES, LOCATION_SOURCES } from '@bdms/shared';
import { BLOOD_REQUEST_STATUSES, BLOOD_TYPES, MATCH_RESPONSES, URGENCIES } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { donations } from './donors';
import { hospitals } from './hospitals';
import { users } from './users';
import { facilities } from './facilities';

const inList = (values: readonly string[]) =>
  sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * Emergency blood requests (API.md "Blood requests"). Made by anyone — `created_by` is null for
 * a guest, whose address is kept only as a keyed hash (`requester_ip_hash`) for rate limiting.
 * The point (`latitude`, `longitude`) comes from the facility, else the given point, else the
 * PIN code's centroid (`location_source`). `hospital_name_key` is the name normalised for the
 * duplicate guard. Requests are never hard-deleted: DELETE cancels. When the account that made a
 * request is erased, its contact phone and e-mail, the patient's name (and the contact name when
 * it was theirs) become null (features/users/privacy.service.ts).
 */
export const bloodRequests = pgTable(
  'blood_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    trackingCode: text().notNull().unique('blood_requests_tracking_code_unique'),
    status: text().$type<(typeof BLOOD_REQUEST_STATUSES)[number]>().notNull(),
    urgency: text().$type<(typeof URGENCIES)[number]>().notNull(),
    bloodType: text().$type<(typeof BLOOD_TYPES)[number]>().notNull(),
    unitsNeeded: integer().notNull(),
    patientName: text(),
    hospitalName: text().notNull(),
    hospitalNameKey: text().notNull(),
    facilityId: text().references(() => facilities.id, { onDelete: 'set null' }),
    /** The hospital account that made it, or the hospital of the facility it names. */
    hospitalId: uuid().references(() => hospitals.id, { onDelete: 'set null' }),
    city: text().notNull(),
    state: text().notNull(),
    address: text(),
    pincode: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    locationSource: text().$type<(typeof LOCATION_SOURCES)[number]>(),
    /** Null once the requester's account was erased (when the name was theirs). */
    contactName: text(),
    /** Null once the requester's account was erased. */
    contactPhone: text(),
    contactEmail: text(),
    /**
     * Whether the contact phone was confirmed with a code sent to it (issue #32 item 9): true once
     * confirmed; false when a code was needed but none could be sent (the number's or the
     * platform's daily codes spent) and the request went to review unconfirmed; null when no
     * code was asked (a hospital, an administrator, a verified account, no SMS provider).
     */
    contactPhoneConfirmed: boolean(),
    requiredBy: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    notes: text(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdByRole: text().$type<(typeof BLOOD_REQUEST_ACTOR_ROLES)[number]>().notNull(),
    requesterIpHash: text(),
    /** The requester's interface language; messages to the contact are en, es or hi (others: English). */
    language: text(),
    /** When the tracking link was last sent to the contact on file (a duplicate made by someone else). */
    trackingLinkSentAt: timestamp({ withTimezone: true }),
    /** The radius of the latest matching round (km); null before matching. */
    searchRadiusKm: doublePrecision(),
    matchRound: integer().notNull().default(0),
    lastMatchedAt: timestamp({ withTimezone: true }),
    verifiedAt: timestamp({ withTimezone: true }),
    fulfilledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
    /**
     * Demo data (the `mockData` flag, docs/decisions/010-demo-data.md): a synthetic request. Never
     * matched with donors and never messages its contact.
     */
    isDemo: boolean().notNull().default(false),
  },
  (table) => [
    index('blood_requests_status_expires_idx').on(table.status, table.expiresAt),
    index('blood_requests_status_matched_idx').on(table.status, table.lastMatchedAt),
    index('blood_requests_contact_phone_created_idx').on(table.contactPhone, table.createdAt),
    index('blood_requests_created_by_idx').on(table.createdBy),
    index('blood_requests_facility_idx').on(table.facilityId),
    index('blood_requests_hospital_idx').on(table.hospitalId),
    index('blood_requests_created_at_idx').on(table.createdAt),
    check(
      'blood_requests_status_check',
      sql`${table.status} in (${inList(BLOOD_REQUEST_STATUSES)})`,
    ),
    check('blood_requests_urgency_check', sql`${table.urgency} in (${inList(URGENCIES)})`),
    check('blood_requests_blood_type_check', sql`${table.bloodType} in (${inList(BLOOD_TYPES)})`),
    check('blood_requests_units_check', sql`${table.unitsNeeded} between 1 and 10`),
  ],
);

export type BloodRequestRow = typeof bloodRequests.$inferSelect;
export type NewBloodRequestRow = typeof bloodRequests.$inferInsert;

/** Every status change, with who made it (null: a guest or the server) and why. */
export const bloodRequestHistory = pgTable(
  'blood_request_history',
  {
    id: uuid().primaryKey().defaultRandom(),
    requestId: uuid()
      .notNull()
      .references(() => bloodRequests.id, { onDelete: 'cascade' }),
    status: text().$type<(typeof BLOOD_REQUEST_STATUSES)[number]>().notNull(),
    notes: text(),
    by: uuid().references(() => users.id, { onDelete: 'set null' }),
    byRole: text().$type<(typeof BLOOD_REQUEST_ACTOR_ROLES)[number]>().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('blood_request_history_request_at_idx').on(table.requestId, table.at)],
);

export type BloodRequestHistoryRow = typeof bloodRequestHistory.$inferSelect;

/**
 * Donors told about a request: one row per donor and request (a donor is never told twice, and
 * one who declined is never asked again). `round` is the matching round (1 = first radius);
 * `notified_at` also feeds the fairness cap (alerts per donor per 7 days).
 */
export const bloodRequestMatches = pgTable(
  'blood_request_matches',
  {
    id: uuid().primaryKey().defaultRandom(),
    requestId: uuid()
      .notNull()
      .references(() => bloodRequests.id, { onDelete: 'cascade' }),
    donorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    distanceKm: doublePrecision(),
    exactType: boolean().notNull(),
    round: integer().notNull(),
    notifiedAt: timestamp({ withTimezone: true }).notNull(),
    response: text().$type<(typeof MATCH_RESPONSES)[number]>(),
    respondedAt: timestamp({ withTimezone: true }),
    /** The donation recorded against this request for this donor. */
    donationId: uuid().references(() => donations.id, { onDelete: 'set null' }),
    donatedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('blood_request_matches_request_donor_unique').on(table.requestId, table.donorId),
    index('blood_request_matches_donor_notified_idx').on(table.donorId, table.notifiedAt),
    check(
      'blood_request_matches_response_check',
      sql`${table.response} is null or ${table.response} in (${inList(MATCH_RESPONSES)})`,
    ),
  ],
);

export type BloodRequestMatchRow = typeof bloodRequestMatches.$inferSelect;
