import { and, asc, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import {
  educationCategories,
  educationContent,
  faqs,
  pages,
  type EducationContentRow,
  type FaqRow,
  type PageRow,
} from '../../db/schema';

/** The columns cards and lists need (no body, no search vector). */
const itemColumns = {
  id: educationContent.id,
  slug: educationContent.slug,
  title: educationContent.title,
  summary: educationContent.summary,
  category: educationContent.category,
  readingMinutes: educationContent.readingMinutes,
  publishedAt: educationContent.publishedAt,
  featured: educationContent.featured,
  views: educationContent.views,
  downloads: educationContent.downloads,
};

export type ContentItemRow = Pick<EducationContentRow, keyof typeof itemColumns>;
export type ContentRow = ContentItemRow &
  Pick<EducationContentRow, 'body' | 'sources' | 'contentHash'>;

const fullColumns = {
  ...itemColumns,
  body: educationContent.body,
  sources: educationContent.sources,
  contentHash: educationContent.contentHash,
};

const faqColumns = {
  id: faqs.id,
  question: faqs.question,
  answer: faqs.answer,
  category: faqs.category,
  helpfulCount: faqs.helpfulCount,
  notHelpfulCount: faqs.notHelpfulCount,
};
export type FaqViewRow = Pick<FaqRow, keyof typeof faqColumns>;

export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** How `q` is matched: PostgreSQL full-text search, or a substring match for what it cannot do. */
export type TextMatch = { mode: 'fulltext'; q: string } | { mode: 'substring'; q: string };

const published = isNull(educationContent.unpublishedAt);
const newestFirst = [
  desc(educationContent.publishedAt),
  asc(educationContent.title),
  asc(educationContent.id),
];

function tsQuery(q: string): SQL {
  return sql`websearch_to_tsquery('english', ${q})`;
}

function contentMatch(match: TextMatch): SQL {
  if (match.mode === 'fulltext') return sql`${educationContent.search} @@ ${tsQuery(match.q)}`;
  const pattern = `%${escapeLike(match.q)}%`;
  return or(
    ilike(educationContent.title, pattern),
    ilike(educationContent.summary, pattern),
    ilike(educationContent.body, pattern),
  )!;
}

const faqDocument = sql`to_tsvector('english', ${faqs.question} || ' ' || ${faqs.answer})`;

function faqMatch(match: TextMatch): SQL {
  if (match.mode === 'fulltext') return sql`${faqDocument} @@ ${tsQuery(match.q)}`;
  const pattern = `%${escapeLike(match.q)}%`;
  return or(ilike(faqs.question, pattern), ilike(faqs.answer, pattern))!;
}

export function createEducationRepository(db: Db) {
  return {
    /** Published articles, newest first; with a full-text `match`, most relevant first. */
    async listContent(filters: {
      category?: string;
      match?: TextMatch;
      page: number;
      pageSize: number;
    }): Promise<{ items: ContentItemRow[]; total: number }> {
      const conditions: SQL[] = [published];
      if (filters.category) conditions.push(eq(educationContent.category, filters.category));
      if (filters.match) conditions.push(contentMatch(filters.match));
      const where = and(...conditions);
      const order =
        filters.match?.mode === 'fulltext'
          ? [
              sql`ts_rank(${educationContent.search}, ${tsQuery(filters.match.q)}) desc`,
              ...newestFirst,
            ]
          : newestFirst;
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select(itemColumns)
            .from(educationContent)
            .where(where)
            .orderBy(...order)
            .limit(filters.pageSize)
            .offset((filters.page - 1) * filters.pageSize),
        () => db.select({ total: count() }).from(educationContent).where(where),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    async findBySlug(slug: string): Promise<ContentRow | undefined> {
      const [row] = await db
        .select(fullColumns)
        .from(educationContent)
        .where(and(published, eq(educationContent.slug, slug)))
        .limit(1);
      return row;
    },

    /** By id when `key` is a UUID (ids and slugs never collide: slugs are not UUIDs), else by slug. */
    async findByIdOrSlug(key: string, isUuid: boolean): Promise<ContentRow | undefined> {
      const [row] = await db
        .select(fullColumns)
        .from(educationContent)
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

    async featured(limit: number): Promise<ContentItemRow[]> {
      return db
        .select(itemColumns)
        .from(educationContent)
        .where(and(published, eq(educationContent.featured, true)))
        .orderBy(...newestFirst)
        .limit(limit);
    },

    /** Most viewed, then newest. */
    async popular(limit: number): Promise<ContentItemRow[]> {
      return db
        .select(itemColumns)
        .from(educationContent)
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
    async listFaqs(filters: { category?: string; match?: TextMatch }): Promise<FaqViewRow[]> {
      const conditions: SQL[] = [isNull(faqs.unpublishedAt)];
      if (filters.category) conditions.push(eq(faqs.category, filters.category));
      if (filters.match) conditions.push(faqMatch(filters.match));
      const order =
        filters.match?.mode === 'fulltext'
          ? [sql`ts_rank(${faqDocument}, ${tsQuery(filters.match.q)}) desc`, asc(faqs.sortOrder)]
          : [asc(faqs.sortOrder), asc(faqs.id)];
      return db
        .select(faqColumns)
        .from(faqs)
        .where(and(...conditions))
        .orderBy(...order);
    },

    async findFaq(id: string): Promise<FaqViewRow | undefined> {
      const [row] = await db
        .select(faqColumns)
        .from(faqs)
        .where(and(isNull(faqs.unpublishedAt), eq(faqs.id, id)))
        .limit(1);
      return row;
    },

    /** +1 helpful or not helpful on a published FAQ; the new counts, or undefined. */
    async addFaqFeedback(id: string, helpful: boolean): Promise<FaqViewRow | undefined> {
      const [row] = await db
        .update(faqs)
        .set(
          helpful
            ? { helpfulCount: sql`${faqs.helpfulCount} + 1` }
            : { notHelpfulCount: sql`${faqs.notHelpfulCount} + 1` },
        )
        .where(and(isNull(faqs.unpublishedAt), eq(faqs.id, id)))
        .returning(faqColumns);
      return row;
    },

    async findPage(slug: string): Promise<PageRow | undefined> {
      const [row] = await db.select().from(pages).where(eq(pages.slug, slug)).limit(1);
      return row;
    },
  };
}

export type EducationRepository = ReturnType<typeof createEducationRepository>;
