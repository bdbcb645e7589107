import { APP_NAME } from '@bdms/shared';
import {
  createPdfDocument,
  pdfBytes,
  PdfText,
  type Color,
  type FontStyle,
} from '../../lib/pdf/text';
import { parseMarkdown, spansText, type Block, type Span } from './markdown';

/** A4 portrait, in PDF points. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { x: 56, top: 60, bottom: 72 };
const CONTENT_WIDTH = PAGE.width - MARGIN.x * 2;
const RED = '#b91c1c';
const INK = '#1f2937';
const MUTED = '#5c6370';
const LINK = '#14519e';
const RULE = '#d1d6de';
const SHADE = '#f2f4f7';

const BODY_SIZE = 10.5;
const BODY_LEADING = 15;

export interface ArticlePdfContent {
  slug: string;
  title: string;
  summary: string;
  categoryName: string;
  readingMinutes: number;
  /** `YYYY-MM-DD`. */
  publishedAt: string;
  body: string;
  sources: { title: string; url: string }[];
  /** PUBLIC_URL, without a trailing slash: app paths in links become full addresses. */
  publicUrl: string;
  /**
   * The article's language (en, es, hi): the labels around the text ("4 min read", "Sources",
   * "Page 1 of 2") and the document's language. The text itself may be in any script. English
   * when absent or unknown.
   */
  language?: string;
}

interface ArticleLabels {
  lang: string;
  locale: string;
  minutes(count: string): string;
  published(date: string): string;
  sources: string;
  page(index: string, count: string): string;
}

const LABELS: Record<'en' | 'es' | 'hi', ArticleLabels> = {
  en: {
    lang: 'en-IN',
    locale: 'en-IN',
    minutes: (count) => `${count} min read`,
    published: (date) => `Published ${date}`,
    sources: 'Sources',
    page: (index, count) => `Page ${index} of ${count}`,
  },
  es: {
    lang: 'es',
    locale: 'es-IN',
    minutes: (count) => `${count} min de lectura`,
    published: (date) => `Publicado el ${date}`,
    sources: 'Fuentes',
    page: (index, count) => `Página ${index} de ${count}`,
  },
  hi: {
    lang: 'hi-IN',
    locale: 'hi-IN-u-nu-deva',
    minutes: (count) => `पढ़ने में ${count} मिनट`,
    published: (date) => `प्रकाशित: ${date}`,
    sources: 'स्रोत',
    page: (index, count) => `पृष्ठ ${index} / ${count}`,
  },
};

function articleLabels(language: string | undefined): ArticleLabels {
  const base = (language ?? 'en').toLowerCase().split('-')[0] as keyof typeof LABELS;
  return LABELS[base] ?? LABELS.en;
}

interface Piece {
  text: string;
  style: FontStyle;
  color: Color;
  width: number;
}

/** A word: pieces with no space between them ("**bold**," is two pieces). */
interface Word {
  pieces: Piece[];
  width: number;
}

interface TextStyle {
  size: number;
  color?: Color;
  /** Force every piece bold (headings, table headers). */
  bold?: boolean;
  italic?: boolean;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `[text](url)` reads as "text (url)" on paper; app paths become full addresses. The added
 * address carries `href: ''`, which prints it muted.
 */
function withLinkTargets(spans: Span[], publicUrl: string): Span[] {
  const out: Span[] = [];
  let shown = '';
  spans.forEach((span, index) => {
    out.push(span);
    if (!span.href) {
      shown = '';
      return;
    }
    shown += span.text;
    if (spans[index + 1]?.href === span.href) return;
    const url = span.href.startsWith('/') ? `${publicUrl}${span.href}` : span.href;
    const bare = url.replace(/^mailto:/, '');
    if (shown.trim() !== bare && shown.trim() !== url) out.push({ text: ` (${bare})`, href: '' });
    shown = '';
  });
  return out;
}

/**
 * Lays the article out top to bottom. Coordinates are pdfkit's: `y` grows down the page; the
 * cursor `y` is the top of the next line.
 */
class ArticleLayout {
  pageCount = 0;
  private y = 0;

