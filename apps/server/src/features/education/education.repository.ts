import type { ContentLanguage } from '@bdms/shared';
import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  isNull,
  or,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import {
  contentTranslations,
  educationCategories,
  educationContent,
  faqs,
  pages,
  type EducationContentRow,
  type FaqRow,
  type PageRow,
} from '../../db/schema';

/**
 * Every read takes the reader's language: the entry's translation in it (content_translations)
 * is joined, and each field is the translation's where there is one, else the English. `language`
 * says which one a row is in, per row: that is the per-entry fallback.
 */

/** The article's translation in the reader's language (none for English). */
const articleText = alias(contentTranslations, 'article_text');
/** The FAQ's translation in the reader's language (none for English). */
const faqText = alias(contentTranslations, 'faq_text');
/** The page's translation in the reader's language (none for English). */
const pageText = alias(contentTranslations, 'page_text');

const languageOf = (language: AnyColumn) => sql<ContentLanguage>`coalesce(${language}, 'en')`;
const translated = (text: AnyColumn, english: AnyColumn) =>
  sql<string>`coalesce(${text}, ${english})`;

/** The columns cards and lists need (no body, no search vector). */
const itemColumns = {
  id: educationContent.id,
  slug: educationContent.slug,
  title: translated(articleText.title, educationContent.title),
  summary: translated(articleText.summary, educationContent.summary),
  category: educationContent.category,
  readingMinutes:
    sql<number>`coalesce(${articleText.readingMinutes}, ${educationContent.readingMinutes})`.mapWith(
      Number,
    ),
  publishedAt: educationContent.publishedAt,
  featured: educationContent.featured,
  views: educationContent.views,
  downloads: educationContent.downloads,
  language: languageOf(articleText.language),
};

export type ContentItemRow = Pick<
  EducationContentRow,
  Exclude<keyof typeof itemColumns, 'language'>
> & { language: ContentLanguage };
export type ContentRow = ContentItemRow &
  Pick<EducationContentRow, 'body' | 'sources' | 'contentHash'>;

const fullColumns = {
  ...itemColumns,
  body: translated(articleText.body, educationContent.body),
  sources: sql<
    EducationContentRow['sources']
  >`coalesce(${articleText.sources}, ${educationContent.sources})`,
  contentHash:
    sql<string>`${educationContent.contentHash} || coalesce(${articleText.contentHash}, '')`.mapWith(
      String,
    ),
};

const faqColumns = {
  id: faqs.id,
  question: translated(faqText.title, faqs.question),
  answer: translated(faqText.body, faqs.answer),
  category: faqs.category,
  helpfulCount: faqs.helpfulCount,
  notHelpfulCount: faqs.notHelpfulCount,
  language: languageOf(faqText.language),
};
export type FaqViewRow = Pick<FaqRow, Exclude<keyof typeof faqColumns, 'language'>> & {
  language: ContentLanguage;
};

export type PageViewRow = Pick<
  PageRow,
  'slug' | 'title' | 'summary' | 'version' | 'updated' | 'body'
> & { language: ContentLanguage };

export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** How `q` is matched: PostgreSQL full-text search, or a substring match for what it cannot do. */
export type TextMatch = { mode: 'fulltext'; q: string } | { mode: 'substring'; q: string };

const published = isNull(educationContent.unpublishedAt);
const newestFirst = [
  desc(educationContent.publishedAt),
  asc(educationContent.title),
  asc(educationContent.id),
];

const joinArticleText = (language: ContentLanguage) =>
  and(
    eq(articleText.kind, 'article'),
    eq(articleText.key, educationContent.slug),
    eq(articleText.language, language),
  );
const joinFaqText = (language: ContentLanguage) =>
  and(eq(faqText.kind, 'faq'), eq(faqText.key, faqs.id), eq(faqText.language, language));

function tsQuery(q: string): SQL {
  return sql`websearch_to_tsquery('english', ${q})`;
}

/**
 * The query in the translations' own configuration (the generated `search` column of
 * content_translations): Spanish stemming, and 'simple' (whole words) for Hindi, which
 * PostgreSQL cannot stem.
 */
function translatedTsQuery(q: string, language: ContentLanguage): SQL {
  return language === 'es'
    ? sql`websearch_to_tsquery('spanish', ${q})`
    : sql`websearch_to_tsquery('simple', ${q})`;
}

