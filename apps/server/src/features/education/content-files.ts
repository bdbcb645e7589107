import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_SLUG_PATTERN } from '@bdms/shared';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { walkBlocks, type Block } from './markdown';

/**
 * What every content file shares, English or translated (content/README.md): the problems a
 * file can have, the field rules, front matter, YAML, and the checks of a Markdown body and its
 * links.
 */

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

/** Pages of the web app that content may link to (product spec, section 2). */
export const APP_PATHS = new Set([
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
export const FAQ_PATHS = new Set(['/privacy', '/terms', '/emergency', '/register']);
const ARTICLE_PATH = /^\/articles\/([^/?#]+)$/;

export const slug = z
  .string()
  .regex(CONTENT_SLUG_PATTERN, 'must be kebab-case (lower-case words joined by hyphens)');
export const text = (max: number) =>
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
export const day = z
  .union([z.string().trim(), z.date()], { error: 'must be a date, YYYY-MM-DD' })
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDay(value),
    'must be a date, YYYY-MM-DD',
  );

export const sourceUrl = z
  .string({ error: 'must be text' })
  .trim()
  .refine(
    (url) => /^https:\/\/[^\s/]+\.[^\s]+$/.test(url) || /^\/[^\s]*$/.test(url),
    'must be an https:// address or a path of this app such as /privacy',
  );

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

export function zodProblems(file: string, error: z.ZodError, prefix = ''): ContentProblem[] {
  return error.issues.map((issue) => ({
    file,
    where: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'front matter',
    message: issue.message,
  }));
}

export function readYaml(file: string, source: string, problems: ContentProblem[]): unknown {
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
export function checkBody(file: string, blocks: Block[], body: string, problems: ContentProblem[]) {
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

export function checkLinks(
  file: string,
  where: string,
  targets: string[],
  allowedPaths: ReadonlySet<string>,
  articleSlugs: ReadonlySet<string>,
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

export async function listMarkdown(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  } catch {
    return [];
  }
}

export async function readText(
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