  constructor(
    private readonly text: PdfText,
    private readonly publicUrl: string,
  ) {
    this.newPage();
  }

  private get doc(): PDFKit.PDFDocument {
    return this.text.doc;
  }

  newPage(): void {
    this.doc.addPage();
    this.pageCount++;
    this.y = MARGIN.top;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number): void {
    if (this.y + height > PAGE.height - MARGIN.bottom) this.newPage();
  }

  /** Nothing drawn on this page yet: no space is added before a heading. */
  atTop(): boolean {
    return this.y === MARGIN.top;
  }

  space(points: number): void {
    this.y += points;
  }

  private styleFor(span: Span, style: TextStyle): FontStyle {
    const bold = style.bold || span.bold;
    // Inline code has no font of its own here: articles use none; it prints as plain text.
    const italic = !span.code && (style.italic || span.italic);
    if (bold && italic) return 'boldItalic';
    if (bold) return 'bold';
    if (italic) return 'italic';
    return 'regular';
  }

  private piece(text: string, style: FontStyle, color: Color, size: number): Piece {
    return { text, style, color, width: this.text.width(text, { size, style }) };
  }

  private words(spans: Span[], style: TextStyle): Word[] {
    const words: Word[] = [];
    let current: Word | null = null;
    for (const span of withLinkTargets(spans, this.publicUrl)) {
      const fontStyle = this.styleFor(span, style);
      const color =
        span.href === '' ? MUTED : span.href !== undefined ? LINK : (style.color ?? INK);
      for (const part of span.text.replace(/[\t\r\n]/g, ' ').split(/( +)/)) {
        if (part === '') continue;
        if (/^ +$/.test(part)) {
          current = null;
          continue;
        }
        const piece = this.piece(part, fontStyle, color, style.size);
        if (!current) {
          current = { pieces: [], width: 0 };
          words.push(current);
        }
        current.pieces.push(piece);
        current.width += piece.width;
      }
    }
    return words;
  }

  /** A word wider than the line (a long URL) is cut between graphemes into pieces that fit. */
  private splitLongWord(word: Word, width: number, size: number): Word[] {
    const out: Word[] = [];
    let current: Word = { pieces: [], width: 0 };
    const close = (piece: Piece, text: string) => {
      if (!text) return;
      const part = this.piece(text, piece.style, piece.color, size);
      current.pieces.push(part);
      current.width += part.width;
    };
    for (const piece of word.pieces) {
      let text = '';
      for (const { segment } of graphemes.segment(piece.text)) {
        const candidate = text + segment;
        const candidateWidth = this.text.width(candidate, { size, style: piece.style });
        if (current.width + candidateWidth > width && (text !== '' || current.pieces.length > 0)) {
          close(piece, text);
          out.push(current);
          current = { pieces: [], width: 0 };
          text = segment;
        } else {
          text = candidate;
        }
      }
      close(piece, text);
    }
    if (current.pieces.length > 0) out.push(current);
    return out;
  }

  /** Wraps the spans into lines of at most `width` points. */
  wrap(spans: Span[], style: TextStyle, width: number): Word[][] {
    const spaceWidth = this.text.width(' ', { size: style.size });
    const lines: Word[][] = [];
    let line: Word[] = [];
    let lineWidth = 0;
    for (const word of this.words(spans, style)) {
      const pieces = word.width > width ? this.splitLongWord(word, width, style.size) : [word];
      for (const part of pieces) {
        const needed = line.length === 0 ? part.width : lineWidth + spaceWidth + part.width;
        if (needed > width && line.length > 0) {
          lines.push(line);
          line = [part];
          lineWidth = part.width;
        } else {
          line.push(part);
          lineWidth = needed;
        }
      }
    }
    if (line.length > 0) lines.push(line);
    return lines;
  }

