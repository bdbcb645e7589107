import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CONSENT_VERSION } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contentTranslations } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { contentDirectory, ContentError, readContent } from './education.content';
import { loadContent } from './education.loader';

/**
 * Translations of the content (issue #15): each article, FAQ and page in Hindi or Spanish when
 * its file exists, else in English, entry by entry, with `language` saying which. The fixtures
 * below replace the real translations in a copy of the content, so these tests do not depend on
 * how much has been translated.
 */

const SLUG = 'who-can-donate-blood-in-india';
const UNTRANSLATED = 'blood-types-and-compatibility';
const HINDI_TITLE = 'भारत में कौन रक्तदान कर सकता है (परीक्षण)';
const HINDI_ARTICLE = `---
slug: ${SLUG}
title: ${HINDI_TITLE}
summary: उम्र, वज़न और हीमोग्लोबिन के बुनियादी नियम।
---

ज़्यादातर स्वस्थ वयस्क रक्तदान कर सकते हैं। हीमोग्लोबिन कम से कम 12.5 g/dL होना चाहिए। पढ़ें [आयरन और आपका हीमोग्लोबिन](/articles/iron-and-your-haemoglobin)।

## स्रोत

- [National Blood Transfusion Council](https://nbtc.naco.gov.in/)
`;
const SPANISH_ARTICLE = `---
slug: iron-and-your-haemoglobin
title: El hierro y tu hemoglobina
summary: Por qué se revisa la hemoglobina antes de donar.
readingMinutes: 4
---

Antes de donando sangre, el centro revisa tu hemoglobina.

## Fuentes

- [NBTC](https://nbtc.naco.gov.in/)
`;
const HINDI_FAQS = `- id: who-can-donate
  question: रक्तदान कौन कर सकता है?
  answer: >-
    18 से 65 साल के ज़्यादातर स्वस्थ लोग। देखें
    [भारत में कौन रक्तदान कर सकता है](/articles/${SLUG})।
`;
const HINDI_PRIVACY = `---
title: गोपनीयता नीति
summary: हम आपकी कौन-सी जानकारी रखते हैं और क्यों।
version: '${CONSENT_VERSION}'
---

आपका फ़ोन नंबर अजनबियों को कभी नहीं दिखता। सवाल हों तो {{supportEmail}} पर लिखें।
`;

const TRANSLATED_FILE = /\.(?:es|hi)\.(?:md|yml)$/;

/** A copy of the content with only this file's translations. */
async function copyContent(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-translations-'));
  await fs.cp(contentDirectory(), dir, {
    recursive: true,
    filter: (source) => !TRANSLATED_FILE.test(source),
  });
  await fs.writeFile(path.join(dir, `articles/${SLUG}.hi.md`), HINDI_ARTICLE);
  await fs.writeFile(path.join(dir, 'articles/iron-and-your-haemoglobin.es.md'), SPANISH_ARTICLE);
  await fs.writeFile(path.join(dir, 'faqs.hi.yml'), HINDI_FAQS);
  await fs.writeFile(path.join(dir, 'pages/privacy.hi.md'), HINDI_PRIVACY);
  return dir;
}

