import { z } from 'zod';
import { hasUnsafeCharacters, UNSAFE_TEXT_MESSAGE } from './text';
import { paginated, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './api';
import { emailSchema } from './auth';
import { TRANSLATED_LANGUAGES } from './constants';

/**
 * Contracts of the public content (API.md "Public: facilities and education"): education
 * articles and their categories, the help centre's FAQs, the privacy and terms pages, and the
 * contact form. The words themselves live in apps/server/content (see its README) and are loaded
 * into the database when the server starts.
 */

/** kebab-case: article slugs, category slugs and FAQ ids. */
export const CONTENT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slugSchema = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(120)
    .regex(CONTENT_SLUG_PATTERN, `Not ${what} (lower-case words joined by hyphens).`);

/**
 * The languages the public content is written in. English is the source: every article, answer
 * and policy exists in it, and each entry missing in another language falls back to its English
 * text on its own (content/README.md "Translations").
 */
export const CONTENT_LANGUAGES = TRANSLATED_LANGUAGES;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number];
/** The languages a content file may be translated into (`<slug>.<language>.md`). */
export const CONTENT_TRANSLATION_LANGUAGES = ['es', 'hi'] as const satisfies readonly Exclude<
  ContentLanguage,
  'en'
>[];
export type ContentTranslationLanguage = (typeof CONTENT_TRANSLATION_LANGUAGES)[number];

/**
 * The content language for a `lang` value: a served language (`hi`, or a tag of it such as
 * `hi-IN`), else English (unknown, missing or unsupported such as `fr`).
 */
export function contentLanguageOf(value: string | null | undefined): ContentLanguage {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return (CONTENT_LANGUAGES as readonly string[]).includes(base ?? '')
    ? (base as ContentLanguage)
    : 'en';
}

/**
 * `?lang=` of the public content routes: the reader's language. Never an error: an unknown value
 * reads as English, so every client gets an answer (and such URLs share English's replies).
 */
const contentLanguageParam = z
  .string()
  .max(35)
  .optional()
  .transform((value) => contentLanguageOf(value));

/** The language an entry is written in, as served (its own, or English as the fallback). */
const contentLanguageField = z.enum(CONTENT_LANGUAGES);

/** `?lang=` alone: the routes of one article, one FAQ, one page and the short lists. */
export const contentLanguageQuerySchema = z.object({ lang: contentLanguageParam });
export type ContentLanguageQuery = z.infer<typeof contentLanguageQuerySchema>;

/** The help centre's FAQ groups, in the order it shows them (content/faqs.yml). */
export const FAQ_CATEGORIES = [
  'donating',
  'eligibility',
  'requests',
  'privacy',
  'account',
  'app',
] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number];

/** The policy pages served by `GET /api/public/pages/{slug}`. */
export const PAGE_SLUGS = ['privacy', 'terms'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];

export const FEATURED_LIMIT_DEFAULT = 3;
export const FEATURED_LIMIT_MAX = 12;
export const POPULAR_LIMIT_DEFAULT = 5;
export const POPULAR_LIMIT_MAX = 20;

/**
 * Control characters (NUL among them, which PostgreSQL refuses in text) are never meaningful in
 * these fields; `allowed` lists the ones a field may hold (line breaks in a message).
 */
/** A search query: 1–200 characters, no control characters. */
const searchQuerySchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((value) => !hasUnsafeCharacters(value), {
    message: 'Remove control characters from the search.',
  });

/** A day, `YYYY-MM-DD`. */
const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** An education article as lists and cards show it (no body). */
export const educationContentItemSchema = z.object({
  /** Opaque and stable (a UUID); the slug is the readable key. */
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  /** A category slug (`GET /categories`). */
  category: z.string(),
  readingMinutes: z.number().int(),
  /** The day it was published, `YYYY-MM-DD`. */
  publishedAt: daySchema,
  featured: z.boolean(),
  views: z.number().int(),
  downloads: z.number().int(),
  /** The language of `title`, `summary` (and the article's `body`): the reader's, or `en`. */
  language: contentLanguageField,
});
export type EducationContentItem = z.infer<typeof educationContentItemSchema>;

export const contentSourceSchema = z.object({
  title: z.string(),
  /** An `https://` address, or a path of this app such as `/privacy`. */
  url: z.string(),
});
export type ContentSource = z.infer<typeof contentSourceSchema>;

/** One article with its text. */
export const educationContentSchema = educationContentItemSchema.extend({
  /**
   * Markdown: `##`/`###` headings, paragraphs, lists, bold, italic, links, blockquotes and simple
   * tables; never raw HTML. It ends with its own `## Sources` section, which lists `sources`.
   */
  body: z.string(),
  sources: z.array(contentSourceSchema),
});
export type EducationContent = z.infer<typeof educationContentSchema>;

export const educationContentPageSchema = paginated(educationContentItemSchema);
export type EducationContentPage = z.infer<typeof educationContentPageSchema>;

