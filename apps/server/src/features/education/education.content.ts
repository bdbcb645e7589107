import path from 'node:path';
import {
  CONSENT_VERSION,
  CONTENT_SLUG_PATTERN,
  FAQ_CATEGORIES,
  PAGE_SLUGS,
  type FaqCategory,
} from '@bdms/shared';
import { z } from 'zod';
import { serverRoot } from '../../lib/paths';
import {
  APP_PATHS,
  checkBody,
  checkLinks,
  ContentError,
  contentHash,
  day,
  FAQ_PATHS,
  listMarkdown,
  readText,
  readYaml,
  slug,
  sourceUrl,
  splitFrontMatter,
  text,
  zodProblems,
  type ContentProblem,
} from './content-files';
import {
  isTranslationFile,
  readTranslations,
  type TranslationRecord,
} from './content-translations';
import { countWords, linkTargets, parseMarkdown, type Block } from './markdown';

export { ContentError, contentHash, splitFrontMatter, type ContentProblem } from './content-files';

/**
 * Reads and checks apps/server/content (its README is the format's description). Everything is
 * validated before anything is written: a file that breaks the format stops the start with a
 * ContentError naming the file and the field. Softer rules (reading time, three featured
 * articles) only produce warnings.
 */

/** apps/server/content, found from the package root so it works from src/ and from dist/. */
export function contentDirectory(): string {
  return path.join(serverRoot(), 'content');
}

export interface CategoryRecord {
  slug: string;
  name: string;
  description: string;
  sortOrder: number;
  contentHash: string;
}

export interface ArticleRecord {
  slug: string;
  title: string;
  summary: string;
  category: string;
  body: string;
  sources: { title: string; url: string }[];
  readingMinutes: number;
  publishedAt: string;
  featured: boolean;
  contentHash: string;
}

export interface FaqRecord {
  id: string;
  question: string;
  answer: string;
  category: FaqCategory;
  sortOrder: number;
  contentHash: string;
}

export interface PageRecord {
  slug: string;
  title: string;
  summary: string;
  version: string;
  updated: string;
  body: string;
  contentHash: string;
}

export interface ContentSet {
  directory: string;
  categories: CategoryRecord[];
  articles: ArticleRecord[];
  faqs: FaqRecord[];
  pages: PageRecord[];
  /** The Spanish and Hindi texts of articles, FAQs and pages (each entry's own, if any). */
  translations: TranslationRecord[];
  /** Rules that do not stop the start (reading time, the number of featured articles). */
  warnings: string[];
}

export const CONTENT_FILES = {
  categories: 'categories.yml',
  faqs: 'faqs.yml',
  articles: 'articles',
  pages: 'pages',
} as const;

export const FEATURED_ARTICLES_EXPECTED = 3;
const WORDS_PER_MINUTE = 200;

const categorySchema = z.object({ slug, name: text(80), description: text(300) }).strict();

const articleFrontMatterSchema = z
  .object({
    slug,
    title: text(150),
    summary: text(200),
    category: slug,
    featured: z.boolean({ error: 'must be true or false' }),
    readingMinutes: z
      .number({ error: 'must be a whole number of minutes' })
      .int('must be a whole number of minutes')
      .min(1)
      .max(120),
    publishedAt: day,
    sources: z
      .array(z.object({ title: text(300), url: sourceUrl }).strict(), {
        error: 'must be a list of {title, url}',
      })
      .min(1, 'must list at least one source'),
  })
  .strict();

const faqSchema = z
  .object({
    id: slug.max(80, 'must be at most 80 characters'),
    category: z.enum(FAQ_CATEGORIES, { error: `must be one of ${FAQ_CATEGORIES.join(', ')}` }),
    question: text(300),
    answer: text(2000),
  })
  .strict();

const pageFrontMatterSchema = z
  .object({
    title: text(150),
    updated: day,
    version: z.string({ error: "must be text: quote it ('YYYY-MM-DD')" }).trim().min(1),
    summary: text(300),
  })
  .strict();

