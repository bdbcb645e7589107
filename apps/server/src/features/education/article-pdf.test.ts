import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/pdf-text';
import { renderArticlePdf, toWinAnsi, withoutSourcesSection } from './article-pdf';
import { parseMarkdown } from './markdown';

const ARTICLE = {
  slug: 'test-article',
  title: 'Blood types: A−, B− and the universal donor',
  summary: 'A short summary with ≥ 12.5 g/dL and “quotes”.',
  categoryName: 'Blood types and compatibility',
  readingMinutes: 4,
  publishedAt: '2026-11-01',
  body: [
    'An opening paragraph with **bold words**, _italic words_ and [a link to the terms](/terms).',
    '',
    '## What to know',
    '',
    '- first point',
    '- second point with [WHO](https://www.who.int/)',
    '',
    '1. step one',
    '2. step two',
    '',
    '> A quoted line.',
    '',
    '| Patient | Can receive from |',
    '| ------- | ---------------- |',
    '| O−      | O−               |',
    '| AB+     | All eight types  |',
    '',
    'हिन्दी text and ₹500 and → arrows.',
    '',
    '## Sources',
    '',
    '- [Body source that is not printed twice](https://example.org/body)',
  ].join('\n'),
  sources: [
    { title: 'National Blood Transfusion Council', url: 'https://nbtc.naco.gov.in/' },
    { title: 'Our privacy policy', url: '/privacy' },
  ],
  publicUrl: 'https://blood.example.in',
};

describe('toWinAnsi', () => {
  it('maps typography to WinAnsi and replaces what the standard fonts cannot print', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    expect(toWinAnsi(font, 'O− ≥ 12 → ₹5 “ok” — café')).toBe('O- >= 12 -> Rs 5 “ok” — café');
    expect(toWinAnsi(font, 'Mumbāī नमस्ते')).toBe('Mumbai ??????');
    expect(() => font.encodeText(toWinAnsi(font, 'अ ✓ ✗ \u200b'))).not.toThrow();
  });
});

describe('renderArticlePdf', () => {
  it('prints the title, summary, body, sources and a footer with the article address', async () => {
    const bytes = await renderArticlePdf(ARTICLE);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain('Blood types: A-, B- and the universal donor');
    expect(text).toContain('A short summary with >= 12.5 g/dL and “quotes”.');
    expect(text).toContain(
      'Blood types and compatibility · 4 min read · Published 1 November 2026',
    );
    expect(text).toContain('What to know');
    expect(text).toContain('bold words');
    expect(text).toContain('a link to the terms (https://blood.example.in/terms)');
    expect(text).toContain('second point with WHO (https://www.who.int/)');
    expect(text).toContain('Patient Can receive from O- O- AB+ All eight types');
    expect(text).toContain('?????? text and Rs 500 and -> arrows.');
    expect(text).toContain('Sources');
    expect(text).toContain('National Blood Transfusion Council (https://nbtc.naco.gov.in/)');
    expect(text).toContain('Our privacy policy (https://blood.example.in/privacy)');
    expect(text).not.toContain('Body source that is not printed twice');
    expect(text).toContain(
      'Blood Donation Management System Page 1 of 1 https://blood.example.in/articles/test-article',
    );

    const parsed = await PDFDocument.load(bytes);
    expect(parsed.getTitle()).toBe(ARTICLE.title);
    expect(parsed.getPageCount()).toBe(1);
  });

  it('flows a long article over pages, each with its footer, and gives the same bytes twice', async () => {
    const paragraph = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const long = {
      ...ARTICLE,
      body: Array.from({ length: 30 }, (_, i) => `## Part ${i}\n\n${paragraph}`).join('\n\n'),
    };
    const bytes = await renderArticlePdf(long);
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    expect(pages).toBeGreaterThan(3);
    const text = pdfText(bytes);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain('Part 29');
    expect(Buffer.from(await renderArticlePdf(long)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('cuts a word wider than the page instead of overflowing', async () => {
    const bytes = await renderArticlePdf({
      ...ARTICLE,
      body: `See https://example.org/${'a'.repeat(300)} for more.`,
      sources: [],
    });
    expect(pdfText(bytes)).toContain('for more.');
  });
});

describe('withoutSourcesSection', () => {
  it('drops the ## Sources section up to the next second-level heading', () => {
    const blocks = withoutSourcesSection(
      parseMarkdown('Intro\n\n## Sources\n\n- a\n\n### Sub\n\ntext\n\n## After\n\nend'),
    );
    expect(blocks.map((block) => block.type)).toEqual(['paragraph', 'heading', 'paragraph']);
  });
});