export const educationContentQuerySchema = z.object({
  /** A category slug; an unknown one matches nothing. */
  category: slugSchema('a category').optional(),
  /**
   * Words to look for in the title, summary and text: full-text search of the English (English
   * stemming) and of the reader's language's text (Spanish stemming; Hindi whole words).
   */
  q: searchQuerySchema.optional(),
  lang: contentLanguageParam,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type EducationContentQuery = z.infer<typeof educationContentQuerySchema>;

export const contentSlugParamsSchema = z.object({ slug: slugSchema('an article slug') });

/** The download takes the article's id or its slug. */
export const contentIdOrSlugParamsSchema = z.object({
  id: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(120)
    .regex(CONTENT_SLUG_PATTERN, 'Not an article id or slug.'),
});

export const featuredQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(FEATURED_LIMIT_MAX).default(FEATURED_LIMIT_DEFAULT),
  lang: contentLanguageParam,
});
export const popularQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(POPULAR_LIMIT_MAX).default(POPULAR_LIMIT_DEFAULT),
  lang: contentLanguageParam,
});
export const educationContentListSchema = z.array(educationContentItemSchema);

export const educationCategorySchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  /** Published articles in the category. */
  count: z.number().int(),
});
export type EducationCategory = z.infer<typeof educationCategorySchema>;
export const educationCategoryListSchema = z.array(educationCategorySchema);

export const faqSchema = z.object({
  /** Short kebab-case id from content/faqs.yml, never reused. */
  id: z.string(),
  question: z.string(),
  /** Plain text with optional Markdown links to pages of the app. */
  answer: z.string(),
  category: z.enum(FAQ_CATEGORIES),
  helpfulCount: z.number().int(),
  notHelpfulCount: z.number().int(),
  /** The language of `question` and `answer`: the reader's, or `en`. */
  language: contentLanguageField,
});
export type Faq = z.infer<typeof faqSchema>;

export const faqListQuerySchema = z.object({
  category: z.enum(FAQ_CATEGORIES).optional(),
  /** Words to look for in the question and answer (English and the reader's language). */
  q: searchQuerySchema.optional(),
  lang: contentLanguageParam,
});
export type FaqListQuery = z.infer<typeof faqListQuerySchema>;

/** Every matching FAQ, in the help centre's order (not paginated: the set is small). */
export const faqListSchema = z.object({ items: z.array(faqSchema) });
export type FaqList = z.infer<typeof faqListSchema>;

export const faqIdParamsSchema = z.object({ id: slugSchema('an FAQ id') });

/** `POST /faqs/{id}/feedback`: was this answer helpful? */
export const faqFeedbackSchema = z.object({ helpful: z.boolean() }).strict();
export type FaqFeedback = z.infer<typeof faqFeedbackSchema>;

export const faqFeedbackResultSchema = z.object({
  id: z.string(),
  helpfulCount: z.number().int(),
  notHelpfulCount: z.number().int(),
});
export type FaqFeedbackResult = z.infer<typeof faqFeedbackResultSchema>;

export const pageSlugParamsSchema = z.object({ slug: slugSchema('a page') });

/** The privacy policy or the terms of service. */
export const contentPageSchema = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  /** The version users consent to (CONSENT_VERSION), `YYYY-MM-DD`. */
  version: z.string(),
  /** The day of the last change, `YYYY-MM-DD`. */
  updated: daySchema,
  /** Markdown, with the support address filled in. */
  body: z.string(),
  /** The language of `title`, `summary` and `body`: the reader's, or `en`. */
  language: contentLanguageField,
});
export type ContentPage = z.infer<typeof contentPageSchema>;

/** One line of text: no line breaks, which would end an e-mail header. */
const singleLine = (min: number, max: number, field: string) =>
  z
    .string()
    .trim()
    .min(min, `${field} must be at least ${min} characters.`)
    .max(max, `${field} must be at most ${max} characters.`)
    .refine((value) => !/[\r\n]/.test(value), `${field} must be a single line.`)
    .refine((value) => !hasUnsafeCharacters(value), UNSAFE_TEXT_MESSAGE);

export const CONTACT_LIMITS = {
  name: { min: 2, max: 100 },
  subject: { min: 3, max: 150 },
  message: { min: 10, max: 5000 },
} as const;

/** `POST /api/v1/contact`. */
export const contactMessageSchema = z.object({
  name: singleLine(CONTACT_LIMITS.name.min, CONTACT_LIMITS.name.max, 'Name'),
  /** Where the reply goes. */
  email: emailSchema,
  subject: singleLine(CONTACT_LIMITS.subject.min, CONTACT_LIMITS.subject.max, 'Subject'),
  message: z
    .string()
    .trim()
    .min(
      CONTACT_LIMITS.message.min,
      `Message must be at least ${CONTACT_LIMITS.message.min} characters.`,
    )
    .max(
      CONTACT_LIMITS.message.max,
      `Message must be at most ${CONTACT_LIMITS.message.max} characters.`,
    )
    .refine((value) => !hasUnsafeCharacters(value, true), UNSAFE_TEXT_MESSAGE),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const contactReceiptSchema = z.object({
  received: z.literal(true),
  /** The stored message's id, to quote when writing again. */
  id: z.string(),
});
export type ContactReceipt = z.infer<typeof contactReceiptSchema>;