describe('readContent: translations', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await copyContent();
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => fs.writeFile(path.join(dir, file), text);
  async function problems(): Promise<string> {
    const error = await readContent(dir).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ContentError);
    return (error as ContentError).message;
  }

  it('reads each translation beside its English entry, and only the translated entries', async () => {
    const content = await readContent(dir);
    expect(content.articles).toHaveLength(16);
    expect(content.warnings).toEqual([]);
    const keys = content.translations.map((t) => `${t.kind}:${t.key}:${t.language}`).sort();
    expect(keys).toEqual([
      'article:iron-and-your-haemoglobin:es',
      `article:${SLUG}:hi`,
      'faq:who-can-donate:hi',
      'page:privacy:hi',
    ]);
    const article = content.translations.find((t) => t.kind === 'article' && t.language === 'hi')!;
    expect(article).toMatchObject({ title: HINDI_TITLE, sources: null, readingMinutes: null });
    expect(article.body).toContain('हीमोग्लोबिन');
    expect(content.translations.find((t) => t.kind === 'faq')).toMatchObject({
      title: 'रक्तदान कौन कर सकता है?',
      summary: '',
    });
  });

  it('stops on a translation of nothing, an unknown language, a changed source and a bad link', async () => {
    await write(
      'articles/no-such-article.hi.md',
      HINDI_ARTICLE.replace(`slug: ${SLUG}`, 'slug: no-such-article'),
    );
    await write('articles/iron-and-your-haemoglobin.fr.md', SPANISH_ARTICLE);
    await write(
      `articles/${SLUG}.es.md`,
      HINDI_ARTICLE.replace(
        '---\n\n',
        'sources:\n  - title: Otra fuente\n    url: https://example.org/\n---\n\n',
      ).replace('(/articles/iron-and-your-haemoglobin)', '(/articles/missing)'),
    );
    await write('faqs.es.yml', '- id: no-such-faq\n  question: ¿Qué?\n  answer: Nada.\n');
    const message = await problems();
    expect(message).toContain(
      'articles/no-such-article.hi.md: translates articles/no-such-article.md, which does not exist',
    );
    expect(message).toContain(
      'articles/iron-and-your-haemoglobin.fr.md: "fr" is not a language the content is translated into (es, hi)',
    );
    expect(message).toContain(`articles/${SLUG}.es.md: sources: must list the English sources`);
    expect(message).toContain(`articles/${SLUG}.es.md: body: links to /articles/missing`);
    expect(message).toContain('faqs.es.yml: no-such-faq: there is no FAQ with this id in faqs.yml');
  });

  it('skips a policy translation of another version, with a warning: the English is served', async () => {
    await write('pages/privacy.hi.md', HINDI_PRIVACY.replace(CONSENT_VERSION, '2020-01-01'));
    const content = await readContent(dir);
    expect(content.translations.some((t) => t.kind === 'page')).toBe(false);
    expect(content.warnings).toEqual([
      `pages/privacy.hi.md: translates version 2020-01-01, but pages/privacy.md is version ${CONSENT_VERSION}; the English is served until the translation is updated`,
    ]);
  });
});

describe('the real content', () => {
  it.each(['hi', 'es'])(
    'has a %s translation of every article, FAQ and policy page, without a warning',
    async (language) => {
      const content = await readContent();
      const translated = (kind: string) =>
        content.translations
          .filter((t) => t.kind === kind && t.language === language)
          .map((t) => t.key)
          .sort();
      expect(translated('article')).toEqual(content.articles.map((a) => a.slug).sort());
      expect(translated('faq')).toEqual(content.faqs.map((f) => f.id).sort());
      expect(translated('page')).toEqual(['privacy', 'terms']);
      expect(content.warnings).toEqual([]);
    },
  );

  it('keeps every number and link of the English in each translation', async () => {
    const content = await readContent();
    // Facts must not drift in translation: the same figures (12.5 is 12,5 in Spanish) and links.
    const numbers = (text: string) =>
      (
        text
          .replace(/\(https?:[^)]*\)/g, '')
          .replace(/(\d),(\d)/g, '$1.$2')
          .match(/\d+(?:\.\d+)?/g) ?? []
      )
        .sort()
        .join(' ');
    const links = (text: string) => (text.match(/\]\(([^)]+)\)/g) ?? []).sort().join(' ');
    const english = new Map<string, string>([
      ...content.articles.map((a) => [`article:${a.slug}`, a.body] as const),
      ...content.pages.map((p) => [`page:${p.slug}`, p.body] as const),
      ...content.faqs.map((f) => [`faq:${f.id}`, `${f.question} ${f.answer}`] as const),
    ]);
    for (const t of content.translations) {
      const source = english.get(`${t.kind}:${t.key}`)!;
      const text = t.kind === 'faq' ? `${t.title} ${t.body}` : t.body;
      const where = `${t.kind} ${t.key} (${t.language})`;
      expect(numbers(text), where).toBe(numbers(source));
      expect(links(text), where).toBe(links(source));
    }
  });
});

