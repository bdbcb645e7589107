import { APP_NAME } from '@bdms/shared';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { parseMarkdown, spansText, type Block, type Span } from './markdown';

/** A4 portrait, in PDF points. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { x: 56, top: 60, bottom: 72 };
const CONTENT_WIDTH = PAGE.width - MARGIN.x * 2;
const RED = rgb(0.725, 0.11, 0.11);
const INK = rgb(0.12, 0.16, 0.22);
const MUTED = rgb(0.36, 0.39, 0.44);
const LINK = rgb(0.08, 0.32, 0.62);
const RULE = rgb(0.82, 0.84, 0.87);
const SHADE = rgb(0.95, 0.96, 0.97);

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
}

/**
 * The standard PDF fonts cover only WinAnsi (Western European) characters, and pdf-lib throws on
 * anything else, so text is made safe first: common typography is mapped to its closest WinAnsi
 * form, accented letters outside the set lose their accents, and whatever is left becomes "?".
 */
const REPLACEMENTS: Record<string, string> = {
  '\u2212': '-', // minus sign (B−)
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '—',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2248': '~',
  '\u2192': '->',
  '\u2190': '<-',
  '\u2194': '<->',
  '\u21d2': '=>',
  '\u2713': 'v',
  '\u2714': 'v',
  '\u2717': 'x',
  '\u2715': 'x',
  '\u20b9': 'Rs ',
  '\u2032': "'",
  '\u2033': '"',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u202f': ' ',
  '\u2007': ' ',
  '\u200b': '',
  '\u200c': '',
  '\u200d': '',
  '\ufeff': '',
  '\u00ad': '',
  '\t': ' ',
};

export function toWinAnsi(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    if (supported.has(code) && code >= 0x20) {
      out += char;
      continue;
    }
    const replacement = REPLACEMENTS[char];
    if (replacement !== undefined) {
      out += replacement;
      continue;
    }
    if (char === '\n' || char === '\r') {
      out += ' ';
      continue;
    }
    // ā → a, ṭ → t: drop the combining marks when the base letter is printable.
    const base = char.normalize('NFD').replace(/\p{M}+/gu, '');
    out += base && [...base].every((c) => supported.has(c.codePointAt(0) ?? 0)) ? base : '?';
  }
  return out;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  boldItalic: PDFFont;
  mono: PDFFont;
}

interface Piece {
  text: string;
  font: PDFFont;
  color: RGB;
  width: number;
}

/** A word: pieces with no space between them ("**bold**," is two pieces). */
interface Word {
  pieces: Piece[];
  width: number;
}

interface TextStyle {
  size: number;
  color?: RGB;
  /** Force every piece bold (headings, table headers). */
  bold?: boolean;
  italic?: boolean;
}

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

