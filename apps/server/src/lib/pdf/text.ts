import PDFDocument from 'pdfkit';
import { fontKey, loadFont, type FontStyle } from './fonts';
import { lineRuns, printableText, type Run } from './script-runs';

export type { FontStyle } from './fonts';
/** A colour as `#rrggbb`. */
export type Color = string;

export interface TextOptions {
  size: number;
  style?: FontStyle;
  color?: Color;
}

export interface PdfMetadata {
  title: string;
  author: string;
  subject?: string;
  keywords?: string;
  /** BCP 47, e.g. `hi-IN`: the document's language for screen readers. */
  language: string;
  /** Creation and modification date: a fixed date gives the same bytes for the same input. */
  date: Date;
  size: [number, number];
  /** Keep pages open to draw on earlier ones later (page footers "Page 1 of 3"). */
  bufferPages?: boolean;
}

/** A pdfkit document with no margins, pages added by the caller, metadata set. */
export function createPdfDocument(meta: PdfMetadata): PDFKit.PDFDocument {
  return new PDFDocument({
    size: meta.size,
    // pdfkit starts on Helvetica, parsing its metrics for every document; the parsed Latin font
    // costs nothing (a font is embedded only if text uses it).
    font: loadFont('latin', 'regular') as never,
    margin: 0,
    autoFirstPage: false,
    bufferPages: meta.bufferPages ?? false,
    lang: meta.language,
    displayTitle: true,
    info: {
      Title: meta.title,
      Author: meta.author,
      Creator: meta.author,
      Producer: meta.author,
      ...(meta.subject ? { Subject: meta.subject } : {}),
      ...(meta.keywords ? { Keywords: meta.keywords } : {}),
      CreationDate: meta.date,
      ModDate: meta.date,
    },
  });
}

/** The finished file. */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    doc.end();
  });
}

/** A PDF text string: UTF-16BE (JavaScript strings are UTF-16 already) after a byte order mark. */
function pdfTextString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex.toUpperCase()}>`;
}

type ContentWriter = { addContent(data: string): unknown };

/**
 * Draws `show` with its glyphs marked as standing for `text` (`/Span <</ActualText …>> BDC …
 * EMC`). The span opens inside the text object, after the font is set: extractors (poppler, for
 * one) place the text where the span opens, and pdfkit's text() opens and closes its own text
 * object, so its content operators are intercepted for the duration of the call.
 */
function withActualText(doc: PDFKit.PDFDocument, text: string, show: () => void): void {
  const writer = doc as unknown as ContentWriter;
  const addContent = writer.addContent;
  let open = false;
  writer.addContent = function intercept(this: ContentWriter, data: string) {
    if (data === 'ET' && open) {
      addContent.call(this, 'EMC');
      open = false;
    }
    const result = addContent.call(this, data);
    if (!open && data.endsWith(' Tf')) {
      addContent.call(this, `/Span <</ActualText ${pdfTextString(text)}>> BDC`);
      open = true;
    }
    return result;
  };
  try {
    show();
  } finally {
    writer.addContent = addContent;
  }
}

/**
 * Measures and draws text in any script the fonts cover, on one pdfkit document: each line is
 * cut into runs by script and direction (see lineRuns), each run is shaped by fontkit in its
 * font, and each left-to-right run is marked with its logical text (`/ActualText`), so copying,
 * searching and screen readers get "कि", not the drawn glyph order "ि क". Shaped runs and widths
 * are kept for the document's life; parsed fonts for the process's (see fonts.ts).
 */
export class PdfText {
  private readonly registered = new Set<string>();
  private readonly widths = new Map<string, number>();
  private readonly runs = new Map<string, Run[]>();

  constructor(readonly doc: PDFKit.PDFDocument) {}

  private useFont(run: Run, style: FontStyle, size: number): void {
    const key = fontKey(run.face, style);
    if (!this.registered.has(key)) {
      // pdfkit takes a parsed fontkit font as it is (its types only list files and buffers).
      this.doc.registerFont(key, loadFont(run.face, style) as never);
      this.registered.add(key);
    }
    this.doc.font(key).fontSize(size);
  }

  /** Right-to-left runs are shaped whole (pdfkit would lay out word by word, left to right). */
  private features(run: Run): PDFKit.Mixins.OpenTypeFeatures[] | undefined {
    return run.rtl ? [] : undefined;
  }

  private runWidth(run: Run, style: FontStyle, size: number): number {
    const key = `${fontKey(run.face, style)}|${run.rtl ? 1 : 0}|${run.text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      this.useFont(run, style, 1000);
      width = this.doc.widthOfString(run.text, { features: this.features(run) }) / 1000;
      this.widths.set(key, width);
    }
    return width * size;
  }

  private lineRuns(text: string, style: FontStyle): Run[] {
    const key = `${style}|${text}`;
    let runs = this.runs.get(key);
    if (!runs) {
      runs = lineRuns(text, style);
      this.runs.set(key, runs);
    }
    return runs;
  }

  /** The width of one line of text, in points. */
  width(text: string, options: TextOptions): number {
    const style = options.style ?? 'regular';
    return this.lineRuns(printableText(text, style), style).reduce(
      (sum, run) => sum + this.runWidth(run, style, options.size),
      0,
    );
  }

  /**
   * Draws one line (no wrapping) with its baseline at `y` (pdfkit's coordinates: from the top
   * of the page). Returns the width drawn.
   */
  draw(text: string, x: number, y: number, options: TextOptions): number {
    const style = options.style ?? 'regular';
    const logical = printableText(text, style);
    if (logical.trim() === '') return this.width(logical, options);
    this.doc.fillColor(options.color ?? '#000000');
    let cursor = x;
    for (const run of this.lineRuns(logical, style)) {
      const width = this.runWidth(run, style, options.size);
      this.useFont(run, style, options.size);
      const show = () =>
        this.doc.text(run.text, cursor, y, {
          lineBreak: false,
          baseline: 'alphabetic',
          features: this.features(run),
        });
      // Right-to-left runs carry no /ActualText: readers take drawn Arabic as visual order and
      // reverse it themselves (poppler reversed an /ActualText given in logical order).
      if (run.rtl) show();
      else withActualText(this.doc, run.text, show);
      cursor += width;
    }
    return cursor - x;
  }
}