describe('the education API in the reader’s language', () => {
  let testDb: TestDatabase;
  let subject: TestApp;
  let dir: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dir = await copyContent();
  });
  beforeEach(async () => {
    await loadContent(testDb.database.db, { directory: dir });
    subject = await createTestApp({
      database: testDb.database,
      env: { SUPPORT_EMAIL: 'help@blood.example.in' },
      services: { backgroundJobs: false },
    });
  });
  afterEach(async () => {
    await subject.close();
    await testDb.truncate();
  });
  afterAll(async () => {
    await testDb?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const get = (url: string) => subject.app.inject({ method: 'GET', url });
  const data = async (url: string) => {
    const reply = await get(url);
    expect(reply.statusCode, url).toBe(200);
    return reply.json().data;
  };
  const bySlug = (items: { slug: string }[], slug: string) =>
    items.find((item) => item.slug === slug) as Record<string, unknown>;

  it('lists each article in Hindi when translated and in English, marked en, when not', async () => {
    const { items } = await data('/api/public/education/content?lang=hi&pageSize=100');
    expect(items).toHaveLength(16);
    expect(bySlug(items, SLUG)).toMatchObject({ title: HINDI_TITLE, language: 'hi' });
    expect(bySlug(items, UNTRANSLATED)).toMatchObject({
      title: 'Blood types and who can receive from whom',
      language: 'en',
    });
    // The Spanish translation is not a Hindi reader's.
    expect(bySlug(items, 'iron-and-your-haemoglobin')).toMatchObject({
      title: 'Iron and your haemoglobin',
      language: 'en',
    });
    const spanish = await data('/api/public/education/content?lang=es&pageSize=100');
    expect(bySlug(spanish.items, 'iron-and-your-haemoglobin')).toMatchObject({
      title: 'El hierro y tu hemoglobina',
      readingMinutes: 4,
      language: 'es',
    });
    expect(bySlug(spanish.items, SLUG)).toMatchObject({ language: 'en' });
  });

  it('serves an article in Hindi with the English article’s sources, date and counters', async () => {
    const english = await data(`/api/public/education/content/${SLUG}`);
    const hindi = await data(`/api/public/education/content/${SLUG}?lang=hi`);
    expect(english).toMatchObject({ title: 'Who can donate blood in India', language: 'en' });
    expect(hindi).toMatchObject({
      id: english.id,
      title: HINDI_TITLE,
      language: 'hi',
      category: english.category,
      publishedAt: english.publishedAt,
      readingMinutes: english.readingMinutes,
      sources: english.sources,
    });
    expect(hindi.body).toContain('हीमोग्लोबिन कम से कम 12.5 g/dL');
    // One article, one counter: the Hindi read counted too (another address).
    const again = await subject.app.inject({
      url: `/api/public/education/content/${SLUG}?lang=hi`,
      remoteAddress: '203.0.113.7',
    });
    expect(again.json().data.views).toBe(2);
    const fallback = await data(`/api/public/education/content/${UNTRANSLATED}?lang=hi`);
    expect(fallback).toMatchObject({ language: 'en' });
    expect(fallback.body).toContain('## Sources');
  });

  it('reads lang as a served language or English: hi-IN is Hindi, fr and none are English', async () => {
    expect((await data(`/api/public/education/content/${SLUG}?lang=hi-IN`)).language).toBe('hi');
    for (const query of ['?lang=fr', '?lang=', '']) {
      expect((await data(`/api/public/education/content/${SLUG}${query}`)).language).toBe('en');
    }
  });

  it('serves each FAQ in Hindi or, untranslated, in English', async () => {
    const { items } = await data('/api/public/education/faqs?lang=hi');
    expect(items).toHaveLength(32);
    const translated = items.filter((faq: { language: string }) => faq.language === 'hi');
    expect(translated.map((faq: { id: string }) => faq.id)).toEqual(['who-can-donate']);
    expect(translated[0].question).toBe('रक्तदान कौन कर सकता है?');
    expect(items.find((faq: { id: string }) => faq.id === 'forgot-password')).toMatchObject({
      language: 'en',
      question: expect.stringMatching(/password/i),
    });
    expect(await data('/api/public/education/faqs/who-can-donate?lang=hi')).toMatchObject({
      question: 'रक्तदान कौन कर सकता है?',
      language: 'hi',
    });
  });

  it('serves the Hindi privacy policy with the support address, and the English terms', async () => {
    const privacy = await data('/api/public/pages/privacy?lang=hi');
    expect(privacy).toMatchObject({
      title: 'गोपनीयता नीति',
      version: CONSENT_VERSION,
      language: 'hi',
    });
    expect(privacy.body).toContain('help@blood.example.in');
    expect(await data('/api/public/pages/terms?lang=hi')).toMatchObject({ language: 'en' });
  });

  it('keeps each language apart in every cache: lists, one FAQ, pages, featured and popular', async () => {
    for (const url of [
      '/api/public/education/featured',
      '/api/public/education/popular?limit=20',
      '/api/public/education/faqs',
      '/api/public/education/faqs/who-can-donate',
      '/api/public/pages/privacy',
      '/api/public/education/content?pageSize=100',
    ]) {
      const join = url.includes('?') ? '&' : '?';
      // English first, then Hindi at once (within the reply cache's and micro-cache's life).
      const english = await get(url);
      const hindi = await get(`${url}${join}lang=hi`);
      const englishAgain = await get(url);
      expect(hindi.body, url).toMatch(/"language":"hi"/);
      expect(english.body, url).not.toMatch(/"language":"hi"/);
      expect(hindi.headers.etag, url).not.toBe(english.headers.etag);
      expect(englishAgain.body, url).toBe(english.body);
    }
  });

  it('searches the Hindi text for Hindi words, and the English for English words', async () => {
    const hindi = await data(
      `/api/public/education/content?lang=hi&q=${encodeURIComponent('रक्तदान')}`,
    );
    expect(hindi.items.map((item: { slug: string }) => item.slug)).toEqual([SLUG]);
    expect(hindi.items[0].language).toBe('hi');
    // The English text knows no Hindi word.
    const english = await data(`/api/public/education/content?q=${encodeURIComponent('रक्तदान')}`);
    expect(english.total).toBe(0);
    // A Hindi reader typing English still finds the English articles.
    const typedEnglish = await data('/api/public/education/content?lang=hi&q=thalassaemia');
    expect(typedEnglish.items.map((item: { slug: string }) => item.slug)).toContain(
      'thalassaemia-and-regular-transfusions',
    );
    const faqs = await data(`/api/public/education/faqs?lang=hi&q=${encodeURIComponent('रक्तदान')}`);
    expect(faqs.items.map((faq: { id: string }) => faq.id)).toEqual(['who-can-donate']);
    // Spanish is stemmed: "donar" finds "donando".
    const spanish = await data('/api/public/education/content?lang=es&q=donar');
    expect(spanish.items.map((item: { slug: string }) => item.slug)).toContain(
      'iron-and-your-haemoglobin',
    );
  });

  it('deletes a translation removed from the files: the entry falls back to English', async () => {
    const translated = () =>
      testDb.database.db
        .select({ key: contentTranslations.key })
        .from(contentTranslations)
        .where(
          and(eq(contentTranslations.kind, 'article'), eq(contentTranslations.language, 'hi')),
        );
    expect(await translated()).toEqual([{ key: SLUG }]);
    const edited = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-translations-'));
    try {
      await fs.cp(dir, edited, { recursive: true });
      await fs.rm(path.join(edited, `articles/${SLUG}.hi.md`));
      const result = await loadContent(testDb.database.db, { directory: edited });
      expect(result.written).toEqual({ inserted: 0, updated: 0, unpublished: 1 });
      expect(await translated()).toEqual([]);
      // A second load of the same files writes nothing.
      const again = await loadContent(testDb.database.db, { directory: edited });
      expect(again.written).toEqual({ inserted: 0, updated: 0, unpublished: 0 });
    } finally {
      await fs.rm(edited, { recursive: true, force: true });
    }
  });
});
