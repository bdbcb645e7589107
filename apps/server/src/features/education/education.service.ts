import type {
  ContentLanguage,
  ContentPage,
  EducationCategory,
  EducationContent,
  EducationContentItem,
  EducationContentPage,
  EducationContentQuery,
  Faq,
  FaqCategory,
  FaqFeedbackResult,
  FaqList,
  FaqListQuery,
} from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { createMemoryChangeBus, type ChangeBus } from '../../lib/change-bus';
import { cacheKey, createReplyCache, type CachedReply } from '../../lib/reply-cache';
import { renderArticlePdf } from './article-pdf';
import {
  createEducationRepository,
  type ContentItemRow,
  type ContentRow,
  type FaqViewRow,
  type TextMatch,
} from './education.repository';

/** One view per address per article in this window (per server process, in memory). */
export const VIEW_WINDOW_MS = 60 * 60 * 1000;
/** At most this many (address, article) pairs are remembered; the oldest are forgotten first. */
export const VIEW_MEMORY_MAX = 50_000;
/** Shorter queries are matched as substrings: full-text search needs whole words. */
export const FULLTEXT_MIN_LENGTH = 3;
const PDF_CACHE_MAX = 32;
/**
 * Public lists (articles, featured, popular, categories, FAQs, pages) are reused this long. A
 * download or FAQ feedback clears them at once; a counted view does not (the view counts in the
 * lists may be up to this old; the article itself always shows its new count).
 */
export const EDUCATION_REPLY_TTL_MS = 30_000;
export const EDUCATION_REPLY_CACHE_MAX = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SUPPORT_EMAIL_PLACEHOLDER = /\{\{\s*supportEmail\s*\}\}/g;

const articleNotFound = () => new AppError('NOT_FOUND', 'There is no article at this address.');
const faqNotFound = () => new AppError('NOT_FOUND', 'There is no question with this id.');
const pageNotFound = () => new AppError('NOT_FOUND', 'There is no page at this address.');

export function toContentItem(row: ContentItemRow): EducationContentItem {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    category: row.category,
    readingMinutes: row.readingMinutes,
    publishedAt: row.publishedAt,
    featured: row.featured,
    views: row.views,
    downloads: row.downloads,
    language: row.language,
  };
}

export function toContent(row: ContentRow): EducationContent {
  return { ...toContentItem(row), body: row.body, sources: row.sources };
}

export function toFaq(row: FaqViewRow): Faq {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    category: row.category as FaqCategory,
    helpfulCount: row.helpfulCount,
    notHelpfulCount: row.notHelpfulCount,
    language: row.language,
  };
}

/** Full-text search for words; a substring match for one or two characters. */
export function textMatchFor(q: string): TextMatch {
  const trimmed = q.trim();
  return trimmed.length >= FULLTEXT_MIN_LENGTH
    ? { mode: 'fulltext', q: trimmed }
    : { mode: 'substring', q: trimmed };
}

/**
 * Remembers which address read which article recently, so a reload (or a crawler hammering one
 * page) counts once an hour. In memory per process, like the rate limits: a restart forgets,
 * and two servers may each count the same reader once.
 */
export function createViewDeduper(now: () => number = Date.now) {
  const seen = new Map<string, number>();
  return {
    /** True the first time in the window; the caller then counts the view. */
    firstView(address: string, articleId: string): boolean {
      const at = now();
      const key = `${articleId}\u0000${address}`;
      const until = seen.get(key);
      if (until !== undefined && until > at) return false;
      seen.delete(key);
      seen.set(key, at + VIEW_WINDOW_MS);
      if (seen.size > VIEW_MEMORY_MAX) {
        // Insertion order is expiry order (the window is fixed): forget from the front.
        for (const [candidate, expires] of seen) {
          if (expires > at && seen.size <= VIEW_MEMORY_MAX * 0.9) break;
          seen.delete(candidate);
        }
      }
      return true;
    },
    get size() {
      return seen.size;
    },
  };
}

