import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TRANSLATION_LANGUAGES, type ContentTranslationLanguage } from '@bdms/shared';
import { z } from 'zod';
import type { ContentSourceValue } from '../../db/schema';
import {
  APP_PATHS,
  checkBody,
  checkLinks,
  contentHash,
  FAQ_PATHS,
  listMarkdown,
  readText,
  readYaml,
  slug,
  splitFrontMatter,
  text,
  zodProblems,
  type ContentProblem,
} from './content-files';
import { linkTargets, parseMarkdown } from './markdown';

/**
 * Reads the translations of the content (content/README.md "Translations"): beside each English
 * file, a file per language (`articles/<slug>.hi.md`, `faqs.hi.yml`, `pages/privacy.hi.md`).
 * A translation only replaces the words of its entry; everything else (category, date, featured,
 * counters, the policy's version) is the English entry's. Every entry falls back to English on
 * its own: an article without `<slug>.es.md` is served in English to a Spanish reader.
 */

export type TranslationKind = 'article' | 'faq' | 'page';

export interface TranslationRecord {
  kind: TranslationKind;
  /** The English entry's slug (articles, pages) or id (FAQs). */
  key: string;
  language: ContentTranslationLanguage;
  /** An article's or page's title, an FAQ's question. */
  title: string;
  /** An article's or page's summary; '' for FAQs. */
  summary: string;
  /** An article's or page's Markdown body, an FAQ's answer. */
  body: string;
  /** Articles: the sources with translated titles, when the file lists them. */
  sources: ContentSourceValue[] | null;
  /** Articles: the translation's own reading time, when the file gives one. */
  readingMinutes: number | null;
  contentHash: string;
}

/** What the translations are checked against: the English entries, already read. */
export interface EnglishEntries {
  articles: { slug: string; sources: ContentSourceValue[] }[];
  faqIds: ReadonlySet<string>;
  pages: { slug: string; version: string }[];
  /** Every article file's slug (links to them are valid). */
  articleSlugs: ReadonlySet<string>;
}

/** `<name>.<language>.md`: a translation of `<name>.md`. */
const TRANSLATED_MARKDOWN = /^([^.]+)\.([^.]+)\.md$/;
const TRANSLATED_FAQS = /^faqs\.([^.]+)\.yml$/;

/** Whether a Markdown file name is a translation (`<slug>.<language>.md`), not an English entry. */
export function isTranslationFile(name: string): boolean {
  return TRANSLATED_MARKDOWN.test(name);
}

function isTranslationLanguage(value: string): value is ContentTranslationLanguage {
  return (CONTENT_TRANSLATION_LANGUAGES as readonly string[]).includes(value);
}

const languageProblem = (file: string, language: string): ContentProblem => ({
  file,
  where: '',
  message: `"${language}" is not a language the content is translated into (${CONTENT_TRANSLATION_LANGUAGES.join(', ')})`,
});

const articleTranslationSchema = z
  .object({
    slug,
    title: text(150),
    summary: text(200),
    readingMinutes: z
      .number({ error: 'must be a whole number of minutes' })
      .int('must be a whole number of minutes')
      .min(1)
      .max(120)
      .optional(),
    /** The English sources in the same order, with the same addresses; titles may be translated. */
    sources: z
      .array(z.object({ title: text(300), url: z.string().trim() }).strict(), {
        error: 'must be a list of {title, url}',
      })
      .optional(),
  })
  .strict();

const faqTranslationSchema = z
  .object({ id: slug.max(80), question: text(300), answer: text(2000) })
  .strict();

const pageTranslationSchema = z
  .object({
    title: text(150),
    summary: text(300),
    /** The English page's version this text translates: a policy is served only when current. */
    version: z.string({ error: "must be text: quote it ('YYYY-MM-DD')" }).trim().min(1),
  })
  .strict();

function record(fields: Omit<TranslationRecord, 'contentHash'>): TranslationRecord {
  return { ...fields, contentHash: contentHash({ ...fields }) };
}

async function readMarkdownTranslation(
  directory: string,
  folder: string,
  name: string,
  problems: ContentProblem[],
): Promise<{
  file: string;
  key: string;
  language: ContentTranslationLanguage;
  data: unknown;
  body: string;
} | null> {
  const file = `${folder}/${name}`;
  const [, key, language] = TRANSLATED_MARKDOWN.exec(name)!;
  if (!isTranslationLanguage(language!)) {
    problems.push(languageProblem(file, language!));
    return null;
  }
  const source = await readText(directory, file, problems);
  if (source === null) return null;
  const split = splitFrontMatter(source);
  if (!split) {
    problems.push({
      file,
      where: 'front matter',
      message: 'must start with YAML front matter between two --- lines',
    });
    return null;
  }
  const data = readYaml(file, split.frontMatter, problems);
  if (data === undefined) return null;
  return { file, key: key!, language: language!, data: data ?? {}, body: split.body };
}

function checkTranslatedBody(
  file: string,
  body: string,
  allowedPaths: ReadonlySet<string>,
  english: EnglishEntries,
  problems: ContentProblem[],
) {
  const blocks = parseMarkdown(body);
  checkBody(file, blocks, body, problems);
  checkLinks(file, 'body', linkTargets(blocks), allowedPaths, english.articleSlugs, problems);
}

