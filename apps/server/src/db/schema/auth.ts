import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
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

export const ONE_TIME_CODE_PURPOSES = ['login'] as const;
export type OneTimeCodePurpose = (typeof ONE_TIME_CODE_PURPOSES)[number];

/**
 * E-mailed sign-in codes. `code_hash` is an HMAC keyed with the server secret: six digits have
 * only a million values, so a plain hash would be reversed at once from a leaked table.
 * A code is usable while unconsumed, unexpired and tried fewer than OTP_MAX_ATTEMPTS times; a
 * new request consumes (voids) the previous ones.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    purpose: text().$type<OneTimeCodePurpose>().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
    consumedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('one_time_codes_user_purpose_idx').on(table.userId, table.purpose),
    check('one_time_codes_purpose_check', sql`${table.purpose} in ('login')`),
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
