import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  contentTranslations,
  educationCategories,
  educationContent,
  faqs,
  pages,
} from '../../db/schema';
import { queryAll } from '../../lib/query-all';
import type { TranslationRecord } from './content-translations';
import {
  readContent,
  type ArticleRecord,
  type CategoryRecord,
  type ContentSet,
  type FaqRecord,
  type PageRecord,
} from './education.content';

// Any fixed number (facilities use 727_401_002): servers starting together take turns loading.
const CONTENT_LOCK_KEY = 727_401_003;

export interface ContentLoadCounts {
  inserted: number;
  updated: number;
  /** Entries that left the files (articles, FAQs, categories), or pages deleted. */
  unpublished: number;
}

export interface ContentLoadResult {
  articles: number;
  faqs: number;
  categories: number;
  pages: number;
  /** Translated entries (an article, FAQ or page in one language each). */
  translations: number;
  /** Rows written; all zero when the database already matched the files. */
  written: ContentLoadCounts;
  warnings: string[];
  ms: number;
}

export interface ContentLoadOptions {
  /** Defaults to apps/server/content; tests pass fixtures. */
  directory?: string;
  logger?: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
  };
  now?: () => number;
}

interface Stored {
  key: string;
  contentHash: string;
  unpublished: boolean;
}

interface TableDiff<T> {
  insert: T[];
  update: T[];
  /** Keys of stored, published rows that are no longer in the files. */
  remove: string[];
}

function diff<T>(
  records: T[],
  keyOf: (record: T) => string,
  hashOf: (record: T) => string,
  stored: Stored[],
): TableDiff<T> {
  const byKey = new Map(stored.map((row) => [row.key, row]));
  const wanted = new Set(records.map(keyOf));
  const insert: T[] = [];
  const update: T[] = [];
  for (const record of records) {
    const row = byKey.get(keyOf(record));
    if (!row) insert.push(record);
    else if (row.contentHash !== hashOf(record) || row.unpublished) update.push(record);
  }
  const remove = stored
    .filter((row) => !row.unpublished && !wanted.has(row.key))
    .map((row) => row.key);
  return { insert, update, remove };
}

const isEmpty = (plan: TableDiff<unknown>) =>
  plan.insert.length === 0 && plan.update.length === 0 && plan.remove.length === 0;

interface Plan {
  categories: TableDiff<CategoryRecord>;
  articles: TableDiff<ArticleRecord>;
  faqs: TableDiff<FaqRecord>;
  pages: TableDiff<PageRecord>;
  translations: TableDiff<TranslationRecord>;
}

/** A translation's row key: its kind, entry and language. */
const translationKey = (record: Pick<TranslationRecord, 'kind' | 'key' | 'language'>) =>
  `${record.kind}:${record.key}:${record.language}`;

async function stored(
  db: Db,
  table: PgTable,
  key: PgColumn,
  hash: PgColumn,
  unpublished: PgColumn | null,
): Promise<Stored[]> {
  const rows = await db
    .select({
      key: sql<string>`${key}`,
      contentHash: sql<string>`${hash}`,
      unpublished: unpublished ? sql<boolean>`(${unpublished} is not null)` : sql<boolean>`false`,
    })
    .from(table);
  return rows.map((row) => ({ ...row, unpublished: Boolean(row.unpublished) }));
}

/**
 * What must change for the database to match the files (reads only). Run on the pool first,
 * then again inside the loader's transaction (one connection: see queryAll).
 */
