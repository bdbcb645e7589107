import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  contentPageSchema,
  educationCategorySchema,
  educationContentItemSchema,
  educationContentSchema,
  faqSchema,
} from '@bdms/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeRows } from '../../db/client';
import { educationContent, faqs } from '../../db/schema';
import { pdfText } from '../../test/pdf-text';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { contentDirectory, ContentError } from './education.content';
import { loadContent } from './education.loader';
import { EDUCATION_RATE_LIMITS } from './education.routes';

const SUPPORT_EMAIL = 'help@blood.example.in';
const PUBLIC_URL = 'https://blood.example.in';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  await loadContent(db());
  subject = await createTestApp({
    database: testDb.database,
    env: { SUPPORT_EMAIL, PUBLIC_URL },
    services: { backgroundJobs: false },
  });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
const get = (url: string, headers: Record<string, string> = {}) =>
  subject.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  subject.app.inject({ method: 'POST', url, payload: payload as never, headers });

/** Every content row's version: unchanged xmin means the row was not rewritten. */
async function rowVersions(): Promise<string[]> {
  const rows = await executeRows<{ v: string }>(
    db(),
    sql`select 'c:' || slug || ':' || xmin::text as v from education_content
        union all select 'f:' || id || ':' || xmin::text from faqs
        union all select 'k:' || slug || ':' || xmin::text from education_categories
        union all select 'p:' || slug || ':' || xmin::text from pages
        union all select 't:' || kind || ':' || key || ':' || language || ':' || xmin::text
          from content_translations
        order by 1`,
  );
  return rows.map((row) => row.v);
}

