import type { PlaceConfidence } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * The blood bank directory (apps/server/data/blood-banks-india.csv), loaded at start by the
 * facilities loader with the cleaning rules of apps/server/data/README.md. `id` is `bb-<Sr No>`,
 * stable across reloads. `search` (name, city, district, state, lower-cased) carries a trigram
 * index (pg_trgm) for misspelling-tolerant search.
 */
export const facilities = pgTable(
  'facilities',
  {
    id: text().primaryKey(),
    srNo: integer().notNull(),
    name: text().notNull(),
    category: text(),
    address: text(),
    city: text(),
    district: text(),
    state: text().notNull(),
    pincode: text(),
    phone: text(),
    mobile: text(),
    email: text(),
    website: text(),
    /** Null when the source has none or an unusable one. */
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    components: boolean(),
    apheresis: boolean(),
    serviceTime: text(),
    is24x7: boolean('is_24x7').notNull().default(false),
    /** The blood bank licence (Form 28-C) as the directory lists it ("License #"), and its dates as written. */
    licenceNumber: text(),
    licenceObtained: text(),
    licenceRenewed: text(),
    search: text().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('facilities_lat_lng_idx').on(table.latitude, table.longitude),
    index('facilities_state_district_idx').on(table.state, table.district),
    index('facilities_search_trgm_idx').using('gin', sql`${table.search} gin_trgm_ops`),
  ],
);

export type FacilityRow = typeof facilities.$inferSelect;
export type NewFacilityRow = typeof facilities.$inferInsert;

/**
 * PIN code → an approximate point, to place requests and donors (apps/server/data/README.md,
 * "PIN code points"). `confidence` says how far it can be trusted (`low`: the sources disagree,
 * searches widen), `source` where it came from.
 */
export const pincodes = pgTable(
  'pincodes',
  {
    pincode: text().primaryKey(),
    district: text(),
    state: text(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    /** `high`, `medium` or `low` (PLACE_CONFIDENCES). */
    confidence: text().$type<PlaceConfidence>().notNull().default('medium'),
    /** `india-post`, `india-post-repaired`, `geonames`, `neighbouring-pins` or `blood-banks`. */
    source: text().notNull().default('india-post'),
  },
  (table) => [index('pincodes_lat_lng_idx').on(table.latitude, table.longitude)],
);

export type PincodeRow = typeof pincodes.$inferSelect;

/**
 * Place names → a point (apps/server/data/india-places.csv): India Post's office names and the
 * districts, so "Secunderabad" or "Koramangala" can stand for a PIN code. `key` is the name in
 * comparison form (placeKey: lower case, no punctuation), prefix-searchable; `id` is the row's
 * number in the file.
 */
export const places = pgTable(
  'places',
  {
    id: integer().primaryKey(),
    key: text().notNull(),
    name: text().notNull(),
    /** `office` (a post office's name) or `district`. */
    kind: text().notNull(),
    /** The office's PIN code; null for a district. */
    pincode: text(),
    district: text(),
    state: text(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    confidence: text().notNull(),
  },
  (table) => [index('places_key_idx').using('btree', sql`${table.key} text_pattern_ops`)],
);

export type PlaceRow = typeof places.$inferSelect;

/**
 * What the start-up loader last loaded, per data file: a start whose file has the same SHA-256
 * and the table the same row count skips the load.
 */
export const dataImports = pgTable('data_imports', {
  name: text().primaryKey(),
  sha256: text().notNull(),
  rowCount: integer().notNull(),
  importedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  durationMs: integer().notNull().default(0),
});

export type DataImportRow = typeof dataImports.$inferSelect;
