import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CONSENT_VERSION,
  CONTENT_SLUG_PATTERN,
  FAQ_CATEGORIES,
  PAGE_SLUGS,
  type FaqCategory,
} from '@bdms/shared';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { serverRoot } from '../../lib/paths';
import { countWords, linkTargets, parseMarkdown, walkBlocks, type Block } from './markdown';

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

export interface ContentProblem {
  /** Relative to the content folder, e.g. `articles/who-can-donate-blood-in-india.md`. */
  file: string;
  /** The field or part, e.g. `sources.0.url`, `front matter`, `body`. */
  where: string;
  message: string;
}

export class ContentError extends Error {
  constructor(
    readonly directory: string,
    readonly problems: readonly ContentProblem[],
  ) {
    super(
      `The content in ${directory} is invalid (content/README.md describes the format); fix and start again:\n` +
        problems
          .map(
            (problem) =>
              `  - ${problem.file}: ${problem.where ? `${problem.where}: ` : ''}${problem.message}`,
          )
          .join('\n'),
    );
    this.name = 'ContentError';
  }
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
  /** Rules that do not stop the start (reading time, the number of featured articles). */
  warnings: string[];
}

export const CONTENT_FILES = {
  categories: 'categories.yml',
  faqs: 'faqs.yml',
  articles: 'articles',
  pages: 'pages',
} as const;

/** Pages of the web app that content may link to (product spec, section 2). */
const APP_PATHS = new Set([
  '/',
  '/about',
  '/contact',
  '/help',
  '/privacy',
  '/terms',
  '/education',
  '/emergency',
  '/blood-banks',
  '/login',
  '/signin',
  '/register',
  '/forgot-password',
  '/dashboard',
  '/profile',
  '/notifications',
  '/donor/dashboard',
  '/donor/profile',
  '/donor/onboarding',
]);
/** FAQ answers link to fewer places (content/README.md "FAQs"). */
const FAQ_PATHS = new Set(['/privacy', '/terms', '/emergency', '/register']);
const ARTICLE_PATH = /^\/articles\/([^/?#]+)$/;

export const FEATURED_ARTICLES_EXPECTED = 3;
const WORDS_PER_MINUTE = 200;

const slug = z
  .string()
  .regex(CONTENT_SLUG_PATTERN, 'must be kebab-case (lower-case words joined by hyphens)');
const text = (max: number) =>
  z
    .string({ error: 'must be text (quote it in YAML if it contains a colon)' })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

function isRealDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** YAML 1.2 parsers read an unquoted date as text, YAML 1.1 ones as a Date: both give the day. */
const day = z
  .union([z.string().trim(), z.date()], { error: 'must be a date, YYYY-MM-DD' })
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDay(value),
    'must be a date, YYYY-MM-DD',
  );

const sourceUrl = z
  .string({ error: 'must be text' })
  .trim()
  .refine(
    (url) => /^https:\/\/[^\s/]+\.[^\s]+$/.test(url) || /^\/[^\s]*$/.test(url),
    'must be an https:// address or a path of this app such as /privacy',
  );

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

/** SHA-256 of the stored fields: a row is rewritten only when this changes. */
export function contentHash(value: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** Front matter between `---` lines at the very top, and the rest. */
export function splitFrontMatter(source: string): { frontMatter: string; body: string } | null {
  const normalized = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) return null;
  const end = normalized.indexOf('\n---', 3);
  if (end === -1) return null;
  const afterMarker = normalized.slice(end + 4);
  if (afterMarker !== '' && !afterMarker.startsWith('\n')) return null;
  return {
    frontMatter: normalized.slice(4, end + 1),
    body: afterMarker.replace(/^\n+/, '').trimEnd(),
  };
}

function zodProblems(file: string, error: z.ZodError, prefix = ''): ContentProblem[] {
  return error.issues.map((issue) => ({
    file,
    where: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'front matter',
    message: issue.message,
  }));
}

function readYaml(file: string, source: string, problems: ContentProblem[]): unknown {
  try {
    return parseYaml(source, { uniqueKeys: true, prettyErrors: true });
  } catch (error) {
    problems.push({
      file,
      where: 'YAML',
      message: (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim(),
    });
    return undefined;
  }
}

/** Structural rules of a body: `##`/`###` only, no raw HTML. */
function checkBody(file: string, blocks: Block[], body: string, problems: ContentProblem[]) {
  if (body.trim() === '') problems.push({ file, where: 'body', message: 'is empty' });
  for (const block of walkBlocks(blocks)) {
    if (block.type === 'heading' && (block.level < 2 || block.level > 3)) {
      problems.push({
        file,
        where: 'body',
        message: `heading "${block.text}" must use ## or ### (the title is the only first-level heading)`,
      });
    }
  }
  const html = /<\/?[a-zA-Z][^>]*>|<!--/.exec(body.replace(/`[^`]*`/g, ''));
  if (html) {
    problems.push({
      file,
      where: 'body',
      message: `raw HTML is not allowed (found ${html[0].slice(0, 40)})`,
    });
  }
}

function checkLinks(
  file: string,
  where: string,
  targets: string[],
  allowedPaths: Set<string>,
  articleSlugs: Set<string>,
  problems: ContentProblem[],
) {
  for (const target of targets) {
    if (/^https:\/\/\S+$/.test(target) || /^mailto:\S+@\S+$/.test(target)) continue;
    const pathOnly = target.replace(/[?#].*$/, '');
    const article = ARTICLE_PATH.exec(pathOnly);
    if (article) {
      if (!articleSlugs.has(article[1]!)) {
        problems.push({
          file,
          where,
          message: `links to ${target}, but there is no article with that slug`,
        });
      }
      continue;
    }
    if (!allowedPaths.has(pathOnly)) {
      problems.push({
        file,
        where,
        message: `links to ${target}: use an https:// address, /articles/<slug> or one of ${[...allowedPaths].join(', ')}`,
      });
    }
  }
}

/** Words before `## Sources`, 200 a minute, rounded up (content/README.md). */
export function readingMinutesOf(body: string): number {
  const beforeSources = body.split(/^##\s+Sources\s*$/m)[0] ?? body;
  return Math.max(1, Math.ceil(countWords(beforeSources) / WORDS_PER_MINUTE));
}

async function listMarkdown(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  } catch {
    return [];
  }
}

async function readText(
  dir: string,
  file: string,
  problems: ContentProblem[],
): Promise<string | null> {
  try {
    return await readFile(path.join(dir, file), 'utf8');
  } catch (error) {
    problems.push({
      file,
      where: '',
      message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    });
    return null;
  }
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
  const articleFiles = await listMarkdown(path.join(directory, CONTENT_FILES.articles));
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
  const pageFiles = await listMarkdown(path.join(directory, CONTENT_FILES.pages));
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

  if (problems.length > 0) throw new ContentError(directory, problems);
  return {
    directory,
    categories,
    articles: articles.map(({ file: _file, blocks: _blocks, ...article }) => article),
    faqs,
    pages,
    warnings,
  };
}