/** Words before `## Sources`, 200 a minute, rounded up (content/README.md). */
export function readingMinutesOf(body: string): number {
  const beforeSources = body.split(/^##\s+Sources\s*$/m)[0] ?? body;
  return Math.max(1, Math.ceil(countWords(beforeSources) / WORDS_PER_MINUTE));
}

/**
 * Reads the whole content folder. Throws ContentError listing every problem found (not only
 * the first), so a writer fixes them in one go.
 */
export async function readContent(directory: string = contentDirectory()): Promise<ContentSet> {
  const problems: ContentProblem[] = [];
  const warnings: string[] = [];

  // Categories.
  const categories: CategoryRecord[] = [];
  const categoriesSource = await readText(directory, CONTENT_FILES.categories, problems);
  if (categoriesSource !== null) {
    const parsed = readYaml(CONTENT_FILES.categories, categoriesSource, problems);
    if (parsed !== undefined) {
      const result = z.array(categorySchema, { error: 'must be a YAML list' }).safeParse(parsed);
      if (!result.success) problems.push(...zodProblems(CONTENT_FILES.categories, result.error));
      else {
        result.data.forEach((category, index) => {
          if (categories.some((other) => other.slug === category.slug)) {
            problems.push({
              file: CONTENT_FILES.categories,
              where: `${index}.slug`,
              message: `"${category.slug}" is listed twice`,
            });
            return;
          }
          const record = { ...category, sortOrder: index };
          categories.push({ ...record, contentHash: contentHash(record) });
        });
      }
    }
  }
  const categorySlugs = new Set(categories.map((category) => category.slug));

  // Articles: parsed first, links checked once every slug is known.
  const articleFiles = (await listMarkdown(path.join(directory, CONTENT_FILES.articles))).filter(
    (name) => !isTranslationFile(name),
  );
  if (articleFiles.length === 0) {
    problems.push({
      file: `${CONTENT_FILES.articles}/`,
      where: '',
      message: 'holds no articles (*.md)',
    });
  }
  const articles: (ArticleRecord & { file: string; blocks: Block[] })[] = [];
  for (const name of articleFiles) {
    const file = `${CONTENT_FILES.articles}/${name}`;
    const source = await readText(directory, file, problems);
    if (source === null) continue;
    const split = splitFrontMatter(source);
    if (!split) {
      problems.push({
        file,
        where: 'front matter',
        message: 'must start with YAML front matter between two --- lines',
      });
      continue;
    }
    const data = readYaml(file, split.frontMatter, problems);
    if (data === undefined) continue;
    const result = articleFrontMatterSchema.safeParse(data ?? {});
    if (!result.success) {
      problems.push(...zodProblems(file, result.error));
      continue;
    }
    const front = result.data;
    const fileSlug = name.slice(0, -'.md'.length);
    if (front.slug !== fileSlug) {
      problems.push({ file, where: 'slug', message: `must be the file name (${fileSlug})` });
    }
    if (!categorySlugs.has(front.category) && categoriesSource !== null) {
      problems.push({
        file,
        where: 'category',
        message: `"${front.category}" is not a slug of categories.yml`,
      });
    }
    const blocks = parseMarkdown(split.body);
    checkBody(file, blocks, split.body, problems);
    if (!/^##\s+Sources\s*$/m.test(split.body)) {
      problems.push({ file, where: 'body', message: 'must end with a "## Sources" section' });
    }
    const expectedMinutes = readingMinutesOf(split.body);
    if (Math.abs(expectedMinutes - front.readingMinutes) > 1) {
      warnings.push(
        `${file}: readingMinutes is ${front.readingMinutes}, but the text reads in about ${expectedMinutes}`,
      );
    }
    const record = {
      slug: front.slug,
      title: front.title,
      summary: front.summary,
      category: front.category,
      body: split.body,
      sources: front.sources,
      readingMinutes: front.readingMinutes,
      publishedAt: front.publishedAt,
      featured: front.featured,
    };
    articles.push({ ...record, contentHash: contentHash(record), file, blocks });
  }
  // File names, not parsed slugs: a broken article must not also break every link to it.
  const articleSlugs = new Set(articleFiles.map((name) => name.slice(0, -'.md'.length)));
  for (const article of articles) {
    checkLinks(
      article.file,
      'body',
      linkTargets(article.blocks),
      APP_PATHS,
      articleSlugs,
      problems,
    );
    article.sources.forEach((source, index) => {
      if (source.url.startsWith('/'))
        checkLinks(
          article.file,
          `sources.${index}.url`,
          [source.url],
          APP_PATHS,
          articleSlugs,
          problems,
        );
    });
  }
  const featured = articles.filter((article) => article.featured).length;
  if (articles.length > 0 && featured !== FEATURED_ARTICLES_EXPECTED) {
    warnings.push(
      `${featured} articles are featured; the education page expects ${FEATURED_ARTICLES_EXPECTED}`,
    );
  }

  // FAQs.
  const faqs: FaqRecord[] = [];
  const faqsSource = await readText(directory, CONTENT_FILES.faqs, problems);
  if (faqsSource !== null) {
    const parsed = readYaml(CONTENT_FILES.faqs, faqsSource, problems);
    if (parsed !== undefined) {
      if (!Array.isArray(parsed)) {
        problems.push({ file: CONTENT_FILES.faqs, where: '', message: 'must be a YAML list' });
      } else {
        parsed.forEach((item: unknown, index) => {
          const result = faqSchema.safeParse(item);
          if (!result.success) {
            const id = (item as { id?: unknown } | null)?.id;
            problems.push(
              ...zodProblems(
                CONTENT_FILES.faqs,
                result.error,
                typeof id === 'string' ? id : String(index),
              ),
            );
            return;
          }
          const faq = result.data;
          if (faqs.some((other) => other.id === faq.id)) {
            problems.push({
              file: CONTENT_FILES.faqs,
              where: faq.id,
              message: 'this id is used twice',
            });
            return;
          }
          checkLinks(
            CONTENT_FILES.faqs,
            `${faq.id}.answer`,
            linkTargets(parseMarkdown(faq.answer)),
            FAQ_PATHS,
            articleSlugs,
            problems,
          );
          const record = { ...faq, sortOrder: index };
          faqs.push({ ...record, contentHash: contentHash(record) });
        });
      }
    }
  }

  // Pages: privacy and terms are required; any other pages/<slug>.md is served too.
  const pageFiles = (await listMarkdown(path.join(directory, CONTENT_FILES.pages))).filter(
    (name) => !isTranslationFile(name),
  );
  const pages: PageRecord[] = [];
  for (const required of PAGE_SLUGS) {
    if (!pageFiles.includes(`${required}.md`)) {
      problems.push({
        file: `${CONTENT_FILES.pages}/${required}.md`,
        where: '',
        message: 'is missing',
      });
    }
  }
  for (const name of pageFiles) {
    const file = `${CONTENT_FILES.pages}/${name}`;
    const pageSlug = name.slice(0, -'.md'.length);
    if (!CONTENT_SLUG_PATTERN.test(pageSlug)) {
      problems.push({ file, where: '', message: 'the file name must be kebab-case' });
      continue;
    }
    const source = await readText(directory, file, problems);
    if (source === null) continue;
    const split = splitFrontMatter(source);
    if (!split) {
      problems.push({
        file,
        where: 'front matter',
        message: 'must start with YAML front matter between two --- lines',
      });
      continue;
    }
    const data = readYaml(file, split.frontMatter, problems);
    if (data === undefined) continue;
    const result = pageFrontMatterSchema.safeParse(data ?? {});
    if (!result.success) {
      problems.push(...zodProblems(file, result.error));
      continue;
    }
    const front = result.data;
    if ((PAGE_SLUGS as readonly string[]).includes(pageSlug) && front.version !== CONSENT_VERSION) {
      problems.push({
        file,
        where: 'version',
        message: `must equal CONSENT_VERSION in packages/shared/src/auth.ts (${CONSENT_VERSION}), the version donors consent to`,
      });
    }
    const blocks = parseMarkdown(split.body);
    checkBody(file, blocks, split.body, problems);
    checkLinks(file, 'body', linkTargets(blocks), APP_PATHS, articleSlugs, problems);
    const record = {
      slug: pageSlug,
      title: front.title,
      summary: front.summary,
      version: front.version,
      updated: front.updated,
      body: split.body,
    };
    pages.push({ ...record, contentHash: contentHash(record) });
  }

  const translations = await readTranslations(
    directory,
    {
      articles,
      faqIds: new Set(faqs.map((faq) => faq.id)),
      pages,
      articleSlugs,
    },
    problems,
    warnings,
  );

  if (problems.length > 0) throw new ContentError(directory, problems);
  return {
    directory,
    categories,
    articles: articles.map(({ file: _file, blocks: _blocks, ...article }) => article),
    faqs,
    pages,
    translations,
    warnings,
  };
}
