import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Deferral, DocumentType, QuestionnaireAnswers } from '@bdms/shared';
import { users } from './users';

/**
 * Uploaded documents: the bytes live in `document_chunks` (issue #19: every instance reaches
 * them, and erasing the row erases them in the same transaction); this row holds the metadata.
 * `storage_name` is the random name the file had under `DATA_DIR/uploads/<user_id>/` before
 * (lib/uploads.ts moves such files into the table on start). One document per type
 * and donor: a new upload replaces a pending or rejected one. `file_name` is the sanitised
 * original name, kept only to name the download.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text().$type<DocumentType>().notNull(),
    fileName: text().notNull(),
    /** Detected from the content, never from the name or the client's claim. */
    mimeType: text().notNull(),
    size: integer().notNull(),
    storageName: text().notNull(),
    verified: boolean().notNull().default(false),
    rejectionReason: text(),
    verifiedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    verifiedAt: timestamp({ withTimezone: true }),
    uploadedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('documents_user_type_unique').on(table.userId, table.type),
    check(
      'documents_type_check',
      sql`${table.type} in ('id_proof', 'address_proof', 'medical_certificate', 'photo')`,
    ),
  ],
);

/** `bytea`, read and written as a Buffer by both drivers. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A document's bytes in order, in chunks of at most DOCUMENT_CHUNK_BYTES (lib/uploads.ts), so a
 * download streams them one at a time. Deleted with the document row (replacement, erasure).
 */
export const documentChunks = pgTable(
  'document_chunks',
  {
    documentId: uuid()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    seq: integer().notNull(),
    bytes: bytea().notNull(),
  },
  (table) => [primaryKey({ columns: [table.documentId, table.seq] })],
);

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocumentRow = typeof documents.$inferInsert;

/**
 * The health questionnaire: only what eligibility needs (never an Aadhaar number), the verdict
 * computed when it was submitted, and an administrator's review. Erased with the account.
 */
export const questionnaires = pgTable('questionnaires', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  answers: jsonb().$type<QuestionnaireAnswers>().notNull(),
  eligible: boolean().notNull(),
  nextEligibleAt: timestamp({ withTimezone: true }),
  deferrals: jsonb().$type<Deferral[]>().notNull().default([]),
  submittedAt: timestamp({ withTimezone: true }).notNull(),
  reviewDecision: text(),
  reviewNotes: text(),
  reviewedAt: timestamp({ withTimezone: true }),
  reviewedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  /**
   * Why an administrator must review these answers before the donor is matched again
   * (QUESTIONNAIRE_REVIEW_REASONS): a change to answers an administrator rejected, or a permanent
   * deferral removed. Null when no review is pending; the next review clears it.
   */
  reviewRequiredReason: text(),
});

export type QuestionnaireRow = typeof questionnaires.$inferSelect;

/**
 * Whole-blood donations: reported by the donor (unverified) or recorded by a hospital or an
 * administrator (verified, with a certificate number). Rows outlive an erased donor so counts
 * stay right; `blood_type` is a snapshot for the same reason. `request_id` and `facility_id`
 * point at features that come later, so they carry no foreign key yet.
 */
export const donations = pgTable(
  'donations',
  {
    id: uuid().primaryKey().defaultRandom(),
    donorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    donatedAt: timestamp({ withTimezone: true }).notNull(),
    units: integer().notNull().default(1),
    place: text().notNull(),
    facilityId: text(),
    requestId: uuid(),
    verified: boolean().notNull().default(false),
    verifiedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    certificateNumber: text().unique('donations_certificate_number_unique'),
    /** Recorded by a hospital for a donor who had not accepted one of its requests. */
    walkIn: boolean().notNull().default(false),
    bloodType: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * Demo data (the `mockData` flag, docs/decisions/010-demo-data.md): a synthetic donation of a
     * demo donor.
     */
    isDemo: boolean().notNull().default(false),
  },
  (table) => [
    index('donations_donor_donated_at_idx').on(table.donorId, table.donatedAt),
    check('donations_units_check', sql`${table.units} between 1 and 2`),
  ],
);

export type DonationRow = typeof donations.$inferSelect;
export type NewDonationRow = typeof donations.$inferInsert;
