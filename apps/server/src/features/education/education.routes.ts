import {
  contentIdOrSlugParamsSchema,
  contentLanguageQuerySchema,
  contentPageSchema,
  contentSlugParamsSchema,
  educationCategoryListSchema,
  educationContentListSchema,
  educationContentPageSchema,
  educationContentQuerySchema,
  educationContentSchema,
  faqFeedbackResultSchema,
  faqFeedbackSchema,
  faqIdParamsSchema,
  faqListQuerySchema,
  faqListSchema,
  faqSchema,
  featuredQuerySchema,
  pageSlugParamsSchema,
  popularQuerySchema,
  successEnvelope,
  FEATURED_LIMIT_DEFAULT,
  FEATURED_LIMIT_MAX,
  POPULAR_LIMIT_DEFAULT,
  POPULAR_LIMIT_MAX,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../lib/content-disposition';
import { sendCachedPublicly } from '../../lib/http-cache';
import { encodedOnce } from '../../lib/reply-cache';
import { errorResponses } from '../../lib/route-schemas';
import { FULLTEXT_MIN_LENGTH, VIEW_WINDOW_MS, type EducationService } from './education.service';

/** Per client address. Reading is generous (CGNAT puts many readers behind one address). */
export const EDUCATION_RATE_LIMITS = {
  read: { max: 240, timeWindow: '1 minute' },
  search: { max: 120, timeWindow: '1 minute' },
  feedback: { max: 10, timeWindow: '1 minute' },
  /** Each download renders a PDF. */
  download: { max: 20, timeWindow: '1 minute' },
} as const;
/** The content changes only when the server restarts with new files. */
export const EDUCATION_CACHE_SECONDS = 300;

const CACHED =
  `Cached publicly for ${EDUCATION_CACHE_SECONDS / 60} minutes with a weak ETag (\`If-None-Match\` → 304); ` +
  'the counts in it may be that old.';
const perMinute = (limit: { max: number }) => `Rate limit: ${limit.max} per minute per address.`;
const notModified = z.undefined().describe('Not modified: the ETag still matches');
/**
 * The reader's language (issue #15). A query parameter rather than Accept-Language: the address
 * is the key of every cache in front of these replies (the micro-cache, browsers, any shared
 * cache), so each language is cached apart with no `Vary`, and a link shows what it shows.
 */
const LANGUAGE =
  "`lang` is the reader's language: `en`, `es` or `hi` (a tag such as `hi-IN` reads as `hi`; anything else, " +
  'or none, as `en`; Accept-Language is not read: the address alone decides, so caches keep each language ' +
  'apart). Each entry is served in that language when it is translated, else in English: its `language` field ' +
  'says which (`en` for an English fallback), entry by entry.';

// The 200 schemas, shared by the route definitions and the cached bodies they encode.
const LIST_REPLY = successEnvelope(educationContentPageSchema);
const ARTICLE_REPLY = successEnvelope(educationContentSchema);
const FEATURED_REPLY = successEnvelope(educationContentListSchema);
const POPULAR_REPLY = FEATURED_REPLY;
const CATEGORIES_REPLY = successEnvelope(educationCategoryListSchema);
const FAQS_REPLY = successEnvelope(faqListSchema);
const FAQ_REPLY = successEnvelope(faqSchema);
const PAGE_REPLY = successEnvelope(contentPageSchema);

export interface EducationRoutesOptions {
  education: EducationService;
}

export const educationRoutes: FastifyPluginAsyncZod<EducationRoutesOptions> = async (
  app,
  { education },
) => {
  app.get(
    '/api/public/education/content',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.search, microCache: true },
      schema: {
        tags: ['education'],
        summary: 'Education articles, paginated',
        description:
          'Published articles without their text, newest first. `category` is a category slug (an unknown one ' +
          `matches nothing). \`q\` of ${FULLTEXT_MIN_LENGTH}+ characters is PostgreSQL full-text search over the title, ` +
          'summary and text (English stemming, so "donating" finds "donate"; web-search syntax: "a phrase", -word, or) ' +
          'and orders by relevance; a shorter `q`, or one that finds nothing that way (stop words only, part of a ' +
          'word), is matched as a case-insensitive substring, newest first. With `lang=es` or `hi`, `q` also ' +
          "searches the reader's translations (Spanish stemming; Hindi by whole words, PostgreSQL's 'simple' " +
          'configuration, so "रक्तदान" finds the Hindi articles), and English words still find English text. ' +
          `${LANGUAGE} ${CACHED} ${perMinute(EDUCATION_RATE_LIMITS.search)}`,
        querystring: educationContentQuerySchema,
        response: {
          200: LIST_REPLY,
          304: notModified,
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await education.cached.list(request.query);
      sendCachedPublicly(request, reply, entry, EDUCATION_CACHE_SECONDS, LIST_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/public/education/content/:slug',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.read },
      schema: {
        tags: ['education'],
        summary: 'One article, with its text (counts a view)',
        description:
          '`body` is Markdown (headings `##`/`###`, lists, bold, italic, links, quotes, simple tables; never HTML) ' +
          'and ends with its own "Sources" section; `sources` is the same list, structured. Unknown or unpublished ' +
          `slugs are 404. **Counts a view**: once per client address per article per ${VIEW_WINDOW_MS / 3_600_000} ` +
          'hour (remembered in memory by each server process), never for HEAD. Not cached ' +
          `(\`Cache-Control: no-store\`), so every read reaches the counter. ${LANGUAGE} A translation has its own ` +
          "`title`, `summary`, `body` and source titles; everything else is the English article's. " +
          perMinute(EDUCATION_RATE_LIMITS.read),
        params: contentSlugParamsSchema,
        querystring: contentLanguageQuerySchema,
        response: {
          200: ARTICLE_REPLY,
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const data = await education.get(request.params.slug, {
        address: request.ip,
        countView: request.method === 'GET',
        language: request.query.lang,
      });
      // Bytes with a JSON content type are sent as they are: encoded once while the article and
      // its view count stay the same.
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'application/json; charset=utf-8')
        .send(encodedOnce(data, ARTICLE_REPLY) as never);
    },
  );

  app.post(
    '/api/public/education/content/:id/download',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.download },
      schema: {
        tags: ['education'],
        summary: 'Download an article as a PDF (counts a download)',
        description:
          "`id` is the article's id or its slug; no body. Replies `application/pdf` as an attachment named " +
          '`<slug>.pdf`: A4, the title, summary, category, reading time and date, the text laid out from its ' +
          'Markdown (headings, paragraphs, lists, quotes, tables; links printed as "text (url)"), the sources, and ' +
          'on every page a footer with the site name, the article address (`PUBLIC_URL/articles/<slug>`) and the ' +
          "page number. In the reader's language: " +
          LANGUAGE +
          ' The text is shaped in its own script (Devanagari and the other Indian scripts, Arabic right to left) ' +
          "with the Noto fonts; the labels around it are in the article's language. Every request counts one " +
          'download. ' +
          perMinute(EDUCATION_RATE_LIMITS.download),
        params: contentIdOrSlugParamsSchema,
        querystring: contentLanguageQuerySchema,
        response: {
          200: z.unknown().describe('The article, application/pdf'),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { slug, pdf } = await education.download(request.params.id, request.query.lang);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachmentDisposition(`${slug}.pdf`))
        .header('cache-control', 'no-store')
        .send(Buffer.from(pdf));
    },
  );

  app.get(
    '/api/public/education/featured',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['education'],
        summary: 'Featured articles',
        description:
          `The articles marked featured, newest first: \`limit\` 1–${FEATURED_LIMIT_MAX}, default ${FEATURED_LIMIT_DEFAULT} ` +
          `(an array, never padded with other articles). ${LANGUAGE} ${CACHED} ${perMinute(EDUCATION_RATE_LIMITS.read)}`,
        querystring: featuredQuerySchema,
        response: {
          200: FEATURED_REPLY,
          304: notModified,
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await education.cached.featured(request.query.limit, request.query.lang);
      sendCachedPublicly(request, reply, entry, EDUCATION_CACHE_SECONDS, FEATURED_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/public/education/popular',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['education'],
        summary: 'Most read articles',
        description:
          `Most viewed first, then newest: \`limit\` 1–${POPULAR_LIMIT_MAX}, default ${POPULAR_LIMIT_DEFAULT} (an array). ` +
          `${LANGUAGE} ${CACHED} ${perMinute(EDUCATION_RATE_LIMITS.read)}`,
        querystring: popularQuerySchema,
        response: {
          200: POPULAR_REPLY,
          304: notModified,
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await education.cached.popular(request.query.limit, request.query.lang);
      sendCachedPublicly(request, reply, entry, EDUCATION_CACHE_SECONDS, POPULAR_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/public/education/categories',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['education'],
        summary: 'Article categories, with how many articles each has',
        description:
          "An array in the education page's order (content/categories.yml); `count` is the number of published " +
          `articles, and a category with none is still listed. Names are in English (the web app translates them). ${CACHED} ${perMinute(EDUCATION_RATE_LIMITS.read)}`,
        response: {
          200: CATEGORIES_REPLY,
          304: notModified,
          ...errorResponses(429),
        },
      },
    },
    async (request, reply) => {
      const entry = await education.cached.categories();
      sendCachedPublicly(request, reply, entry, EDUCATION_CACHE_SECONDS, CATEGORIES_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/public/education/faqs',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['education'],
        summary: 'Help centre questions and answers',
        description:
          "`{items}` with every match, **not paginated** (the whole set is a few dozen), in the help centre's " +
          'order (content/faqs.yml). `category` is one of donating, eligibility, requests, privacy, account, app ' +
          '(anything else is 400). `q` searches the question and answer like the article search (relevance first). ' +
          "With `lang=es` or `hi`, `q` also searches the reader's translations. " +
          `Answers are plain text with optional Markdown links. ${LANGUAGE} ${CACHED} ${perMinute(EDUCATION_RATE_LIMITS.read)}`,
        querystring: faqListQuerySchema,
        response: {
          200: FAQS_REPLY,
          304: notModified,
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await education.cached.faqs(request.query);
      sendCachedPublicly(request, reply, entry, EDUCATION_CACHE_SECONDS, FAQS_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/public/education/faqs/:id',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['education'],
        summary: 'One question and answer',
        description: `Unknown or removed ids are 404. ${LANGUAGE} ${CACHED} ${perMinute(EDUCATION_RATE_LIMITS.read)}`,
        params: faqIdParamsSchema,
        querystring: contentLanguageQuerySchema,
        response: {
          200: FAQ_REPLY,
          304: notModified,
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await education.cached.faq(request.params.id, request.query.lang);
      sendCachedPublicly(request, reply, entry, EDUCATION_CACHE_SECONDS, FAQ_REPLY);
      return reply;
    },
  );

  app.post(
    '/api/public/education/faqs/:id/feedback',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.feedback },
      schema: {
        tags: ['education'],
        summary: 'Was this answer helpful?',
        description:
          '`{helpful: true|false}` adds one to `helpfulCount` or `notHelpfulCount` and replies the new counts. Anyone ' +
          'may vote; only the counts are kept (no record of who voted). ' +
          `${perMinute(EDUCATION_RATE_LIMITS.feedback)}`,
        params: faqIdParamsSchema,
        body: faqFeedbackSchema,
        response: {
          200: successEnvelope(faqFeedbackResultSchema),
          ...errorResponses(400, 404, 415, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await education.feedback(request.params.id, request.body.helpful),
    }),
  );

  app.get(
    '/api/public/pages/:slug',
    {
      config: { rateLimit: EDUCATION_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['pages'],
        summary: 'The privacy policy or the terms of service',
        description:
          'Extension. `slug` is `privacy` or `terms` (others 404). `body` is Markdown with `{{supportEmail}}` ' +
          'replaced by the configured support address (`SUPPORT_EMAIL`); `version` is the version donors consent ' +
          `to at registration (CONSENT_VERSION). ${LANGUAGE} A translation is served only while it translates the ` +
          "current `version` (else the English is, marked `language: 'en'`). " +
          `${CACHED} ${perMinute(EDUCATION_RATE_LIMITS.read)}`,
        params: pageSlugParamsSchema,
        querystring: contentLanguageQuerySchema,
        response: {
          200: PAGE_REPLY,
          304: notModified,
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await education.cached.page(request.params.slug, request.query.lang);
      sendCachedPublicly(request, reply, entry, EDUCATION_CACHE_SECONDS, PAGE_REPLY);
      return reply;
    },
  );
};