describe('loadContent', () => {
  it('loads the real content, then writes nothing on a second load and keeps the counts', async () => {
    await testDb.truncate();
    const first = await loadContent(db());
    expect(first).toMatchObject({ articles: 16, faqs: 32, categories: 9, pages: 2, warnings: [] });
    expect(first.translations).toBeGreaterThan(0);
    expect(first.written).toEqual({
      inserted: 16 + 32 + 9 + 2 + first.translations,
      updated: 0,
      unpublished: 0,
    });

    await db()
      .update(educationContent)
      .set({ views: 7, downloads: 3 })
      .where(eq(educationContent.slug, 'iron-and-your-haemoglobin'));
    await db()
      .update(faqs)
      .set({ helpfulCount: 4, notHelpfulCount: 1 })
      .where(eq(faqs.id, 'who-can-donate'));
    const before = await rowVersions();

    const second = await loadContent(db());
    expect(second.written).toEqual({ inserted: 0, updated: 0, unpublished: 0 });
    expect(await rowVersions()).toEqual(before);
    const [article] = await db()
      .select()
      .from(educationContent)
      .where(eq(educationContent.slug, 'iron-and-your-haemoglobin'));
    expect(article).toMatchObject({ views: 7, downloads: 3 });
    console.info(
      `content load: first ${Math.round(first.ms)} ms (${first.written.inserted} rows), second ${Math.round(second.ms)} ms (no writes)`,
    );
  });

  describe('with edited files', () => {
    let dir: string;

    beforeEach(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-content-'));
      // English only (translations have their own tests): the counts below are the English's.
      await fs.cp(contentDirectory(), dir, {
        recursive: true,
        filter: (source) => !/\.(?:es|hi)\.(?:md|yml)$/.test(source),
      });
      await loadContent(db(), { directory: dir });
    });

    afterEach(async () => {
      await fs.rm(dir, { recursive: true, force: true });
    });

    it('updates a changed entry, unpublishes a removed one, and restores it with its counts', async () => {
      await db()
        .update(educationContent)
        .set({ views: 11, downloads: 2 })
        .where(eq(educationContent.slug, 'women-and-blood-donation'));
      await db().update(faqs).set({ helpfulCount: 5 }).where(eq(faqs.id, 'forgot-password'));

      const iron = path.join(dir, 'articles/iron-and-your-haemoglobin.md');
      await fs.writeFile(
        iron,
        (await fs.readFile(iron, 'utf8')).replace(
          'title: Iron and your haemoglobin',
          'title: Iron and your haemoglobin level',
        ),
      );
      const women = path.join(dir, 'articles/women-and-blood-donation.md');
      const womenText = await fs.readFile(women, 'utf8');
      await fs.rm(women);
      const faqFile = path.join(dir, 'faqs.yml');
      const faqText = await fs.readFile(faqFile, 'utf8');
      await fs.writeFile(
        faqFile,
        faqText.replace(/- id: forgot-password\n(?: {2}.*\n| {4}.*\n)+/, ''),
      );
      // The removed article's links would now be broken: drop them for this test.
      for (const name of await fs.readdir(path.join(dir, 'articles'))) {
        const file = path.join(dir, 'articles', name);
        const text = await fs.readFile(file, 'utf8');
        await fs.writeFile(
          file,
          text.replace(/\[([^\]]+)\]\(\/articles\/women-and-blood-donation\)/g, '$1'),
        );
      }
      await fs.writeFile(
        faqFile,
        (await fs.readFile(faqFile, 'utf8')).replace(
          /\[([^\]]+)\]\(\/articles\/women-and-blood-donation\)/g,
          '$1',
        ),
      );

      const changed = await loadContent(db(), { directory: dir });
      expect(changed.articles).toBe(15);
      expect(changed.written.unpublished).toBe(2);
      expect(changed.written.inserted).toBe(0);

      expect((await get('/api/public/education/content/women-and-blood-donation')).statusCode).toBe(
        404,
      );
      expect((await get('/api/public/education/faqs/forgot-password')).statusCode).toBe(404);
      expect(
        (await get('/api/public/education/content/iron-and-your-haemoglobin')).json().data.title,
      ).toBe('Iron and your haemoglobin level');

      await fs.writeFile(women, womenText);
      await fs.writeFile(faqFile, faqText);
      const restored = await loadContent(db(), { directory: dir });
      expect(restored.written.inserted).toBe(0);
      const back = (await get('/api/public/education/content/women-and-blood-donation')).json()
        .data;
      expect(back).toMatchObject({ views: 12, downloads: 2 });
      expect(
        (await get('/api/public/education/faqs/forgot-password')).json().data.helpfulCount,
      ).toBe(5);
    });

    it('stops on malformed front matter, naming the file, and writes nothing', async () => {
      await fs.writeFile(
        path.join(dir, 'articles/malformed.md'),
        '---\nslug: malformed\ntitle: [unclosed\n---\n\nBody.\n',
      );
      const before = await rowVersions();
      const error = await loadContent(db(), { directory: dir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContentError);
      expect((error as Error).message).toContain('articles/malformed.md: YAML:');
      expect(await rowVersions()).toEqual(before);
    });
  });
});

