import { describe, expect, it } from 'vitest';
import { printableText } from '../../lib/pdf/script-runs';
import { pdfInfo, pdfLines, pdfPieces, pdfText } from '../../test/pdf-text';
import { renderArticlePdf, withoutSourcesSection } from './article-pdf';
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

describe('printableText', () => {
  it('keeps every script the fonts cover and replaces only what no font has', () => {
    expect(printableText('O− ≥ 12 → ₹5 “ok” — café', 'regular')).toBe('O− >= 12 -> ₹5 “ok” — café');
    expect(printableText('Mumbāī नमस्ते সৌমিত্র தமிழ் తెలుగు محمد', 'regular')).toBe(
      'Mumbāī नमस्ते সৌমিত্র தமிழ் తెలుగు محمد',
    );
    expect(printableText('a\tb\nc \u200b', 'bold')).toBe('a b c \u200b');
  });
});

describe('renderArticlePdf', () => {
  it('prints the title, summary, body, sources and a footer with the article address', async () => {
    const bytes = await renderArticlePdf(ARTICLE);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain('Blood types: A−, B− and the universal donor');
    expect(text).toContain('A short summary with >= 12.5 g/dL and “quotes”.');
    expect(text).toContain(
      'Blood types and compatibility · 4 min read · Published 1 November 2026',
    );
    expect(text).toContain('What to know');
    expect(text).toContain('bold words');
    expect(text).toContain('a link to the terms (https://blood.example.in/terms)');
    expect(text).toContain('second point with WHO (https://www.who.int/)');
    expect(text).toContain('Patient Can receive from O− O− AB+ All eight types');
    expect(text).toContain('हिन्दी text and ₹500 and -> arrows.');
    expect(text).toContain('Sources');
    expect(text).toContain('National Blood Transfusion Council (https://nbtc.naco.gov.in/)');
    expect(text).toContain('Our privacy policy (https://blood.example.in/privacy)');
    expect(text).not.toContain('Body source that is not printed twice');
    expect(text).toContain(
      'Blood Donation Management System Page 1 of 1 https://blood.example.in/articles/test-article',
    );

    expect(pdfInfo(bytes)).toMatchObject({ title: ARTICLE.title, pages: 1, language: 'en-IN' });
  });

  it('flows a long article over pages, each with its footer, and gives the same bytes twice', async () => {
    const paragraph = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const long = {
      ...ARTICLE,
      body: Array.from({ length: 30 }, (_, i) => `## Part ${i}\n\n${paragraph}`).join('\n\n'),
    };
    const bytes = await renderArticlePdf(long);
    const pages = pdfInfo(bytes).pages;
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

const HINDI_ARTICLE = {
  slug: 'kaun-raktdan-kar-sakta-hai',
  title: 'भारत में कौन रक्तदान कर सकता है',
  summary: 'उम्र, वज़न और हीमोग्लोबिन की शर्तें, और कब रुकना चाहिए।',
  categoryName: 'पात्रता',
  readingMinutes: 5,
  publishedAt: '2026-11-01',
  language: 'hi',
  body: [
    'रक्तदान सुरक्षित है और हर स्वस्थ वयस्क के लिए **महत्वपूर्ण** है। प्रत्येक दान से तीन लोगों तक की जान बच सकती है, इसलिए नियमित रक्तदाता बनना एक बड़ा योगदान है।',
    '',
    '## क्षमता और शर्तें',
    '',
    '- आयु १८ से ६५ वर्ष',
    '- वज़न कम से कम ४५ किलोग्राम',
    '- हीमोग्लोबिन १२.५ ग्राम/डेसीलीटर या अधिक ([NBTC](https://nbtc.naco.gov.in/))',
    '',
    '1. पहले जाँच',
    '2. फिर प्रश्नावली',
    '',
    '> स्वैच्छिक रक्तदान ही सुरक्षित रक्त का आधार है।',
    '',
    '| समूह | किसे दे सकता है |',
    '| ---- | --------------- |',
    '| O− | सभी को |',
    '| AB+ | केवल AB+ को |',
    '',
    '## स्रोत',
    '',
    '- [यह स्रोत दोबारा नहीं छपता](https://example.org/body)',
  ].join('\n'),
  sources: [{ title: 'राष्ट्रीय रक्त आधान परिषद', url: 'https://nbtc.naco.gov.in/' }],
  publicUrl: 'https://blood.example.in',
};

describe('renderArticlePdf in Hindi and other scripts', () => {
  it('prints a Hindi article: headings, lists, quote, table and labels read back as written', async () => {
    const bytes = await renderArticlePdf(HINDI_ARTICLE);
    const lines = pdfLines(bytes);
    const text = lines.join(' ');
    for (const expected of [
      'भारत में कौन रक्तदान कर सकता है',
      'उम्र, वज़न और हीमोग्लोबिन की शर्तें, और कब रुकना चाहिए।',
      'पात्रता · पढ़ने में ५ मिनट · प्रकाशित: १ नवंबर २०२६',
      'रक्तदान सुरक्षित है और हर स्वस्थ वयस्क के लिए महत्वपूर्ण है। प्रत्येक दान से तीन लोगों तक की जान बच सकती है, इसलिए नियमित रक्तदाता बनना एक बड़ा योगदान है।',
      'क्षमता और शर्तें',
      '• आयु १८ से ६५ वर्ष',
      '• हीमोग्लोबिन १२.५ ग्राम/डेसीलीटर या अधिक (NBTC (https://nbtc.naco.gov.in/))',
      '1. पहले जाँच',
      'स्वैच्छिक रक्तदान ही सुरक्षित रक्त का आधार है।',
      'समूह किसे दे सकता है O− सभी को AB+ केवल AB+ को',
      'स्रोत',
      '1. राष्ट्रीय रक्त आधान परिषद (https://nbtc.naco.gov.in/)',
      'Blood Donation Management System पृष्ठ १ / १ https://blood.example.in/articles/kaun-raktdan-kar-sakta-hai',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('यह स्रोत दोबारा नहीं छपता');
    expect(text).not.toContain('?');
    // The long paragraph wraps onto several lines.
    expect(
      lines.filter((line) => line.startsWith('रक्तदान सुरक्षित') || line.endsWith('योगदान है।')).length,
    ).toBe(2);

    // Shaped, not in typed order: क्ष is one glyph in the heading, and in "किलोग्राम" the ि is
    // drawn before क.
    const heading = pdfPieces(bytes).find((piece) => piece.text === 'क्षमता और शर्तें')!;
    expect(heading.glyphs[0]).toBe('क्ष');
    expect(heading.font).toMatch(/NotoSansDevanagari-Bold$/);
    const weight = pdfPieces(bytes).find((piece) => piece.text.includes('किलोग्राम'))!;
    const glyphs = weight.glyphs.join('|');
    expect(glyphs).toContain('ि|क|ल|ो');
    expect(pdfPieces(bytes).flatMap((piece) => piece.codes)).not.toContain(0);
    expect(pdfInfo(bytes)).toMatchObject({
      title: HINDI_ARTICLE.title,
      language: 'hi-IN',
      pages: 1,
    });
  });

  it('prints Bengali, Tamil and Telugu paragraphs, and an Arabic phrase in reading order inside a Latin line', async () => {
    const bytes = await renderArticlePdf({
      ...ARTICLE,
      body: [
        'রক্তদান একটি মহৎ কাজ।',
        '',
        'இரத்த தானம் உயிர் காக்கும்.',
        '',
        'రక్తదానం ప్రాణదానం.',
        '',
        'The words محمد علي are a name.',
      ].join('\n'),
      sources: [],
    });
    const lines = pdfLines(bytes);
    expect(lines).toContain('রক্তদান একটি মহৎ কাজ।');
    expect(lines).toContain('இரத்த தானம் உயிர் காக்கும்.');
    expect(lines).toContain('రక్తదానం ప్రాణదానం.');
    expect(lines).toContain('The words محمد علي are a name.');
    const arabic = pdfPieces(bytes).find((piece) => piece.text === 'محمد علي')!;
    const before = pdfPieces(bytes).find((piece) => piece.text.startsWith('The words'))!;
    expect(arabic.x).toBeCloseTo(before.endX, 1);
    expect(pdfInfo(bytes).fonts).toEqual(
      expect.arrayContaining([
        'NotoSansBengali-Regular',
        'NotoSansTamil-Regular',
        'NotoSansTelugu-Regular',
        'NotoSansArabic-Regular',
      ]),
    );
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