async function plan(db: Db, content: ContentSet): Promise<Plan> {
  const [categoryRows, articleRows, faqRows, pageRows, translationRows] = await queryAll(db, [
    () =>
      stored(
        db,
        educationCategories,
        educationCategories.slug,
        educationCategories.contentHash,
        educationCategories.unpublishedAt,
      ),
    () =>
      stored(
        db,
        educationContent,
        educationContent.slug,
        educationContent.contentHash,
        educationContent.unpublishedAt,
      ),
    () => stored(db, faqs, faqs.id, faqs.contentHash, faqs.unpublishedAt),
    () => stored(db, pages, pages.slug, pages.contentHash, null),
    () =>
      db
        .select({
          kind: contentTranslations.kind,
          key: contentTranslations.key,
          language: contentTranslations.language,
          contentHash: contentTranslations.contentHash,
        })
        .from(contentTranslations),
  ]);
  const hash = (record: { contentHash: string }) => record.contentHash;
  return {
    categories: diff(content.categories, (record) => record.slug, hash, categoryRows),
    articles: diff(content.articles, (record) => record.slug, hash, articleRows),
    faqs: diff(content.faqs, (record) => record.id, hash, faqRows),
    pages: diff(content.pages, (record) => record.slug, hash, pageRows),
    translations: diff(
      content.translations,
      translationKey,
      hash,
      translationRows.map((row) => ({
        key: translationKey(row as Pick<TranslationRecord, 'kind' | 'key' | 'language'>),
        contentHash: row.contentHash,
        unpublished: false,
      })),
    ),
  };
}

/**
 * Writes the plan. Content columns and the hash only: views, downloads and helpful counts are
 * never part of an update, so a load cannot reset them. Run inside the loader's transaction.
 */
async function apply(tx: Db, work: Plan, at: Date): Promise<ContentLoadCounts> {
  const counts: ContentLoadCounts = { inserted: 0, updated: 0, unpublished: 0 };

  const categoryValues = (record: CategoryRecord) => ({
    name: record.name,
    description: record.description,
    sortOrder: record.sortOrder,
    contentHash: record.contentHash,
    unpublishedAt: null,
    updatedAt: at,
  });
  if (work.categories.insert.length > 0) {
    await tx
      .insert(educationCategories)
      .values(
        work.categories.insert.map((record) => ({ slug: record.slug, ...categoryValues(record) })),
      );
  }
  for (const record of work.categories.update) {
    await tx
      .update(educationCategories)
      .set(categoryValues(record))
      .where(eq(educationCategories.slug, record.slug));
  }
  if (work.categories.remove.length > 0) {
    await tx
      .update(educationCategories)
      .set({ unpublishedAt: at, updatedAt: at })
      .where(
        and(
          inArray(educationCategories.slug, work.categories.remove),
          isNull(educationCategories.unpublishedAt),
        ),
      );
  }

  const articleValues = (record: ArticleRecord) => ({
    title: record.title,
    summary: record.summary,
    category: record.category,
    body: record.body,
    sources: record.sources,
    readingMinutes: record.readingMinutes,
    publishedAt: record.publishedAt,
    featured: record.featured,
    contentHash: record.contentHash,
    unpublishedAt: null,
    updatedAt: at,
  });
  if (work.articles.insert.length > 0) {
    await tx.insert(educationContent).values(
      work.articles.insert.map((record) => ({
        slug: record.slug,
        ...articleValues(record),
        createdAt: at,
      })),
    );
  }
  for (const record of work.articles.update) {
    await tx
      .update(educationContent)
      .set(articleValues(record))
      .where(eq(educationContent.slug, record.slug));
  }
  if (work.articles.remove.length > 0) {
    await tx
      .update(educationContent)
      .set({ unpublishedAt: at, updatedAt: at })
      .where(
        and(
          inArray(educationContent.slug, work.articles.remove),
          isNull(educationContent.unpublishedAt),
        ),
      );
  }

  const faqValues = (record: FaqRecord) => ({
    question: record.question,
    answer: record.answer,
    category: record.category,
    sortOrder: record.sortOrder,
    contentHash: record.contentHash,
    unpublishedAt: null,
    updatedAt: at,
  });
  if (work.faqs.insert.length > 0) {
    await tx
      .insert(faqs)
      .values(work.faqs.insert.map((record) => ({ id: record.id, ...faqValues(record) })));
  }
  for (const record of work.faqs.update) {
    await tx.update(faqs).set(faqValues(record)).where(eq(faqs.id, record.id));
  }
  if (work.faqs.remove.length > 0) {
    await tx
      .update(faqs)
      .set({ unpublishedAt: at, updatedAt: at })
      .where(and(inArray(faqs.id, work.faqs.remove), isNull(faqs.unpublishedAt)));
  }

  const pageValues = (record: PageRecord) => ({
    title: record.title,
    summary: record.summary,
    version: record.version,
    updated: record.updated,
    body: record.body,
    contentHash: record.contentHash,
    updatedAt: at,
  });
  if (work.pages.insert.length > 0) {
    await tx
      .insert(pages)
      .values(work.pages.insert.map((record) => ({ slug: record.slug, ...pageValues(record) })));
  }
  for (const record of work.pages.update) {
    await tx.update(pages).set(pageValues(record)).where(eq(pages.slug, record.slug));
  }
  if (work.pages.remove.length > 0) {
    // Pages have no counters to keep: one removed from the files is simply gone.
    await tx.delete(pages).where(inArray(pages.slug, work.pages.remove));
  }

  const translationValues = (record: TranslationRecord) => ({
    title: record.title,
    summary: record.summary,
    body: record.body,
    sources: record.sources,
    readingMinutes: record.readingMinutes,
    contentHash: record.contentHash,
    updatedAt: at,
  });
  const translationRow = (record: TranslationRecord) =>
    and(
      eq(contentTranslations.kind, record.kind),
      eq(contentTranslations.key, record.key),
      eq(contentTranslations.language, record.language),
    );
  if (work.translations.insert.length > 0) {
    await tx.insert(contentTranslations).values(
      work.translations.insert.map((record) => ({
        kind: record.kind,
        key: record.key,
        language: record.language,
        ...translationValues(record),
      })),
    );
  }
  for (const record of work.translations.update) {
    await tx
      .update(contentTranslations)
      .set(translationValues(record))
      .where(translationRow(record));
  }
  if (work.translations.remove.length > 0) {
    // Nothing to keep: without its translation, the entry is served in English.
    await tx
      .delete(contentTranslations)
      .where(
        inArray(
          sql`${contentTranslations.kind} || ':' || ${contentTranslations.key} || ':' || ${contentTranslations.language}`,
          work.translations.remove,
        ),
      );
  }

  for (const table of [
    work.categories,
    work.articles,
    work.faqs,
    work.pages,
    work.translations,
  ] as TableDiff<unknown>[]) {
    counts.inserted += table.insert.length;
    counts.updated += table.update.length;
    counts.unpublished += table.remove.length;
  }
  return counts;
}