describe('GET /api/public/education/content', () => {
  it('lists published articles newest first, paginated, cached with an ETag', async () => {
    const res = await get('/api/public/education/content?pageSize=5&page=2');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const data = res.json().data;
    expect(data).toMatchObject({ total: 16, page: 2, pageSize: 5 });
    expect(data.items).toHaveLength(5);
    for (const item of data.items)
      expect(educationContentItemSchema.strict().parse(item)).toEqual(item);
    expect(data.items[0]).not.toHaveProperty('body');

    const again = await get('/api/public/education/content?pageSize=5&page=2', {
      'if-none-match': String(res.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });

  it('filters by category', async () => {
    const data = (await get('/api/public/education/content?category=eligibility')).json().data;
    expect(data.total).toBe(3);
    expect(data.items.every((item: { category: string }) => item.category === 'eligibility')).toBe(
      true,
    );
    expect((await get('/api/public/education/content?category=unknown')).json().data.total).toBe(0);
  });

  it('finds the Hindi articles by a Hindi word for a Hindi reader, and English words still work', async () => {
    const hindi = (
      await get(
        `/api/public/education/content?lang=hi&pageSize=100&q=${encodeURIComponent('रक्तदान')}`,
      )
    ).json().data;
    const slugs = hindi.items.map((item: { slug: string }) => item.slug);
    expect(slugs).toContain('who-can-donate-blood-in-india');
    expect(hindi.items.every((item: { language: string }) => item.language === 'hi')).toBe(true);
    expect(
      hindi.items.find((item: { slug: string }) => item.slug === 'who-can-donate-blood-in-india')
        .title,
    ).toBe('भारत में कौन रक्तदान कर सकता है');
    // "हीमोग्लोबिन" is in the Hindi iron article's title.
    const iron = (
      await get(`/api/public/education/content?lang=hi&q=${encodeURIComponent('हीमोग्लोबिन')}`)
    ).json().data;
    expect(iron.items[0].slug).toBe('iron-and-your-haemoglobin');
    // English words: for an English reader, and for a Hindi reader too.
    for (const lang of ['en', 'hi']) {
      const english = (await get(`/api/public/education/content?lang=${lang}&q=buttermilk`)).json()
        .data;
      expect(english.items.map((item: { slug: string }) => item.slug)).toEqual([
        'before-and-after-donating-blood',
      ]);
    }
  });

  it('finds an article by a word of its body (full-text, stemmed)', async () => {
    // "buttermilk" appears only in the body of the before-and-after article.
    const data = (await get('/api/public/education/content?q=buttermilk')).json().data;
    expect(data.items.map((item: { slug: string }) => item.slug)).toEqual([
      'before-and-after-donating-blood',
    ]);
    const barcodes = (await get('/api/public/education/content?q=barcodes')).json().data;
    expect(barcodes.items.map((item: { slug: string }) => item.slug)).toEqual([
      'what-happens-to-your-blood-after-you-donate',
    ]);
    const stemmed = (await get('/api/public/education/content?q=thalassaemias')).json().data;
    expect(stemmed.items[0].slug).toBe('thalassaemia-and-regular-transfusions');
    const phrase = (
      await get(`/api/public/education/content?q=${encodeURIComponent('"universal plasma donor"')}`)
    ).json().data;
    expect(phrase.items.map((item: { slug: string }) => item.slug)).toContain(
      'blood-types-and-compatibility',
    );
  });

  it('falls back to a substring match for short or partial queries', async () => {
    const partial = (await get('/api/public/education/content?q=haemoglo')).json().data;
    expect(partial.total).toBeGreaterThan(0);
    const short = (await get('/api/public/education/content?q=O%E2%88%92')).json().data;
    expect(short.total).toBeGreaterThan(0);
    const stopWords = (await get('/api/public/education/content?q=the')).json().data;
    expect(stopWords.total).toBe(16);
    expect((await get('/api/public/education/content?q=zzqxv')).json().data.total).toBe(0);
  });

  it('rejects bad parameters with 400', async () => {
    for (const query of ['pageSize=500', 'page=0', 'category=Not%20A%20Slug', 'q=', 'q=a%00b']) {
      const res = await get(`/api/public/education/content?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('GET /api/public/education/content/{slug}', () => {
  it('returns the article with body and sources, and counts one view per address per hour', async () => {
    const url = '/api/public/education/content/blood-types-and-compatibility';
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const article = first.json().data;
    expect(educationContentSchema.strict().parse(article)).toEqual(article);
    expect(article.body).toContain('## Sources');
    expect(article.sources[0]).toEqual({
      title: 'MedlinePlus (US National Library of Medicine) — Blood typing',
      url: 'https://medlineplus.gov/lab-tests/blood-typing/',
    });
    expect(article.views).toBe(1);
    expect((await get(url)).json().data.views).toBe(1);

    const elsewhere = await subject.app.inject({ method: 'GET', url, remoteAddress: '10.1.2.3' });
    expect(elsewhere.json().data.views).toBe(2);
    const head = await subject.app.inject({ method: 'HEAD', url, remoteAddress: '10.9.9.9' });
    expect(head.statusCode).toBe(200);
    const [row] = await db()
      .select({ views: educationContent.views })
      .from(educationContent)
      .where(eq(educationContent.slug, 'blood-types-and-compatibility'));
    expect(row!.views).toBe(2);
  });

  it('is 404 for an unknown slug and 400 for a malformed one', async () => {
    const missing = await get('/api/public/education/content/no-such-article');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('NOT_FOUND');
    expect((await get('/api/public/education/content/Bad_Slug')).statusCode).toBe(400);
  });
});

describe('GET /api/public/education/featured and /popular', () => {
  it('returns the 3 featured articles by default and honours limit', async () => {
    const res = await get('/api/public/education/featured');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const items = res.json().data;
    expect(items.map((item: { slug: string }) => item.slug).sort()).toEqual([
      'first-time-blood-donor-step-by-step',
      'how-requests-and-privacy-work',
      'who-can-donate-blood-in-india',
    ]);
    expect((await get('/api/public/education/featured?limit=1')).json().data).toHaveLength(1);
    expect((await get('/api/public/education/featured?limit=13')).statusCode).toBe(400);
  });

  it('returns the 5 most viewed by default, then the newest', async () => {
    const views: Record<string, number> = {
      'women-and-blood-donation': 40,
      'iron-and-your-haemoglobin': 30,
      'platelets-plasma-and-apheresis': 20,
      'blood-donation-myths-and-facts': 10,
      'what-happens-at-the-blood-centre': 5,
      'organising-a-blood-donation-camp': 1,
    };
    for (const [slug, count] of Object.entries(views)) {
      await db()
        .update(educationContent)
        .set({ views: count })
        .where(eq(educationContent.slug, slug));
    }
    const items = (await get('/api/public/education/popular')).json().data;
    expect(items.map((item: { slug: string }) => item.slug)).toEqual(
      Object.keys(views).slice(0, 5),
    );
    expect(items.map((item: { views: number }) => item.views)).toEqual([40, 30, 20, 10, 5]);
    expect((await get('/api/public/education/popular?limit=8')).json().data).toHaveLength(8);
  });
});

describe('GET /api/public/education/categories', () => {
  it('returns an array of categories in file order with their article counts', async () => {
    const res = await get('/api/public/education/categories');
    expect(res.statusCode).toBe(200);
    const categories = res.json().data;
    expect(categories).toHaveLength(9);
    for (const category of categories)
      expect(educationCategorySchema.strict().parse(category)).toEqual(category);
    expect(categories[0]).toMatchObject({ slug: 'eligibility', name: 'Who can donate', count: 3 });
    expect(categories.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(16);
  });
});

describe('FAQs', () => {
  it('lists every FAQ in file order, filters by category and searches', async () => {
    const all = (await get('/api/public/education/faqs')).json().data.items;
    expect(all).toHaveLength(32);
    expect(all[0]).toEqual({
      id: 'how-to-register',
      category: 'account',
      question: 'How do I register as a donor?',
      answer: expect.stringContaining('[registration page](/register)'),
      helpfulCount: 0,
      notHelpfulCount: 0,
      language: 'en',
    });
    for (const faq of all) expect(faqSchema.strict().parse(faq)).toEqual(faq);
    const privacy = (await get('/api/public/education/faqs?category=privacy')).json().data.items;
    expect(privacy).toHaveLength(3);
    const found = (await get('/api/public/education/faqs?q=aadhaar')).json().data.items;
    expect(found[0].id).toBe('aadhaar-not-required');
    expect((await get('/api/public/education/faqs?category=other')).statusCode).toBe(400);
  });

  it('returns one FAQ, 404 for an unknown id', async () => {
    const res = await get('/api/public/education/faqs/forgot-password');
    expect(res.json().data.question).toBe('I forgot my password. What should I do?');
    expect(res.headers.etag).toBeDefined();
    expect((await get('/api/public/education/faqs/no-such-question')).statusCode).toBe(404);
  });

  it('counts feedback and replies the new counts', async () => {
    const url = '/api/public/education/faqs/who-can-donate/feedback';
    expect((await post(url, { helpful: true })).json().data).toEqual({
      id: 'who-can-donate',
      helpfulCount: 1,
      notHelpfulCount: 0,
    });
    await post(url, { helpful: true });
    const res = await post(url, { helpful: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ id: 'who-can-donate', helpfulCount: 2, notHelpfulCount: 1 });
    expect((await get('/api/public/education/faqs/who-can-donate')).json().data).toMatchObject({
      helpfulCount: 2,
      notHelpfulCount: 1,
    });
  });

  it('refuses bad feedback with 400, unknown FAQs with 404, and floods with 429', async () => {
    const url = '/api/public/education/faqs/who-can-donate/feedback';
    for (const body of [{}, { helpful: 'yes' }, { helpful: true, extra: 1 }]) {
      const res = await post(url, body, { 'x-forwarded-for': '1.1.1.1' });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await post('/api/public/education/faqs/nope/feedback', { helpful: true })).statusCode,
    ).toBe(404);
    const address = '10.20.30.40';
    let last = 0;
    for (let i = 0; i <= EDUCATION_RATE_LIMITS.feedback.max; i += 1) {
      last = (
        await subject.app.inject({
          method: 'POST',
          url,
          payload: { helpful: true },
          remoteAddress: address,
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });
});

const HINDI_TITLE = 'भारत में कौन रक्तदान कर सकता है';

describe('POST /api/public/education/content/{id}/download', () => {
  it('returns the article as a PDF attachment and counts the download', async () => {
    const res = await post('/api/public/education/content/who-can-donate-blood-in-india/download');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="who-can-donate-blood-in-india\.pdf"/,
    );
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Who can donate blood in India');
    expect(text).toContain(`${PUBLIC_URL}/articles/who-can-donate-blood-in-india`);

    const [row] = await db()
      .select({ id: educationContent.id, downloads: educationContent.downloads })
      .from(educationContent)
      .where(eq(educationContent.slug, 'who-can-donate-blood-in-india'));
    expect(row!.downloads).toBe(1);

    const byId = await post(`/api/public/education/content/${row!.id}/download`);
    expect(byId.statusCode).toBe(200);
    expect(byId.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(
      (await get('/api/public/education/content?category=eligibility'))
        .json()
        .data.items.find((item: { slug: string }) => item.slug === 'who-can-donate-blood-in-india')
        .downloads,
    ).toBe(2);
  });

  it('prints the article in the reader’s language, shaped in its script, with English as fallback', async () => {
    const hindi = await post(
      '/api/public/education/content/who-can-donate-blood-in-india/download?lang=hi',
    );
    expect(hindi.statusCode).toBe(200);
    const text = pdfText(hindi.rawPayload);
    expect(text).toContain(HINDI_TITLE);
    expect(text).not.toContain('Who can donate blood in India');
    // Unknown languages read as English; the cache keeps each language apart.
    const english = await post(
      '/api/public/education/content/who-can-donate-blood-in-india/download?lang=xx',
    );
    expect(pdfText(english.rawPayload)).toContain('Who can donate blood in India');
  });

  it('is 404 for an unknown article', async () => {
    expect((await post('/api/public/education/content/no-such-article/download')).statusCode).toBe(
      404,
    );
    expect(
      (await post('/api/public/education/content/3f1e2d3c-0000-4000-8000-000000000000/download'))
        .statusCode,
    ).toBe(404);
    expect((await post('/api/public/education/content/not%20valid/download')).statusCode).toBe(400);
  });
});

describe('GET /api/public/pages/{slug}', () => {
  it('serves the privacy policy and the terms with the support address filled in', async () => {
    for (const slug of ['privacy', 'terms']) {
      const res = await get(`/api/public/pages/${slug}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      const page = res.json().data;
      expect(contentPageSchema.strict().parse(page)).toEqual(page);
      expect(page).toMatchObject({ slug, version: '2026-11-01', updated: '2026-11-01' });
      expect(page.body).toContain(SUPPORT_EMAIL);
      expect(page.body).not.toContain('{{supportEmail}}');
    }
    expect((await get('/api/public/pages/privacy')).json().data.title).toBe('Privacy policy');
    expect((await get('/api/public/pages/cookies')).statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents the education routes with their tags', async () => {
    const doc = (await get('/api/docs/json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/public/education/content',
        '/api/public/education/content/{slug}',
        '/api/public/education/content/{id}/download',
        '/api/public/education/featured',
        '/api/public/education/popular',
        '/api/public/education/categories',
        '/api/public/education/faqs',
        '/api/public/education/faqs/{id}',
        '/api/public/education/faqs/{id}/feedback',
        '/api/public/pages/{slug}',
      ]),
    );
    expect(doc.info.description).toContain('## Public content: decisions');
  });
});
