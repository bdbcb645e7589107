import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { bloodRequests } from './blood-requests';
import { users } from './users';

/**
 * Sessions. The opaque refresh token (32 random bytes, base64url) is held only by the client;
 * the table keeps its SHA-256, so a copy of the database signs nobody in. Refresh does not
 * rotate it (API.md "Tokens and sessions"); logout, a password change or reset revoke it.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique('refresh_tokens_token_hash_unique'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    revokedReason: text(),
    userAgent: text(),
    ip: text(),
  },
  (table) => [index('refresh_tokens_user_id_idx').on(table.userId)],
);

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

export const ONE_TIME_CODE_PURPOSES = [
  'login',
  'phone_change',
  'phone_verification',
  'request_confirmation',
  /** A self-registered hospital's official e-mail address (issue #17), mailed. */
  'email_confirmation',
] as const;
export type OneTimeCodePurpose = (typeof ONE_TIME_CODE_PURPOSES)[number];

/**
 * One-time codes: sign-in codes (`login`, mailed, or sent by SMS to a verified phone: then
 * `phone` holds it), the code sent to a new phone number before it replaces the old one
 * (`phone_change`, with the new number in `phone`), the code confirming the account's phone
 * (`phone_verification`) and the code confirming a guest's blood request (`request_confirmation`:
 * no user, `blood_request_id` set, `phone` the contact phone). `code_hash`
 * is an HMAC keyed with the server secret: six digits have only a million values, so a plain
 * hash would be reversed at once from a leaked table.
 *
 * A sign-in code is usable while unconsumed and unexpired. Tries are counted in two budgets of
 * OTP_MAX_ATTEMPTS: `attempts` for tries from the client address that asked for the code
 * (`requested_from`, an HMAC of it), `foreign_attempts` for tries from anywhere else. Someone who
 * knows the e-mail address can thus waste only the foreign budget, never the owner's, and a new
 * request no longer voids the code mailed just before (issue #14).
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Null only for `request_confirmation`. */
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    /** `request_confirmation`: the guest's request the code confirms. */
    bloodRequestId: uuid().references(() => bloodRequests.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    purpose: text().$type<OneTimeCodePurpose>().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
    /** Tries from another client address than `requested_from` (sign-in codes). */
    foreignAttempts: integer().notNull().default(0),
    /** HMAC of the client address that asked for the code; null: every try is the owner's. */
    requestedFrom: text(),
    /** `phone_change`: the new number (E.164), applied when the code is confirmed. */
    phone: text(),
    consumedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('one_time_codes_user_purpose_idx').on(table.userId, table.purpose),
    index('one_time_codes_blood_request_idx').on(table.bloodRequestId),
    check(
      'one_time_codes_purpose_check',
      sql`${table.purpose} in (${sql.raw(ONE_TIME_CODE_PURPOSES.map((p) => `'${p}'`).join(', '))})`,
    ),
    // A request's code belongs to the request; every other code to an account.
    check(
      'one_time_codes_owner_check',
      sql`case when ${table.purpose} = 'request_confirmation' then ${table.bloodRequestId} is not null and ${table.userId} is null else ${table.userId} is not null and ${table.bloodRequestId} is null end`,
    ),
  ],
);

export type OneTimeCodeRow = typeof oneTimeCodes.$inferSelect;

export const RESET_TOKEN_PURPOSES = ['reset', 'invitation'] as const;
export type ResetTokenPurpose = (typeof RESET_TOKEN_PURPOSES)[number];

/**
 * Set-password links: SHA-256 of a 32-byte random token, single use. `reset`: a forgotten
 * password, 1 hour; `invitation`: a new hospital account's first password, 72 hours.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique('password_reset_tokens_token_hash_unique'),
    purpose: text().$type<ResetTokenPurpose>().notNull().default('reset'),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('password_reset_tokens_user_id_idx').on(table.userId),
    check('password_reset_tokens_purpose_check', sql`${table.purpose} in ('reset', 'invitation')`),
  ],
);

export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;

/** What a donor agreed to at registration, with the notice's version (DPDP Act record-keeping). */
export const consentRecords = pgTable(
  'consent_records',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: text().notNull(),
    purposes: jsonb().$type<string[]>().notNull(),
    agreedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ip: text(),
    userAgent: text(),
  },
  (table) => [index('consent_records_user_id_idx').on(table.userId)],
);

export type ConsentRecordRow = typeof consentRecords.$inferSelect;

/**
 * Replies of POSTs that create something, keyed by the client's X-Request-ID and the route, so
 * a retry returns the first result (API.md "Conventions"). `request_hash` ties the key to the
 * body: the same id with another body is refused instead of answered with someone's result.
 * Rows are pruned after a day.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text().notNull(),
    route: text().notNull(),
    requestHash: text().notNull(),
    /** null while the first request is still running. */
    statusCode: integer(),
    body: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.route] }),
    index('idempotency_keys_created_at_idx').on(table.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/**
 * Per-day counters shared by every server process (the in-memory limiters count per process):
 * sign-in codes mailed per e-mail address, phone changes asked for per account. `day` is the
 * calendar day in India (Asia/Kolkata), so the count starts again at midnight IST. Rows of past
 * days are pruned.
 */
export const dailyCounters = pgTable(
  'daily_counters',
  {
    /** `<purpose>:<subject>`; subjects that are personal (e-mail addresses) are HMACs. */
    key: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    count: integer().notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.day] }),
    index('daily_counters_day_idx').on(table.day),
  ],
);