  /**
   * One line: consecutive pieces of the same look are drawn together, spaces included, so a
   * phrase is shaped (and, right to left, ordered) as a whole.
   */
  private drawLine(line: Word[], x: number, baseline: number, size: number): void {
    const groups: { text: string; style: FontStyle; color: Color }[] = [];
    line.forEach((word, index) => {
      word.pieces.forEach((piece, pieceIndex) => {
        const last = groups.at(-1);
        const gap = index > 0 && pieceIndex === 0 ? ' ' : '';
        if (last && last.style === piece.style && last.color === piece.color) {
          last.text += gap + piece.text;
        } else {
          if (last && gap) last.text += gap;
          groups.push({ text: piece.text, style: piece.style, color: piece.color });
        }
      });
    });
    let cursor = x;
    for (const group of groups) {
      cursor += this.text.draw(group.text, cursor, baseline, {
        size,
        style: group.style,
        color: group.color,
      });
    }
  }

  /** Wrapped text at the cursor, moving down; breaks pages between lines. */
  textBlock(
    spans: Span[],
    style: TextStyle,
    options: {
      indent?: number;
      leading?: number;
      onLine?: (top: number, leading: number) => void;
    } = {},
  ): void {
    const indent = options.indent ?? 0;
    const leading = options.leading ?? style.size * 1.42;
    for (const line of this.wrap(spans, style, CONTENT_WIDTH - indent)) {
      this.ensure(leading);
      const top = this.y;
      this.y += leading;
      const baseline = this.y - (leading - style.size) / 2 - 1;
      this.drawLine(line, MARGIN.x + indent, baseline, style.size);
      options.onLine?.(top, leading);
    }
  }

  heading(spans: Span[], level: number): void {
    const size = level <= 2 ? 15 : 12.5;
    const leading = size * 1.3;
    // Keep a heading with at least two lines of what follows it.
    this.ensure(leading + 12 + BODY_LEADING * 2);
    if (!this.atTop()) this.space(level <= 2 ? 12 : 8);
    this.textBlock(spans, { size, bold: true, color: level <= 2 ? RED : INK }, { leading });
    this.space(3);
  }

  paragraph(spans: Span[], indent = 0, color?: Color, italic = false): void {
    this.textBlock(spans, { size: BODY_SIZE, color, italic }, { indent, leading: BODY_LEADING });
    this.space(5);
  }

  list(items: { marker: string; depth: number; spans: Span[] }[], indent = 0): void {
    for (const item of items) {
      const left = indent + item.depth * 14;
      const markerWidth = Math.max(12, this.text.width(`${item.marker} `, { size: BODY_SIZE }) + 3);
      const lines = this.wrap(item.spans, { size: BODY_SIZE }, CONTENT_WIDTH - left - markerWidth);
      lines.forEach((line, index) => {
        this.ensure(BODY_LEADING);
        this.y += BODY_LEADING;
        const baseline = this.y - (BODY_LEADING - BODY_SIZE) / 2 - 1;
        if (index === 0) {
          const bullet = item.marker === '•';
          this.text.draw(item.marker, MARGIN.x + left, baseline, {
            size: BODY_SIZE,
            style: bullet ? 'bold' : 'regular',
            color: bullet ? RED : INK,
          });
        }
        this.drawLine(line, MARGIN.x + left + markerWidth, baseline, BODY_SIZE);
      });
      this.space(2);
    }
    this.space(4);
  }

  quote(blocks: Block[]): void {
    const bar = (top: number, leading: number) =>
      this.doc.rect(MARGIN.x + 2, top, 2.5, leading).fill(RED);
    for (const block of blocks) {
      const spans =
        block.type === 'paragraph' || block.type === 'heading'
          ? block.spans
          : block.type === 'list'
            ? block.items.flatMap((item) => [
                { text: `${item.marker} ` },
                ...item.spans,
                { text: ' ' },
              ])
            : [];
      if (spans.length === 0) continue;
      this.textBlock(
        spans,
        { size: BODY_SIZE, color: MUTED, italic: true },
        { indent: 14, leading: BODY_LEADING, onLine: bar },
      );
      this.space(4);
    }
    this.space(4);
  }

  private hline(y: number, thickness: number, color: Color): void {
    this.doc
      .moveTo(MARGIN.x, y)
      .lineTo(MARGIN.x + CONTENT_WIDTH, y)
      .lineWidth(thickness)
      .strokeColor(color)
      .stroke();
  }