export interface EducationServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'supportEmail'>;
  now?: () => number;
  /** Counts changed on one instance clear the cached lists on every instance (issue #19). */
  bus?: ChangeBus;
}

export const FAQ_CHANGE_TOPIC = 'education.faqs';
export const ARTICLE_CHANGE_TOPIC = 'education.articles';

export function createEducationService(deps: EducationServiceDeps) {
  const repository = createEducationRepository(deps.db);
  const views = createViewDeduper(deps.now);
  const contentOf = new WeakMap<ContentRow, EducationContent>();
  const pdfs = new Map<string, Promise<Uint8Array>>();
  const cacheOptions = {
    max: EDUCATION_REPLY_CACHE_MAX,
    ttlMs: EDUCATION_REPLY_TTL_MS,
    now: deps.now,
  };
  const articleReplies = createReplyCache<unknown>(cacheOptions);
  const faqReplies = createReplyCache<unknown>(cacheOptions);
  const bus = deps.bus ?? createMemoryChangeBus();
  bus.subscribe(FAQ_CHANGE_TOPIC, () => faqReplies.clear());
  bus.subscribe(ARTICLE_CHANGE_TOPIC, () => articleReplies.clear());
  const memo = <T>(
    cache: typeof articleReplies,
    key: string,
    compute: () => Promise<T>,
  ): Promise<CachedReply<T>> => cache.get(key, compute) as Promise<CachedReply<T>>;

  async function renderPdf(row: ContentRow): Promise<Uint8Array> {
    const key = `${row.id}:${row.language}:${row.contentHash}`;
    let pdf = pdfs.get(key);
    if (!pdf) {
      const categoryName = (await repository.categoryName(row.category)) ?? row.category;
      pdf = renderArticlePdf({
        slug: row.slug,
        title: row.title,
        summary: row.summary,
        categoryName,
        readingMinutes: row.readingMinutes,
        publishedAt: row.publishedAt,
        body: row.body,
        sources: row.sources,
        publicUrl: deps.config.publicUrl,
        language: row.language,
      });
      pdfs.set(key, pdf);
      pdf.catch(() => pdfs.delete(key));
      // Articles change only on a restart with new files: a handful of entries is plenty.
      while (pdfs.size > PDF_CACHE_MAX) pdfs.delete(pdfs.keys().next().value as string);
    }
    return pdf;
  }

  const service = {
    async list(query: EducationContentQuery): Promise<EducationContentPage> {
      const base = {
        category: query.category,
        language: query.lang,
        page: query.page,
        pageSize: query.pageSize,
      };
      let result = await repository.listContent({
        ...base,
        match: query.q ? textMatchFor(query.q) : undefined,
      });
      // Stop words only, or part of a word ("haemo"): full-text search finds nothing; a
      // substring match may.
      if (query.q && result.total === 0 && textMatchFor(query.q).mode === 'fulltext') {
        result = await repository.listContent({
          ...base,
          match: { mode: 'substring', q: query.q.trim() },
        });
      }
      return {
        items: result.items.map(toContentItem),
        total: result.total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    /** The article; counts a view unless `countView` is false (HEAD) or this address just read it. */
    async get(
      slug: string,
      reader: { address: string; countView: boolean; language: ContentLanguage },
    ): Promise<EducationContent> {
      // The row is reused like the lists (one per language); a counted view updates the kept
      // row, so readers see it.
      const key = `article:${reader.language}:${slug}`;
      const { data: row } = await memo(articleReplies, key, async () => {
        const found = await repository.findBySlug(slug, reader.language);
        if (!found) throw articleNotFound();
        return found;
      });
      if (reader.countView && views.firstView(reader.address, row.id)) {
        const counted = await repository.addView(row.id);
        if (counted !== null && counted !== row.views) {
          row.views = counted;
          contentOf.delete(row);
        }
      }
      // The same object until the row changes: the route keeps its encoded body with it.
      let content = contentOf.get(row);
      if (!content) {
        content = toContent(row);
        contentOf.set(row, content);
      }
      return content;
    },

    async featured(limit: number, language: ContentLanguage): Promise<EducationContentItem[]> {
      return (await repository.featured(limit, language)).map(toContentItem);
    },

    async popular(limit: number, language: ContentLanguage): Promise<EducationContentItem[]> {
      return (await repository.popular(limit, language)).map(toContentItem);
    },

    async categories(): Promise<EducationCategory[]> {
      return repository.categories();
    },

    async faqs(query: FaqListQuery): Promise<FaqList> {
      const filters = { category: query.category, language: query.lang };
      let rows = await repository.listFaqs({
        ...filters,
        match: query.q ? textMatchFor(query.q) : undefined,
      });
      if (query.q && rows.length === 0 && textMatchFor(query.q).mode === 'fulltext') {
        rows = await repository.listFaqs({
          ...filters,
          match: { mode: 'substring', q: query.q.trim() },
        });
      }
      return { items: rows.map(toFaq) };
    },

    async faq(id: string, language: ContentLanguage): Promise<Faq> {
      const row = await repository.findFaq(id, language);
      if (!row) throw faqNotFound();
      return toFaq(row);
    },

    async feedback(id: string, helpful: boolean): Promise<FaqFeedbackResult> {
      const row = await repository.addFaqFeedback(id, helpful);
      if (!row) throw faqNotFound();
      await bus.publish(FAQ_CHANGE_TOPIC);
      return { id: row.id, helpfulCount: row.helpfulCount, notHelpfulCount: row.notHelpfulCount };
    },

    /** The article as a PDF (by id or slug) in the reader's language; counts a download. */
    async download(
      idOrSlug: string,
      language: ContentLanguage,
    ): Promise<{ slug: string; pdf: Uint8Array; downloads: number }> {
      const key = idOrSlug.trim().toLowerCase();
      const row = await repository.findByIdOrSlug(key, UUID.test(key), language);
      if (!row) throw articleNotFound();
      const pdf = await renderPdf(row);
      const downloads = (await repository.addDownload(row.id)) ?? row.downloads;
      await bus.publish(ARTICLE_CHANGE_TOPIC);
      return { slug: row.slug, pdf, downloads };
    },

    async page(slug: string, language: ContentLanguage): Promise<ContentPage> {
      const row = await repository.findPage(slug, language);
      if (!row) throw pageNotFound();
      const fill = (text: string) =>
        text.replace(SUPPORT_EMAIL_PLACEHOLDER, deps.config.supportEmail);
      return {
        slug: row.slug,
        title: fill(row.title),
        summary: fill(row.summary),
        version: row.version,
        updated: row.updated,
        body: fill(row.body),
        language: row.language,
      };
    },
  };

  return {
    ...service,

    /**
     * The public lists with their ETags, reused for EDUCATION_REPLY_TTL_MS (see above). The
     * reader's language is part of every key (the queries carry `lang`; the others take it).
     */
    cached: {
      list: (query: EducationContentQuery) =>
        memo(articleReplies, `list:${cacheKey(query)}`, () => service.list(query)),
      featured: (limit: number, language: ContentLanguage) =>
        memo(articleReplies, `featured:${language}:${limit}`, () =>
          service.featured(limit, language),
        ),
      popular: (limit: number, language: ContentLanguage) =>
        memo(articleReplies, `popular:${language}:${limit}`, () =>
          service.popular(limit, language),
        ),
      categories: () => memo(articleReplies, 'categories', () => service.categories()),
      page: (slug: string, language: ContentLanguage) =>
        memo(articleReplies, `page:${language}:${slug}`, () => service.page(slug, language)),
      faqs: (query: FaqListQuery) =>
        memo(faqReplies, `faqs:${cacheKey(query)}`, () => service.faqs(query)),
      faq: (id: string, language: ContentLanguage) =>
        memo(faqReplies, `faq:${language}:${id}`, () => service.faq(id, language)),
    },
  };
}

export type EducationService = ReturnType<typeof createEducationService>;