async function readArticleTranslations(
  directory: string,
  english: EnglishEntries,
  problems: ContentProblem[],
): Promise<TranslationRecord[]> {
  const records: TranslationRecord[] = [];
  const bySlug = new Map(english.articles.map((article) => [article.slug, article]));
  const names = (await listMarkdown(path.join(directory, 'articles'))).filter((name) =>
    TRANSLATED_MARKDOWN.test(name),
  );
  for (const name of names) {
    const read = await readMarkdownTranslation(directory, 'articles', name, problems);
    if (!read) continue;
    const { file, key, language } = read;
    const result = articleTranslationSchema.safeParse(read.data);
    if (!result.success) {
      problems.push(...zodProblems(file, result.error));
      continue;
    }
    const front = result.data;
    if (front.slug !== key) {
      problems.push({
        file,
        where: 'slug',
        message: `must be the English article's slug (${key})`,
      });
    }
    const original = bySlug.get(key);
    if (!original) {
      problems.push({
        file,
        where: '',
        message: `translates articles/${key}.md, which does not exist`,
      });
      continue;
    }
    if (front.sources) {
      const same =
        front.sources.length === original.sources.length &&
        front.sources.every((source, index) => source.url === original.sources[index]!.url);
      if (!same) {
        problems.push({
          file,
          where: 'sources',
          message: `must list the English sources in the same order with the same url (${original.sources.map((source) => source.url).join(', ')})`,
        });
      }
    }
    checkTranslatedBody(file, read.body, APP_PATHS, english, problems);
    records.push(
      record({
        kind: 'article',
        key,
        language,
        title: front.title,
        summary: front.summary,
        body: read.body,
        sources: front.sources ?? null,
        readingMinutes: front.readingMinutes ?? null,
      }),
    );
  }
  return records;
}

async function readPageTranslations(
  directory: string,
  english: EnglishEntries,
  problems: ContentProblem[],
  warnings: string[],
): Promise<TranslationRecord[]> {
  const records: TranslationRecord[] = [];
  const bySlug = new Map(english.pages.map((page) => [page.slug, page]));
  const names = (await listMarkdown(path.join(directory, 'pages'))).filter((name) =>
    TRANSLATED_MARKDOWN.test(name),
  );
  for (const name of names) {
    const read = await readMarkdownTranslation(directory, 'pages', name, problems);
    if (!read) continue;
    const { file, key, language } = read;
    const result = pageTranslationSchema.safeParse(read.data);
    if (!result.success) {
      problems.push(...zodProblems(file, result.error));
      continue;
    }
    const original = bySlug.get(key);
    if (!original) {
      problems.push({
        file,
        where: '',
        message: `translates pages/${key}.md, which does not exist`,
      });
      continue;
    }
    checkTranslatedBody(file, read.body, APP_PATHS, english, problems);
    // A reader consents to the version of the policy: an older translation must not stand in
    // for a newer English text. It is skipped, and the English is served until it is updated.
    if (result.data.version !== original.version) {
      warnings.push(
        `${file}: translates version ${result.data.version}, but pages/${key}.md is version ${original.version}; the English is served until the translation is updated`,
      );
      continue;
    }
    records.push(
      record({
        kind: 'page',
        key,
        language,
        title: result.data.title,
        summary: result.data.summary,
        body: read.body,
        sources: null,
        readingMinutes: null,
      }),
    );
  }
  return records;
}

async function readFaqTranslations(
  directory: string,
  english: EnglishEntries,
  problems: ContentProblem[],
): Promise<TranslationRecord[]> {
  const records: TranslationRecord[] = [];
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => TRANSLATED_FAQS.test(name)).sort();
  } catch {
    names = [];
  }
  for (const file of names) {
    const language = TRANSLATED_FAQS.exec(file)![1]!;
    if (!isTranslationLanguage(language)) {
      problems.push(languageProblem(file, language));
      continue;
    }
    const source = await readText(directory, file, problems);
    if (source === null) continue;
    const parsed = readYaml(file, source, problems);
    if (parsed === undefined) continue;
    if (!Array.isArray(parsed)) {
      problems.push({ file, where: '', message: 'must be a YAML list' });
      continue;
    }
    const seen = new Set<string>();
    parsed.forEach((item: unknown, index) => {
      const result = faqTranslationSchema.safeParse(item);
      if (!result.success) {
        const id = (item as { id?: unknown } | null)?.id;
        problems.push(
          ...zodProblems(file, result.error, typeof id === 'string' ? id : String(index)),
        );
        return;
      }
      const faq = result.data;
      if (seen.has(faq.id)) {
        problems.push({ file, where: faq.id, message: 'this id is used twice' });
        return;
      }
      seen.add(faq.id);
      if (!english.faqIds.has(faq.id)) {
        problems.push({ file, where: faq.id, message: 'there is no FAQ with this id in faqs.yml' });
        return;
      }
      checkLinks(
        file,
        `${faq.id}.answer`,
        linkTargets(parseMarkdown(faq.answer)),
        FAQ_PATHS,
        english.articleSlugs,
        problems,
      );
      records.push(
        record({
          kind: 'faq',
          key: faq.id,
          language,
          title: faq.question,
          summary: '',
          body: faq.answer,
          sources: null,
          readingMinutes: null,
        }),
      );
    });
  }
  return records;
}

/** Every translation, checked against the English entries; problems and warnings are added to. */
export async function readTranslations(
  directory: string,
  english: EnglishEntries,
  problems: ContentProblem[],
  warnings: string[],
): Promise<TranslationRecord[]> {
  return [
    ...(await readArticleTranslations(directory, english, problems)),
    ...(await readFaqTranslations(directory, english, problems)),
    ...(await readPageTranslations(directory, english, problems, warnings)),
  ];
}