/**
 * Loads apps/server/content into the database at start (after the migrations), idempotently:
 * the files are read and validated first (a bad file throws ContentError and nothing is
 * written); the stored hashes are compared with reads only, and only when something differs is
 * a transaction opened (under an advisory lock, so servers starting together take turns) to
 * insert new entries, rewrite changed ones and unpublish removed ones. A start with unchanged
 * files writes nothing.
 */
export async function loadContent(
  db: Db,
  options: ContentLoadOptions = {},
): Promise<ContentLoadResult> {
  const started = performance.now();
  const now = options.now ?? Date.now;
  const content = await readContent(options.directory);
  for (const warning of content.warnings) options.logger?.warn({ warning }, `content: ${warning}`);

  let written: ContentLoadCounts = { inserted: 0, updated: 0, unpublished: 0 };
  const first = await plan(db, content);
  if (!Object.values(first).every(isEmpty)) {
    written = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CONTENT_LOCK_KEY})`);
      // Another server may have loaded the same files while this one waited.
      const work = await plan(tx, content);
      return apply(tx, work, new Date(now()));
    });
  }

  const result: ContentLoadResult = {
    articles: content.articles.length,
    faqs: content.faqs.length,
    categories: content.categories.length,
    pages: content.pages.length,
    translations: content.translations.length,
    written,
    warnings: content.warnings,
    ms: performance.now() - started,
  };
  options.logger?.info(
    {
      articles: result.articles,
      faqs: result.faqs,
      categories: result.categories,
      pages: result.pages,
      translations: result.translations,
      written,
      ms: Math.round(result.ms),
    },
    `Loaded ${result.articles} articles, ${result.faqs} FAQs`,
  );
  return result;
}