/** The English text, or the reader's translation, matches (a Hindi reader may type English). */
function contentMatch(match: TextMatch, language: ContentLanguage): SQL {
  if (match.mode === 'fulltext') {
    const english = sql`${educationContent.search} @@ ${tsQuery(match.q)}`;
    if (language === 'en') return english;
    return or(english, sql`${articleText.search} @@ ${translatedTsQuery(match.q, language)}`)!;
  }
  const pattern = `%${escapeLike(match.q)}%`;
  return or(
    ilike(educationContent.title, pattern),
    ilike(educationContent.summary, pattern),
    ilike(educationContent.body, pattern),
    ilike(articleText.title, pattern),
    ilike(articleText.summary, pattern),
    ilike(articleText.body, pattern),
  )!;
}

/** Relevance: the translation's rank counts with the English one's. */
function contentRank(q: string, language: ContentLanguage): SQL {
  const english = sql`ts_rank(${educationContent.search}, ${tsQuery(q)})`;
  if (language === 'en') return english;
  return sql`(${english} + coalesce(ts_rank(${articleText.search}, ${translatedTsQuery(q, language)}), 0))`;
}

const faqDocument = sql`to_tsvector('english', ${faqs.question} || ' ' || ${faqs.answer})`;

function faqMatch(match: TextMatch, language: ContentLanguage): SQL {
  if (match.mode === 'fulltext') {
    const english = sql`${faqDocument} @@ ${tsQuery(match.q)}`;
    if (language === 'en') return english;
    return or(english, sql`${faqText.search} @@ ${translatedTsQuery(match.q, language)}`)!;
  }
  const pattern = `%${escapeLike(match.q)}%`;
  return or(
    ilike(faqs.question, pattern),
    ilike(faqs.answer, pattern),
    ilike(faqText.title, pattern),
    ilike(faqText.body, pattern),
  )!;
}

function faqRank(q: string, language: ContentLanguage): SQL {
  const english = sql`ts_rank(${faqDocument}, ${tsQuery(q)})`;
  if (language === 'en') return english;
  return sql`(${english} + coalesce(ts_rank(${faqText.search}, ${translatedTsQuery(q, language)}), 0))`;
}