class ArticleLayout {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: Fonts,
    private readonly publicUrl: string,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = PAGE.height - MARGIN.top;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number): void {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  /** Nothing drawn on this page yet: no space is added before a heading. */
  atTop(): boolean {
    return this.y === PAGE.height - MARGIN.top;
  }

  space(points: number): void {
    this.y -= points;
  }

  private fontFor(span: Span, style: TextStyle): PDFFont {
    if (span.code) return this.fonts.mono;
    const bold = style.bold || span.bold;
    const italic = style.italic || span.italic;
    if (bold && italic) return this.fonts.boldItalic;
    if (bold) return this.fonts.bold;
    if (italic) return this.fonts.italic;
    return this.fonts.regular;
  }

  private words(spans: Span[], style: TextStyle): Word[] {
    const words: Word[] = [];
    let current: Word | null = null;
    for (const span of withLinkTargets(spans, this.publicUrl)) {
      const font = this.fontFor(span, style);
      const color =
        span.href === '' ? MUTED : span.href !== undefined ? LINK : (style.color ?? INK);
      for (const part of toWinAnsi(font, span.text).split(/( +)/)) {
        if (part === '') continue;
        if (/^ +$/.test(part)) {
          current = null;
          continue;
        }
        const piece = { text: part, font, color, width: font.widthOfTextAtSize(part, style.size) };
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

  /** A word wider than the line (a long URL) is cut into pieces that fit. */
  private splitLongWord(word: Word, width: number, size: number): Word[] {
    const out: Word[] = [];
    let current: Word = { pieces: [], width: 0 };
    for (const piece of word.pieces) {
      let text = '';
      for (const char of piece.text) {
        const candidate = text + char;
        const candidateWidth = piece.font.widthOfTextAtSize(candidate, size);
        if (current.width + candidateWidth > width && (text !== '' || current.pieces.length > 0)) {
          if (text) {
            const w = piece.font.widthOfTextAtSize(text, size);
            current.pieces.push({ ...piece, text, width: w });
            current.width += w;
          }
          out.push(current);
          current = { pieces: [], width: 0 };
          text = char;
        } else {
          text = candidate;
        }
      }
      if (text) {
        const w = piece.font.widthOfTextAtSize(text, size);
        current.pieces.push({ ...piece, text, width: w });
        current.width += w;
      }
    }
    if (current.pieces.length > 0) out.push(current);
    return out;
  }

  /** Wraps the spans into lines of at most `width` points. */
  wrap(spans: Span[], style: TextStyle, width: number): Word[][] {
    const spaceWidth = this.fonts.regular.widthOfTextAtSize(' ', style.size);
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

  private drawLine(line: Word[], x: number, y: number, size: number): void {
    const spaceWidth = this.fonts.regular.widthOfTextAtSize(' ', size);
    let cursor = x;
    line.forEach((word, index) => {
      if (index > 0) cursor += spaceWidth;
      for (const piece of word.pieces) {
        this.page.drawText(piece.text, {
          x: cursor,
          y,
          size,
          font: piece.font,
          color: piece.color,
        });
        cursor += piece.width;
      }
    });
  }

  /** Wrapped text at the cursor, moving down; breaks pages between lines. */
  text(
    spans: Span[],
    style: TextStyle,
    options: {
      indent?: number;
      leading?: number;
      onLine?: (page: PDFPage, y: number, leading: number) => void;
    } = {},
  ): void {
    const indent = options.indent ?? 0;
    const leading = options.leading ?? style.size * 1.42;
    for (const line of this.wrap(spans, style, CONTENT_WIDTH - indent)) {
      this.ensure(leading);
      this.y -= leading;
      const baseline = this.y + (leading - style.size) / 2 + 1;
      this.drawLine(line, MARGIN.x + indent, baseline, style.size);
      options.onLine?.(this.page, this.y, leading);
    }
  }

  heading(spans: Span[], level: number): void {
    const size = level <= 2 ? 15 : 12.5;
    const leading = size * 1.3;
    // Keep a heading with at least two lines of what follows it.
    this.ensure(leading + 12 + BODY_LEADING * 2);
    if (!this.atTop()) this.space(level <= 2 ? 12 : 8);
    this.text(spans, { size, bold: true, color: level <= 2 ? RED : INK }, { leading });
    this.space(3);
  }

  paragraph(spans: Span[], indent = 0, color?: RGB, italic = false): void {
    this.text(spans, { size: BODY_SIZE, color, italic }, { indent, leading: BODY_LEADING });
    this.space(5);
  }

  list(items: { marker: string; depth: number; spans: Span[] }[], indent = 0): void {
    for (const item of items) {
      const left = indent + item.depth * 14;
      const markerWidth = Math.max(
        12,
        this.fonts.regular.widthOfTextAtSize(`${item.marker} `, BODY_SIZE) + 3,
      );
      const lines = this.wrap(item.spans, { size: BODY_SIZE }, CONTENT_WIDTH - left - markerWidth);
      lines.forEach((line, index) => {
        this.ensure(BODY_LEADING);
        this.y -= BODY_LEADING;
        const baseline = this.y + (BODY_LEADING - BODY_SIZE) / 2 + 1;
        if (index === 0) {
          const marker = toWinAnsi(this.fonts.regular, item.marker);
          this.page.drawText(marker, {
            x: MARGIN.x + left,
            y: baseline,
            size: BODY_SIZE,
            font: item.marker === '•' ? this.fonts.bold : this.fonts.regular,
            color: item.marker === '•' ? RED : INK,
          });
        }
        this.drawLine(line, MARGIN.x + left + markerWidth, baseline, BODY_SIZE);
      });
      this.space(2);
    }
    this.space(4);
  }

  quote(blocks: Block[]): void {
    const bar = (page: PDFPage, y: number, leading: number) =>
      page.drawRectangle({ x: MARGIN.x + 2, y, width: 2.5, height: leading, color: RED });
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
      this.text(
        spans,
        { size: BODY_SIZE, color: MUTED, italic: true },
        { indent: 14, leading: BODY_LEADING, onLine: bar },
      );
      this.space(4);
    }
    this.space(4);
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

    const drawRow = (cells: Span[][], isHeader: boolean) => {
      const wrapped = widths.map((width, column) =>
        this.wrap(cells[column] ?? [], { size, bold: isHeader }, width - pad * 2),
      );
      const height = Math.max(1, ...wrapped.map((lines) => lines.length)) * leading + pad * 2;
      return { wrapped, height };
    };
    const paint = (row: ReturnType<typeof drawRow>, isHeader: boolean) => {
      const top = this.y;
      if (isHeader) {
        this.page.drawRectangle({
          x: MARGIN.x,
          y: top - row.height,
          width: CONTENT_WIDTH,
          height: row.height,
          color: SHADE,
        });
      }
      let x = MARGIN.x;
      row.wrapped.forEach((lines, column) => {
        lines.forEach((line, index) => {
          const baseline = top - pad - (index + 1) * leading + (leading - size) / 2 + 1;
          this.drawLine(line, x + pad, baseline, size);
        });
        x += widths[column]!;
      });
      this.y -= row.height;
      this.page.drawLine({
        start: { x: MARGIN.x, y: this.y },
        end: { x: MARGIN.x + CONTENT_WIDTH, y: this.y },
        thickness: isHeader ? 1 : 0.5,
        color: isHeader ? MUTED : RULE,
      });
    };

    const headerRow = drawRow(header, true);
    this.space(4);
    this.ensure(headerRow.height + leading + pad * 2);
    paint(headerRow, true);
    for (const cells of rows) {
      const row = drawRow(cells, false);
      if (this.y - row.height < MARGIN.bottom) {
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
    this.page.drawLine({
      start: { x: MARGIN.x, y: this.y },
      end: { x: MARGIN.x + CONTENT_WIDTH, y: this.y },
      thickness: 0.75,
      color: RULE,
    });
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
            this.text(
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

/** The body without its `## Sources` section: the PDF prints the sources from the front matter. */
export function withoutSourcesSection(blocks: Block[]): Block[] {
  const start = blocks.findIndex(
    (block) =>
      block.type === 'heading' && block.level === 2 && spansText(block.spans).trim() === 'Sources',
  );
  if (start === -1) return blocks;
  const end = blocks.findIndex(
    (block, index) => index > start && block.type === 'heading' && block.level <= 2,
  );
  return [...blocks.slice(0, start), ...(end === -1 ? [] : blocks.slice(end))];
}

function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat('en-IN', {
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
 * address and the page number. Generated from the stored Markdown; the same input gives the
 * same bytes (the dates are the publication day), so replies can be cached.
 */
export async function renderArticlePdf(article: ArticlePdfContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const published = new Date(`${article.publishedAt}T00:00:00Z`);
  pdf.setTitle(article.title);
  pdf.setSubject(article.summary);
  pdf.setAuthor(APP_NAME);
  pdf.setCreator(APP_NAME);
  pdf.setProducer(APP_NAME);
  pdf.setKeywords([article.categoryName]);
  pdf.setLanguage('en-IN');
  if (!Number.isNaN(published.getTime())) {
    pdf.setCreationDate(published);
    pdf.setModificationDate(published);
  }
  const fonts: Fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
    italic: await pdf.embedFont(StandardFonts.HelveticaOblique),
    boldItalic: await pdf.embedFont(StandardFonts.HelveticaBoldOblique),
    mono: await pdf.embedFont(StandardFonts.Courier),
  };
  const layout = new ArticleLayout(pdf, fonts, article.publicUrl);

  layout.text(
    [{ text: APP_NAME.toUpperCase() }],
    { size: 9, bold: true, color: RED },
    { leading: 12 },
  );
  layout.space(8);
  layout.text([{ text: article.title }], { size: 22, bold: true }, { leading: 27 });
  layout.space(6);
  layout.text([{ text: article.summary }], { size: 12, color: MUTED }, { leading: 16 });
  layout.space(4);
  const minutes = `${article.readingMinutes} min read`;
  layout.text(
    [
      {
        text: `${article.categoryName}  ·  ${minutes}  ·  Published ${formatDay(article.publishedAt)}`,
      },
    ],
    { size: 9, color: MUTED },
    { leading: 14 },
  );
  layout.rule();

  layout.blocks(withoutSourcesSection(parseMarkdown(article.body)));

  if (article.sources.length > 0) {
    layout.heading([{ text: 'Sources' }], 2);
    layout.list(
      article.sources.map((source, index) => ({
        marker: `${index + 1}.`,
        depth: 0,
        spans: [{ text: source.title, href: source.url }],
      })),
    );
  }

  const url = articleUrl(article.publicUrl, article.slug);
  const pageCount = layout.pages.length;
  layout.pages.forEach((page, index) => {
    const regular = fonts.regular;
    page.drawLine({
      start: { x: MARGIN.x, y: 50 },
      end: { x: PAGE.width - MARGIN.x, y: 50 },
      thickness: 0.5,
      color: RULE,
    });
    page.drawText(toWinAnsi(fonts.bold, APP_NAME), {
      x: MARGIN.x,
      y: 38,
      size: 8,
      font: fonts.bold,
      color: MUTED,
    });
    const pageLabel = `Page ${index + 1} of ${pageCount}`;
    page.drawText(pageLabel, {
      x: PAGE.width - MARGIN.x - regular.widthOfTextAtSize(pageLabel, 8),
      y: 38,
      size: 8,
      font: regular,
      color: MUTED,
    });
    let shownUrl = toWinAnsi(regular, url);
    while (shownUrl.length > 8 && regular.widthOfTextAtSize(shownUrl, 8) > CONTENT_WIDTH) {
      shownUrl = `${shownUrl.slice(0, -4)}…`;
    }
    page.drawText(shownUrl, { x: MARGIN.x, y: 27, size: 8, font: regular, color: LINK });
  });

  return pdf.save({ useObjectStreams: false });
}