  /** A simple grid: header row shaded, cells wrapped, header repeated on a new page. */
  table(header: Span[][], rows: Span[][][]): void {
    const columns = Math.max(header.length, ...rows.map((row) => row.length));
    if (columns === 0) return;
    const size = 9.5;
    const leading = 13;
    const pad = 4;
    const natural = Array.from({ length: columns }, (_, column) =>
      Math.max(
        30,
        ...[header, ...rows].map((row) =>
          this.words(row[column] ?? [], { size, bold: row === header }).reduce(
            (sum, word) => sum + word.width + 3,
            0,
          ),
        ),
      ),
    );
    const total = natural.reduce((sum, width) => sum + width, 0);
    let widths = natural.map((width) => (width / total) * CONTENT_WIDTH);
    if (total <= CONTENT_WIDTH)
      widths = natural.map((width) => width + (CONTENT_WIDTH - total) / columns);
    else {
      // No column narrower than a fair share's half, so short columns stay readable.
      const floor = CONTENT_WIDTH / columns / 2;
      const short = widths.map((width) => Math.max(width, floor));
      const extra = short.reduce((sum, width) => sum + width, 0) - CONTENT_WIDTH;
      const wide = short.filter((width) => width > floor).reduce((sum, width) => sum + width, 0);
      widths = short.map((width) => (width > floor ? width - (extra * width) / wide : width));
    }

    const layoutRow = (cells: Span[][], isHeader: boolean) => {
      const wrapped = widths.map((width, column) =>
        this.wrap(cells[column] ?? [], { size, bold: isHeader }, width - pad * 2),
      );
      const height = Math.max(1, ...wrapped.map((lines) => lines.length)) * leading + pad * 2;
      return { wrapped, height };
    };
    const paint = (row: ReturnType<typeof layoutRow>, isHeader: boolean) => {
      const top = this.y;
      if (isHeader) this.doc.rect(MARGIN.x, top, CONTENT_WIDTH, row.height).fill(SHADE);
      let x = MARGIN.x;
      row.wrapped.forEach((lines, column) => {
        lines.forEach((line, index) => {
          const baseline = top + pad + (index + 1) * leading - (leading - size) / 2 - 1;
          this.drawLine(line, x + pad, baseline, size);
        });
        x += widths[column]!;
      });
      this.y += row.height;
      this.hline(this.y, isHeader ? 1 : 0.5, isHeader ? MUTED : RULE);
    };

    const headerRow = layoutRow(header, true);
    this.space(4);
    this.ensure(headerRow.height + leading + pad * 2);
    paint(headerRow, true);
    for (const cells of rows) {
      const row = layoutRow(cells, false);
      if (this.y + row.height > PAGE.height - MARGIN.bottom) {
        this.newPage();
        paint(headerRow, true);
      }
      paint(row, false);
    }
    this.space(10);
  }

  rule(): void {
    this.ensure(12);
    this.space(6);
    this.hline(this.y, 0.75, RULE);
    this.space(6);
  }