export function createEducationRepository(db: Db) {
  return {
    /** Published articles, newest first; with a full-text `match`, most relevant first. */
    async listContent(filters: {
      category?: string;
      match?: TextMatch;
      language: ContentLanguage;
      page: number;
      pageSize: number;
    }): Promise<{ items: ContentItemRow[]; total: number }> {
      const { language } = filters;
      const conditions: SQL[] = [published];
      if (filters.category) conditions.push(eq(educationContent.category, filters.category));
      if (filters.match) conditions.push(contentMatch(filters.match, language));
      const where = and(...conditions);
      const order =
        filters.match?.mode === 'fulltext'
          ? [sql`${contentRank(filters.match.q, language)} desc`, ...newestFirst]
          : newestFirst;
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select(itemColumns)
            .from(educationContent)
            .leftJoin(articleText, joinArticleText(language))
            .where(where)
            .orderBy(...order)
            .limit(filters.pageSize)
            .offset((filters.page - 1) * filters.pageSize),
        () =>
          db
            .select({ total: count() })
            .from(educationContent)
            .leftJoin(articleText, joinArticleText(language))
            .where(where),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    async findBySlug(slug: string, language: ContentLanguage): Promise<ContentRow | undefined> {
      const [row] = await db
        .select(fullColumns)
        .from(educationContent)
        .leftJoin(articleText, joinArticleText(language))
        .where(and(published, eq(educationContent.slug, slug)))
        .limit(1);
      return row;
    },

    /** By id when `key` is a UUID (ids and slugs never collide: slugs are not UUIDs), else by slug. */
    async findByIdOrSlug(
      key: string,
      isUuid: boolean,
      language: ContentLanguage,
    ): Promise<ContentRow | undefined> {
      const [row] = await db
        .select(fullColumns)
        .from(educationContent)
        .leftJoin(articleText, joinArticleText(language))
        .where(
          and(
            published,
            isUuid
              ? or(eq(educationContent.id, key), eq(educationContent.slug, key))
              : eq(educationContent.slug, key),
          ),
        )
        .limit(1);
      return row;
    },

    async featured(limit: number, language: ContentLanguage): Promise<ContentItemRow[]> {
      return db
        .select(itemColumns)
        .from(educationContent)
        .leftJoin(articleText, joinArticleText(language))
        .where(and(published, eq(educationContent.featured, true)))
        .orderBy(...newestFirst)
        .limit(limit);
    },

    /** Most viewed, then newest. */
    async popular(limit: number, language: ContentLanguage): Promise<ContentItemRow[]> {
      return db
        .select(itemColumns)
        .from(educationContent)
        .leftJoin(articleText, joinArticleText(language))
        .where(published)
        .orderBy(desc(educationContent.views), ...newestFirst)
        .limit(limit);
    },

    /** +1 view; the new count, or null when the article is gone. */
    async addView(id: string): Promise<number | null> {
      const [row] = await db
        .update(educationContent)
        .set({ views: sql`${educationContent.views} + 1` })
        .where(eq(educationContent.id, id))
        .returning({ views: educationContent.views });
      return row?.views ?? null;
    },

    async addDownload(id: string): Promise<number | null> {
      const [row] = await db
        .update(educationContent)
        .set({ downloads: sql`${educationContent.downloads} + 1` })
        .where(eq(educationContent.id, id))
        .returning({ downloads: educationContent.downloads });
      return row?.downloads ?? null;
    },

    /** Published categories in file order, with their published articles counted. */
    async categories(): Promise<
      { slug: string; name: string; description: string; count: number }[]
    > {
      const rows = await db
        .select({
          slug: educationCategories.slug,
          name: educationCategories.name,
          description: educationCategories.description,
          count: count(educationContent.id),
        })
        .from(educationCategories)
        .leftJoin(
          educationContent,
          and(eq(educationContent.category, educationCategories.slug), published),
        )
        .where(isNull(educationCategories.unpublishedAt))
        .groupBy(educationCategories.slug)
        .orderBy(asc(educationCategories.sortOrder), asc(educationCategories.slug));
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },

    async categoryName(slug: string): Promise<string | null> {
      const [row] = await db
        .select({ name: educationCategories.name })
        .from(educationCategories)
        .where(eq(educationCategories.slug, slug))
        .limit(1);
      return row?.name ?? null;
    },

    /** Published FAQs in the file's order; with a full-text `match`, most relevant first. */
    async listFaqs(filters: {
      category?: string;
      match?: TextMatch;
      language: ContentLanguage;
    }): Promise<FaqViewRow[]> {
      const { language } = filters;
      const conditions: SQL[] = [isNull(faqs.unpublishedAt)];
      if (filters.category) conditions.push(eq(faqs.category, filters.category));
      if (filters.match) conditions.push(faqMatch(filters.match, language));
      const order =
        filters.match?.mode === 'fulltext'
          ? [sql`${faqRank(filters.match.q, language)} desc`, asc(faqs.sortOrder)]
          : [asc(faqs.sortOrder), asc(faqs.id)];
      return db
        .select(faqColumns)
        .from(faqs)
        .leftJoin(faqText, joinFaqText(language))
        .where(and(...conditions))
        .orderBy(...order);
    },

    async findFaq(id: string, language: ContentLanguage): Promise<FaqViewRow | undefined> {
      const [row] = await db
        .select(faqColumns)
        .from(faqs)
        .leftJoin(faqText, joinFaqText(language))
        .where(and(isNull(faqs.unpublishedAt), eq(faqs.id, id)))
        .limit(1);
      return row;
    },

    /** +1 helpful or not helpful on a published FAQ; the new counts, or undefined. */
    async addFaqFeedback(
      id: string,
      helpful: boolean,
    ): Promise<Pick<FaqRow, 'id' | 'helpfulCount' | 'notHelpfulCount'> | undefined> {
      const [row] = await db
        .update(faqs)
        .set(
          helpful
            ? { helpfulCount: sql`${faqs.helpfulCount} + 1` }
            : { notHelpfulCount: sql`${faqs.notHelpfulCount} + 1` },
        )
        .where(and(isNull(faqs.unpublishedAt), eq(faqs.id, id)))
        .returning({
          id: faqs.id,
          helpfulCount: faqs.helpfulCount,
          notHelpfulCount: faqs.notHelpfulCount,
        });
      return row;
    },

    async findPage(slug: string, language: ContentLanguage): Promise<PageViewRow | undefined> {
      const [row] = await db
        .select({
          slug: pages.slug,
          title: translated(pageText.title, pages.title),
          summary: translated(pageText.summary, pages.summary),
          version: pages.version,
          updated: pages.updated,
          body: translated(pageText.body, pages.body),
          language: languageOf(pageText.language),
        })
        .from(pages)
        .leftJoin(
          pageText,
          and(
            eq(pageText.kind, 'page'),
            eq(pageText.key, pages.slug),
            eq(pageText.language, language),
          ),
        )
        .where(eq(pages.slug, slug))
        .limit(1);
      return row;
    },
  };
}

export type EducationRepository = ReturnType<typeof createEducationRepository>;
