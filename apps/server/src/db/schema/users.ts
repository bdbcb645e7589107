import { DONOR_STATUSES, ROLES } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { hospitals } from './hospitals';

const inList = (values: readonly string[]) =>
  sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * Every account: donors, hospital staff and administrators. E-mail is stored lower-cased so the
 * plain unique index is case-insensitive in effect; phone is E.164. Soft-deleted rows keep
 * `deleted_at` so donation counts survive an erasure (API.md "Users").
 */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull().unique(),
    passwordHash: text().notNull(),
    role: text().$type<(typeof ROLES)[number]>().notNull(),
    status: text().$type<(typeof DONOR_STATUSES)[number]>().notNull().default('pending'),
    fullName: text().notNull(),
    phone: text().unique(),
    /**
     * When a code sent by SMS to `phone` was confirmed (registration, a phone change); null: not
     * verified. Cleared whenever the phone changes without a code (an administrator's edit).
     */
    phoneVerifiedAt: timestamp({ withTimezone: true }),
    bloodType: text(),
    gender: text(),
    dateOfBirth: date({ mode: 'string' }),
    // Nullable: administrators have no address; the register contract requires them for donors.
    city: text(),
    state: text(),
    pincode: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    available: boolean().notNull().default(false),
    language: text().notNull().default('en'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
    deletedAt: timestamp({ withTimezone: true }),
    lastLoginAt: timestamp({ withTimezone: true }),
    /**
     * Carried in every access token (`ver`); a token with an older value is refused. Raised by a
     * password change or reset (and later a suspension), so stolen access tokens die with the
     * refresh tokens instead of living out their hour.
     */
    tokenVersion: integer().notNull().default(0),
    /**
     * The latest known whole-blood donation: recorded, reported, or answered in the
     * questionnaire. Denormalised from `donations` so matching can hide the donor cheaply.
     */
    lastDonationAt: timestamp({ withTimezone: true }),
    /** Availability lapses AVAILABILITY_TTL_DAYS after it was last confirmed. */
    availabilityConfirmedAt: timestamp({ withTimezone: true }),
    /** The last day (inclusive) the donor said they are available; null: open-ended. */
    availableUntil: date({ mode: 'string' }),
    /** When the "confirm your availability" reminder went out for the current confirmation. */
    availabilityRemindedAt: timestamp({ withTimezone: true }),
    /**
     * The `last_donation_at` whose "you can give blood again" notification went out (issue #18):
     * one per eligibility; a newer donation makes the donor due again.
     */
    eligibilityRemindedFor: timestamp({ withTimezone: true }),
    /** Set when onboarding became complete (admins were told); cleared on resubmission. */
    onboardingCompletedAt: timestamp({ withTimezone: true }),
    /** Shown to the donor while status is rejected / suspended (set by the admin feature). */
    rejectionReason: text(),
    suspensionReason: text(),
    /** Hospital accounts: the hospital this user signs in for. */
    hospitalId: uuid().references(() => hospitals.id, { onDelete: 'set null' }),
    /**
     * Referrals (feature flag referralSystem): the donor's own invitation code (made on first
     * use), who invited this donor, whether the invitee agreed to be named to them, and a keyed
     * hash of the address the account was registered from (abuse clusters; never the address).
     */
    referralCode: text().unique('users_referral_code_unique'),
    referredBy: uuid().references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    referralShared: boolean().notNull().default(false),
    registrationAddressHash: text(),
    /**
     * Demo data (the `mockData` flag, docs/decisions/010-demo-data.md): a synthetic donor. Never
     * matched, never sent anything, removed by `npm run demo:remove`.
     */
    isDemo: boolean().notNull().default(false),
  },
  (table) => [
    index('users_role_status_idx').on(table.role, table.status),
    // Matching (blood requests): approved donors by blood type inside a latitude/longitude box,
    // and donors without a point of their own by PIN code (placed at its centroid).
    index('users_role_status_blood_type_idx').on(table.role, table.status, table.bloodType),
    index('users_lat_lng_idx').on(table.latitude, table.longitude),
    // The box is a range on blood type and latitude, longitude checked in the index; the other
    // columns the candidate query reads are keys too, so the box is read from the index alone
    // (an index-only scan: no visit to the users table for the thousands of donors of a city).
    index('users_donor_geo_idx')
      .on(
        table.bloodType,
        table.latitude,
        table.longitude,
        table.id,
        table.role,
        table.status,
        table.gender,
        table.available,
        table.availabilityConfirmedAt,
        table.availableUntil,
        table.lastDonationAt,
      )
      .where(
        sql`${table.role} = 'donor' and ${table.status} = 'approved' and ${table.deletedAt} is null and not ${table.isDemo}`,
      ),
    index('users_donor_pincode_idx')
      .on(table.pincode)
      .where(sql`${table.latitude} is null`),
    // The donor export reads donors in (created_at, id) order, a batch at a time.
    index('users_role_created_at_id_idx').on(table.role, table.createdAt, table.id),
    index('users_hospital_id_idx').on(table.hospitalId),
    index('users_referred_by_idx')
      .on(table.referredBy)
      .where(sql`${table.referredBy} is not null`),
    index('users_registration_address_idx')
      .on(table.registrationAddressHash)
      .where(sql`${table.registrationAddressHash} is not null`),
    // Demo rows are few and found by this flag alone (presence, removal).
    index('users_demo_idx')
      .on(table.isDemo)
      .where(sql`${table.isDemo}`),
    check('users_role_check', sql`${table.role} in (${inList(ROLES)})`),
    check('users_status_check', sql`${table.status} in (${inList(DONOR_STATUSES)})`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