  blocks(blocks: Block[]): void {
    for (const block of blocks) {
      switch (block.type) {
        case 'heading':
          this.heading(block.spans, block.level);
          break;
        case 'paragraph':
          this.paragraph(block.spans);
          break;
        case 'list':
          this.list(block.items);
          break;
        case 'quote':
          this.quote(block.blocks);
          break;
        case 'table':
          this.table(block.header, block.rows);
          break;
        case 'code':
          for (const line of block.text.split('\n')) {
            this.textBlock(
              [{ text: line || ' ', code: true }],
              { size: 9 },
              { indent: 10, leading: 12 },
            );
          }
          this.space(6);
          break;
        case 'rule':
          this.rule();
          break;
      }
    }
  }
}

const SOURCES_HEADINGS = new Set(Object.values(LABELS).map((labels) => labels.sources));

/** The body without its `## Sources` section: the PDF prints the sources from the front matter. */
export function withoutSourcesSection(blocks: Block[]): Block[] {
  const start = blocks.findIndex(
    (block) =>
      block.type === 'heading' &&
      block.level === 2 &&
      SOURCES_HEADINGS.has(spansText(block.spans).trim()),
  );
  if (start === -1) return blocks;
  const end = blocks.findIndex(
    (block, index) => index > start && block.type === 'heading' && block.level <= 2,
  );
  return [...blocks.slice(0, start), ...(end === -1 ? [] : blocks.slice(end))];
}

function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

export function articleUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/articles/${slug}`;
}

/**
 * The article as an A4 PDF: the site's name, title, summary, category, reading time and date,
 * the body (headings, paragraphs, lists, quotes and tables laid out; links printed as
 * "text (url)"), the sources, and on every page a footer with the site's name, the article's
 * address and the page number. Text in any script the fonts cover (Latin, Devanagari, Bengali,
 * Tamil, Telugu, Arabic) is shaped, whatever the labels' language. Generated from the stored
 * Markdown; the same input gives the same bytes (the dates are the publication day), so replies
 * can be cached.
 */
export async function renderArticlePdf(article: ArticlePdfContent): Promise<Uint8Array> {
  const labels = articleLabels(article.language);
  const published = new Date(`${article.publishedAt}T00:00:00Z`);
  const doc = createPdfDocument({
    title: article.title,
    subject: article.summary,
    author: APP_NAME,
    keywords: article.categoryName,
    language: labels.lang,
    date: Number.isNaN(published.getTime()) ? new Date(0) : published,
    size: [PAGE.width, PAGE.height],
    // The footers ("Page 1 of 3") are drawn once every page exists.
    bufferPages: true,
  });
  const text = new PdfText(doc);
  const layout = new ArticleLayout(text, article.publicUrl);
  const number = new Intl.NumberFormat(labels.locale);

  layout.textBlock(
    [{ text: APP_NAME.toUpperCase() }],
    { size: 9, bold: true, color: RED },
    { leading: 12 },
  );
  layout.space(8);
  layout.textBlock([{ text: article.title }], { size: 22, bold: true }, { leading: 27 });
  layout.space(6);
  layout.textBlock([{ text: article.summary }], { size: 12, color: MUTED }, { leading: 16 });
  layout.space(4);
  const minutes = labels.minutes(number.format(article.readingMinutes));
  const day = labels.published(formatDay(article.publishedAt, labels.locale));
  layout.textBlock(
    [{ text: `${article.categoryName}  ·  ${minutes}  ·  ${day}` }],
    { size: 9, color: MUTED },
    { leading: 14 },
  );
  layout.rule();

  layout.blocks(withoutSourcesSection(parseMarkdown(article.body)));

  if (article.sources.length > 0) {
    layout.heading([{ text: labels.sources }], 2);
    layout.list(
      article.sources.map((source, index) => ({
        marker: `${index + 1}.`,
        depth: 0,
        spans: [{ text: source.title, href: source.url }],
      })),
    );
  }

  const url = articleUrl(article.publicUrl, article.slug);
  const pageCount = layout.pageCount;
  for (let index = 0; index < pageCount; index++) {
    doc.switchToPage(index);
    const footer = PAGE.height - 50;
    doc
      .moveTo(MARGIN.x, footer)
      .lineTo(PAGE.width - MARGIN.x, footer)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    text.draw(APP_NAME, MARGIN.x, PAGE.height - 38, { size: 8, style: 'bold', color: MUTED });
    const pageLabel = labels.page(number.format(index + 1), number.format(pageCount));
    const labelWidth = text.width(pageLabel, { size: 8 });
    text.draw(pageLabel, PAGE.width - MARGIN.x - labelWidth, PAGE.height - 38, {
      size: 8,
      color: MUTED,
    });
    let shownUrl = url;
    while (shownUrl.length > 8 && text.width(shownUrl, { size: 8 }) > CONTENT_WIDTH) {
      shownUrl = `${shownUrl.slice(0, -4)}…`;
    }
    text.draw(shownUrl, MARGIN.x, PAGE.height - 27, { size: 8, color: LINK });
  }

  return pdfBytes(doc);
}
