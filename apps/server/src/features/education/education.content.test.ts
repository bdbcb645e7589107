import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CONSENT_VERSION } from '@bdms/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  contentDirectory,
  ContentError,
  readContent,
  readingMinutesOf,
  splitFrontMatter,
} from './education.content';

describe('readContent on apps/server/content', () => {
  it('reads 16 articles, 32 FAQs, 9 categories and 2 pages without a warning', async () => {
    const content = await readContent();
    expect(content.directory).toBe(contentDirectory());
    expect(content.articles).toHaveLength(16);
    expect(content.faqs).toHaveLength(32);
    expect(content.categories.map((category) => category.slug)).toEqual([
      'eligibility',
      'preparing',
      'blood-centre',
      'blood-types',
      'myths',
      'conditions',
      'components',
      'using-the-app',
      'safety',
    ]);
    expect(content.pages.map((page) => page.slug).sort()).toEqual(['privacy', 'terms']);
    expect(content.warnings).toEqual([]);
    expect(content.articles.filter((article) => article.featured)).toHaveLength(3);
    for (const page of content.pages) expect(page.version).toBe(CONSENT_VERSION);

    const article = content.articles.find((a) => a.slug === 'who-can-donate-blood-in-india')!;
    expect(article).toMatchObject({
      title: 'Who can donate blood in India',
      category: 'eligibility',
      featured: true,
      publishedAt: '2026-11-01',
    });
    expect(article.body.startsWith('---')).toBe(false);
    expect(article.sources.length).toBeGreaterThan(0);
    expect(article.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same hashes on every read', async () => {
    const [first, second] = [await readContent(), await readContent()];
    expect(second.articles.map((a) => a.contentHash)).toEqual(
      first.articles.map((a) => a.contentHash),
    );
    expect(second.faqs.map((f) => f.contentHash)).toEqual(first.faqs.map((f) => f.contentHash));
  });
});

describe('splitFrontMatter', () => {
  it('splits front matter from the body, with CRLF and a BOM', () => {
    expect(splitFrontMatter('\uFEFF---\r\ntitle: A\r\n---\r\n\r\nBody\r\n')).toEqual({
      frontMatter: 'title: A\n',
      body: 'Body',
    });
  });

  it('refuses a file without front matter or without its closing line', () => {
    expect(splitFrontMatter('title: A\n---\nBody')).toBeNull();
    expect(splitFrontMatter('---\ntitle: A\nBody')).toBeNull();
    expect(splitFrontMatter('---\ntitle: A\n---more\nBody')).toBeNull();
  });
});

describe('readingMinutesOf', () => {
  it('counts the words before ## Sources at 200 a minute, rounded up', () => {
    const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');
    expect(readingMinutesOf(`${words(401)}\n\n## Sources\n\n${words(1000)}`)).toBe(3);
    expect(readingMinutesOf(words(10))).toBe(1);
  });
});

describe('readContent on a broken copy', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-content-'));
    await fs.cp(contentDirectory(), dir, { recursive: true });
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const write = (file: string, text: string) => fs.writeFile(path.join(dir, file), text);
  const edit = async (file: string, change: (text: string) => string) =>
    write(file, change(await fs.readFile(path.join(dir, file), 'utf8')));

  async function problems(): Promise<ContentError> {
    const error = await readContent(dir).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ContentError);
    return error as ContentError;
  }

  it('stops on malformed front matter, naming the file and the line', async () => {
    await write(
      'articles/malformed-front-matter.md',
      '---\nslug: malformed-front-matter\ntitle: Colons: break YAML\n  summary: [unclosed\n---\n\nBody.\n',
    );
    const error = await problems();
    expect(error.problems).toEqual([
      expect.objectContaining({ file: 'articles/malformed-front-matter.md', where: 'YAML' }),
    ]);
    expect(error.message).toContain('articles/malformed-front-matter.md: YAML:');
    expect(error.message).toMatch(/line \d+/);
  });

  it('stops on a file without front matter', async () => {
    await write('articles/no-front-matter.md', 'Just a body.\n');
    const error = await problems();
    expect(error.message).toContain(
      'articles/no-front-matter.md: front matter: must start with YAML front matter between two --- lines',
    );
  });

  it('lists every problem of every file, with the field', async () => {
    await edit('articles/iron-and-your-haemoglobin.md', (text) =>
      text
        .replace('category: preparing', 'category: nutrition')
        .replace('readingMinutes: 5', 'readingMinutes: five')
        .replace(
          'url: https://ods.od.nih.gov/factsheets/Iron-Consumer/',
          'url: ftp://example.org/',
        ),
    );
    await edit('articles/women-and-blood-donation.md', (text) =>
      text
        .replace('slug: women-and-blood-donation', 'slug: women-donors')
        .concat('\n# Top heading\n\n<b>raw</b>\n'),
    );
    await edit('faqs.yml', (text) =>
      text
        .replace('- id: why-approval', '- id: how-to-register')
        .replace('(/articles/who-can-donate-blood-in-india)', '(/articles/no-such-article)'),
    );
    await edit('pages/terms.md', (text) =>
      text.replace(`version: '${CONSENT_VERSION}'`, "version: '2020-01-01'"),
    );
    const error = await problems();
    const found = error.problems.map((problem) => `${problem.file} ${problem.where}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'articles/iron-and-your-haemoglobin.md readingMinutes',
        'articles/iron-and-your-haemoglobin.md sources.0.url',
        'articles/women-and-blood-donation.md slug',
        'articles/women-and-blood-donation.md body',
        'faqs.yml how-to-register',
        'faqs.yml who-can-donate.answer',
        'pages/terms.md version',
      ]),
    );
    expect(error.message).toContain(
      'sources.0.url: must be an https:// address or a path of this app',
    );
    expect(error.message).toContain('no article with that slug');
  });

  it('stops on an unknown category and on a missing policy page', async () => {
    await edit('articles/iron-and-your-haemoglobin.md', (text) =>
      text.replace('category: preparing', 'category: nutrition'),
    );
    await fs.rm(path.join(dir, 'pages/privacy.md'));
    const error = await problems();
    expect(error.message).toContain(
      'articles/iron-and-your-haemoglobin.md: category: "nutrition" is not a slug of categories.yml',
    );
    expect(error.message).toContain('pages/privacy.md: is missing');
  });

  it('warns, without stopping, about reading time and the number of featured articles', async () => {
    await edit('articles/iron-and-your-haemoglobin.md', (text) =>
      text
        .replace('readingMinutes: 5', 'readingMinutes: 12')
        .replace('featured: false', 'featured: true'),
    );
    const content = await readContent(dir);
    expect(content.warnings).toEqual([
      'articles/iron-and-your-haemoglobin.md: readingMinutes is 12, but the text reads in about 5',
      '4 articles are featured; the education page expects 3',
    ]);
  });
});
