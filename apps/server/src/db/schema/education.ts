import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
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

/**
 * The public content of apps/server/content (its README describes the files), loaded at start
 * by features/education/education.loader.ts. Rows are matched by slug (articles, categories,
 * pages) or id (FAQs) and rewritten only when `content_hash` (SHA-256 of the parsed entry)
 * changes; counters (views, downloads, helpful votes) belong to the database and are never
 * touched by a load. An entry removed from the files gets `unpublished_at` and disappears from
 * the API; it comes back, counters intact, if it is restored.
 */

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const educationCategories = pgTable('education_categories', {
  slug: text().primaryKey(),
  name: text().notNull(),
  description: text().notNull(),
  /** Position in categories.yml: the education page's order. */
  sortOrder: integer().notNull(),
  contentHash: text().notNull(),
  unpublishedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type EducationCategoryRow = typeof educationCategories.$inferSelect;

export interface ContentSourceValue {
  title: string;
  url: string;
}

export const educationContent = pgTable(
  'education_content',
  {
    id: uuid().primaryKey().defaultRandom(),
    slug: text().notNull().unique(),
    title: text().notNull(),
    summary: text().notNull(),
    /** A slug of education_categories (no foreign key: a load replaces both sides at once). */
    category: text().notNull(),
    /** Markdown. */
    body: text().notNull(),
    sources: jsonb().$type<ContentSourceValue[]>().notNull(),
    readingMinutes: integer().notNull(),
    publishedAt: date({ mode: 'string' }).notNull(),
    featured: boolean().notNull().default(false),
    views: integer().notNull().default(0),
    downloads: integer().notNull().default(0),
    contentHash: text().notNull(),
    unpublishedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * Full-text search (English stemming), weighted title > summary > body; kept by PostgreSQL
     * and served by the GIN index below.
     */
    search: tsvector().generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce("summary", '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("body", '')), 'C')`,
    ),
  },
  (table) => [
    index('education_content_search_idx').using('gin', table.search),
    index('education_content_category_idx').on(table.category),
    index('education_content_published_at_idx').on(table.publishedAt),
    check('education_content_counts_check', sql`${table.views} >= 0 and ${table.downloads} >= 0`),
  ],
);

export type EducationContentRow = typeof educationContent.$inferSelect;

export const faqs = pgTable(
  'faqs',
  {
    /** The id written in faqs.yml, never reused. */
    id: text().primaryKey(),
    question: text().notNull(),
    answer: text().notNull(),
    category: text().notNull(),
    helpfulCount: integer().notNull().default(0),
    notHelpfulCount: integer().notNull().default(0),
    /** Position in faqs.yml: the help centre's order. */
    sortOrder: integer().notNull(),
    contentHash: text().notNull(),
    unpublishedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('faqs_category_sort_order_idx').on(table.category, table.sortOrder),
    check('faqs_counts_check', sql`${table.helpfulCount} >= 0 and ${table.notHelpfulCount} >= 0`),
  ],
);

export type FaqRow = typeof faqs.$inferSelect;

/** The privacy policy and the terms of service; `{{supportEmail}}` is filled in when served. */
export const pages = pgTable('pages', {
  slug: text().primaryKey(),
  title: text().notNull(),
  summary: text().notNull(),
  version: text().notNull(),
  updated: date({ mode: 'string' }).notNull(),
  body: text().notNull(),
  contentHash: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type PageRow = typeof pages.$inferSelect;

/**
 * Translations of the public content (content/<file>.<language>.*), one row per entry and
 * language, loaded with the English by education.loader.ts. Each entry falls back to English on
 * its own: a missing row means the English is served, marked `language: 'en'`. Counters stay on
 * the English row (a view of the Hindi text is a view of the article). `kind` names the entry:
 *
 * | kind      | key        | title     | summary  | body   |
 * | --------- | ---------- | --------- | -------- | ------ |
 * | `article` | its slug   | title     | summary  | body   |
 * | `faq`     | its id     | question  | ''       | answer |
 * | `page`    | its slug   | title     | summary  | body   |
 *
 * Removed from the files, a translation is deleted (nothing to keep: the English takes over).
 */
export const contentTranslations = pgTable(
  'content_translations',
  {
    kind: text().notNull(),
    key: text().notNull(),
    /** A served language other than English: `es`, `hi` (TRANSLATED_LANGUAGES). */
    language: text().notNull(),
    title: text().notNull(),
    summary: text().notNull().default(''),
    /** Markdown. */
    body: text().notNull(),
    /** Articles: the sources with translated titles (same addresses, same order). */
    sources: jsonb().$type<ContentSourceValue[]>(),
    /** Articles: the reading time of this text, when its writer gave one. */
    readingMinutes: integer(),
    contentHash: text().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * Full-text search of the translation, weighted title > summary > body. Spanish is stemmed;
     * Hindi uses the 'simple' configuration (PostgreSQL has no Hindi stemmer): whole words,
     * lower-cased, no stop words removed. Served by the GIN index below.
     */
    search: tsvector().generatedAlwaysAs(
      sql`case "language" when 'es' then setweight(to_tsvector('spanish'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('spanish'::regconfig, coalesce("summary", '')), 'B') || setweight(to_tsvector('spanish'::regconfig, coalesce("body", '')), 'C') else setweight(to_tsvector('simple'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('simple'::regconfig, coalesce("summary", '')), 'B') || setweight(to_tsvector('simple'::regconfig, coalesce("body", '')), 'C') end`,
    ),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.key, table.language] }),
    index('content_translations_search_idx').using('gin', table.search),
    check('content_translations_kind_check', sql`${table.kind} in ('article', 'faq', 'page')`),
    check('content_translations_language_check', sql`${table.language} in ('es', 'hi')`),
  ],
);

export type ContentTranslationRow = typeof contentTranslations.$inferSelect;

/**
 * Messages sent with the contact form, also e-mailed to SUPPORT_EMAIL. The sender's address is
 * personal data: it is stored here and in the e-mail's Reply-To, never logged. `ip_hash` is an
 * HMAC of the client address (for abuse handling without keeping the address itself).
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    ipHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('contact_messages_created_at_idx').on(table.createdAt)],
);

export type ContactMessageRow = typeof contactMessages.$inferSelect;
