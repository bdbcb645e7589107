import { inflateSync } from 'node:zlib';

/**
 * Reads back what a PDF shows, for tests: a small PDF object parser and content-stream
 * interpreter (not a general extractor). Text comes from each font's ToUnicode CMap, replaced by
 * a marked span's /ActualText where there is one, as PDF readers copy it; right-to-left runs
 * (drawn in visual order) are turned back to logical order. Lines are the baselines in drawing
 * order; pieces on one line are joined with a space where a gap separates them.
 */

type PdfValue =
  | number
  | boolean
  | null
  | { name: string }
  | { ref: number }
  | { str: string }
  | { op: string }
  | PdfValue[]
  | Map<string, PdfValue>;

const WHITESPACE = /[\0\t\n\f\r ]/;
const DELIMITER = /[()<>[\]{}/%]/;

class Lexer {
  constructor(
    readonly source: string,
    public pos = 0,
  ) {}

  private skip(): void {
    const s = this.source;
    while (this.pos < s.length) {
      if (WHITESPACE.test(s[this.pos]!)) this.pos++;
      else if (s[this.pos] === '%')
        while (this.pos < s.length && !/[\r\n]/.test(s[this.pos]!)) this.pos++;
      else break;
    }
  }

  atEnd(): boolean {
    this.skip();
    return this.pos >= this.source.length;
  }

  private literal(): string {
    const s = this.source;
    let depth = 1;
    let out = '';
    this.pos++;
    while (this.pos < s.length) {
      const c = s[this.pos++]!;
      if (c === '\\') {
        const n = s[this.pos++]!;
        const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
        if (escapes[n]) out += escapes[n];
        else if (/[0-7]/.test(n)) {
          let octal = n;
          while (octal.length < 3 && /[0-7]/.test(s[this.pos]!)) octal += s[this.pos++];
          out += String.fromCharCode(parseInt(octal, 8));
        } else if (n === '\r' || n === '\n') {
          if (n === '\r' && s[this.pos] === '\n') this.pos++;
        } else out += n;
      } else if (c === '(') {
        depth++;
        out += c;
      } else if (c === ')') {
        if (--depth === 0) break;
        out += c;
      } else out += c;
    }
    return out;
  }

  /** The next value; operators (content streams, `obj`, `stream`) come back as `{ op }`. */
  next(): PdfValue {
    this.skip();
    const s = this.source;
    const c = s[this.pos]!;
    if (c === '<' && s[this.pos + 1] === '<') {
      this.pos += 2;
      const dict = new Map<string, PdfValue>();
      for (;;) {
        this.skip();
        if (s.startsWith('>>', this.pos)) {
          this.pos += 2;
          return dict;
        }
        const key = this.next() as { name: string };
        dict.set(key.name, this.value());
      }
    }
    if (c === '<') {
      const end = s.indexOf('>', this.pos);
      const hex = s.slice(this.pos + 1, end).replace(/\s+/g, '');
      this.pos = end + 1;
      return { str: Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1') };
    }
    if (c === '(') return { str: this.literal() };
    if (c === '[') {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skip();
        if (s[this.pos] === ']') {
          this.pos++;
          return items;
        }
        items.push(this.value());
      }
    }
    if (c === '/') {
      let end = this.pos + 1;
      while (end < s.length && !WHITESPACE.test(s[end]!) && !DELIMITER.test(s[end]!)) end++;
      const name = s
        .slice(this.pos + 1, end)
        .replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      this.pos = end;
      return { name };
    }
    let end = this.pos;
    while (end < s.length && !WHITESPACE.test(s[end]!) && !DELIMITER.test(s[end]!)) end++;
    if (end === this.pos) end++;
    const word = s.slice(this.pos, end);
    this.pos = end;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return Number(word);
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    return { op: word };
  }

  /** A value where `N G R` is a reference. */
  value(): PdfValue {
    const first = this.next();
    if (typeof first !== 'number') return first;
    const save = this.pos;
    const second = this.next();
    if (typeof second === 'number') {
      const third = this.next();
      if (third && typeof third === 'object' && 'op' in third && third.op === 'R')
        return { ref: first };
    }
    this.pos = save;
    return first;
  }
}

interface PdfObject {
  value: PdfValue;
  stream?: Buffer;
}

function isDict(value: PdfValue | undefined): value is Map<string, PdfValue> {
  return value instanceof Map;
}

class PdfFile {
  readonly objects = new Map<number, PdfObject>();
  readonly trailer: Map<string, PdfValue>;

  constructor(readonly bytes: Buffer) {
    const source = bytes.toString('latin1');
    const header = /(\d+)\s+\d+\s+obj\b/g;
    let match: RegExpExecArray | null;
    while ((match = header.exec(source))) {
      const lexer = new Lexer(source, match.index + match[0].length);
      const value = lexer.value();
      const object: PdfObject = { value };
      const after = new Lexer(source, lexer.pos);
      const keyword = after.next();
      if (
        isDict(value) &&
        keyword &&
        typeof keyword === 'object' &&
        'op' in keyword &&
        keyword.op === 'stream'
      ) {
        let start = after.pos;
        if (source[start] === '\r') start++;
        if (source[start] === '\n') start++;
        const length = this.resolve(value.get('Length'));
        const end =
          typeof length === 'number' ? start + length : source.indexOf('endstream', start);
        const raw = bytes.subarray(start, end);
        const filter = value.get('Filter');
        object.stream =
          filter && typeof filter === 'object' && 'name' in filter && filter.name === 'FlateDecode'
            ? inflateSync(raw)
            : raw;
        header.lastIndex = end;
      } else {
        header.lastIndex = lexer.pos;
      }
      this.objects.set(Number(match[1]), object);
    }
    const trailerAt = source.lastIndexOf('trailer');
    this.trailer = new Lexer(source, trailerAt + 'trailer'.length).value() as Map<string, PdfValue>;
  }

  resolve(value: PdfValue | undefined): PdfValue | undefined {
    if (value && typeof value === 'object' && 'ref' in value)
      return this.objects.get(value.ref)?.value;
    return value;
  }

  dict(value: PdfValue | undefined): Map<string, PdfValue> {
    const resolved = this.resolve(value);
    return isDict(resolved) ? resolved : new Map();
  }

  stream(value: PdfValue | undefined): Buffer | undefined {
    return value && typeof value === 'object' && 'ref' in value
      ? this.objects.get(value.ref)?.stream
      : undefined;
  }

  pages(): Map<string, PdfValue>[] {
    const out: Map<string, PdfValue>[] = [];
    const walk = (node: Map<string, PdfValue>) => {
      const kids = this.resolve(node.get('Kids'));
      if (Array.isArray(kids)) for (const kid of kids) walk(this.dict(kid));
      else out.push(node);
    };
    walk(this.dict(this.dict(this.trailer.get('Root')).get('Pages')));
    return out;
  }
}

/** A PDF text string: UTF-16BE after a byte order mark, else PDFDocEncoding (≈ Latin-1). */
function textString(value: PdfValue | undefined): string {
  if (!value || typeof value !== 'object' || !('str' in value)) return '';
  const s = value.str;
  if (s.startsWith('\xfe\xff'))
    return Buffer.from(s.slice(2), 'latin1').swap16().toString('utf16le');
  return s;
}

function utf16be(hex: string): string {
  return Buffer.from(hex.replace(/\s+/g, ''), 'hex').swap16().toString('utf16le');
}

interface Font {
  /** Glyph code → text, from the ToUnicode CMap. */
  unicode: Map<number, string>;
  /** Glyph code → advance width in 1/1000 em. */
  widths: Map<number, number>;
  twoByte: boolean;
  baseFont: string;
}

function parseFont(file: PdfFile, dict: Map<string, PdfValue>): Font {
  const unicode = new Map<number, string>();
  const cmap = file.stream(dict.get('ToUnicode'))?.toString('latin1') ?? '';
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    const entries = block[1]!.matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F\s]*>)/g,
    );
    for (const [, from, to, target] of entries) {
      const start = parseInt(from!, 16);
      const end = parseInt(to!, 16);
      if (target!.startsWith('[')) {
        [...target!.matchAll(/<([0-9a-fA-F\s]*)>/g)].forEach(([, hex], i) =>
          unicode.set(start + i, utf16be(hex!)),
        );
      } else {
        const base = target!.slice(1, -1).replace(/\s+/g, '');
        for (let code = start; code <= end; code++) {
          const last = parseInt(base.slice(-4), 16) + (code - start);
          unicode.set(code, utf16be(base.slice(0, -4) + last.toString(16).padStart(4, '0')));
        }
      }
    }
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, from, hex] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]*)>/g)) {
      unicode.set(parseInt(from!, 16), utf16be(hex!));
    }
  }
  const widths = new Map<number, number>();
  const descendants = file.resolve(dict.get('DescendantFonts'));
  const descendant = Array.isArray(descendants) ? file.dict(descendants[0]) : undefined;
  const w = file.resolve(descendant?.get('W'));
  if (Array.isArray(w)) {
    for (let i = 0; i < w.length;) {
      const first = w[i] as number;
      const next = file.resolve(w[i + 1]);
      if (Array.isArray(next)) {
        next.forEach((width, k) => widths.set(first + k, Number(file.resolve(width))));
        i += 2;
      } else {
        for (let code = first; code <= (next as number); code++)
          widths.set(code, w[i + 2] as number);
        i += 3;
      }
    }
  }
  const baseFont = dict.get('BaseFont');
  return {
    unicode,
    widths,
    twoByte:
      dict.get('Subtype') !== undefined &&
      (dict.get('Subtype') as { name: string }).name === 'Type0',
    baseFont: baseFont && typeof baseFont === 'object' && 'name' in baseFont ? baseFont.name : '',
  };
}

/** One text object (BT … ET) as drawn. */
export interface TextPiece {
  page: number;
  /** What a reader copies: /ActualText where given, else the glyphs' text in logical order. */
  text: string;
  /** Each drawn glyph's ToUnicode text, in drawing order (left to right). */
  glyphs: string[];
  /** The drawn glyph codes (in pdfkit's fonts, 0 is the missing-glyph box, .notdef). */
  codes: number[];
  font: string;
  x: number;
  y: number;
  endX: number;
}

const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

function pagePieces(file: PdfFile, page: Map<string, PdfValue>, pageIndex: number): TextPiece[] {
  const resources = file.dict(page.get('Resources'));
  const fontRefs = file.dict(resources.get('Font'));
  const fonts = new Map<string, Font>();
  for (const [name, ref] of fontRefs) fonts.set(name, parseFont(file, file.dict(ref)));

  const contents = file.resolve(page.get('Contents'));
  const refs = Array.isArray(contents) ? contents : [page.get('Contents')!];
  const source = Buffer.concat(refs.map((ref) => file.stream(ref) ?? Buffer.alloc(0))).toString(
    'latin1',
  );

  const pieces: TextPiece[] = [];
  const lexer = new Lexer(source);
  const operands: PdfValue[] = [];
  const marks: { actual: string | null; used: boolean }[] = [];
  let font: Font | undefined;
  let fontName = '';
  let size = 0;
  let piece: (TextPiece & { actualUsed: boolean; origin: boolean }) | null = null;

  const show = (strings: PdfValue[]) => {
    if (!piece) return;
    const active = [...marks].reverse().find((mark) => mark.actual !== null);
    for (const item of strings) {
      if (typeof item === 'number') {
        piece.endX -= (item / 1000) * size;
        continue;
      }
      if (!item || typeof item !== 'object' || !('str' in item)) continue;
      const bytes = Buffer.from(item.str, 'latin1');
      const step = font?.twoByte ? 2 : 1;
      for (let i = 0; i + step <= bytes.length; i += step) {
        const code = step === 2 ? bytes.readUInt16BE(i) : bytes[i]!;
        const glyph = font?.unicode.get(code) ?? (step === 1 ? String.fromCharCode(code) : '');
        piece.glyphs.push(glyph);
        piece.codes.push(code);
        piece.endX += ((font?.widths.get(code) ?? 0) / 1000) * size;
      }
    }
    if (active && !active.used) {
      piece.text += active.actual;
      active.used = true;
      piece.actualUsed = true;
    }
  };

  while (!lexer.atEnd()) {
    const token = lexer.value();
    if (!token || typeof token !== 'object' || !('op' in token)) {
      operands.push(token);
      continue;
    }
    const args = operands.splice(0);
    switch (token.op) {
      case 'BT':
        piece = {
          page: pageIndex,
          text: '',
          glyphs: [],
          codes: [],
          font: '',
          x: 0,
          y: 0,
          endX: 0,
          actualUsed: false,
          origin: false,
        };
        break;
      case 'ET':
        if (piece && piece.glyphs.length > 0) {
          if (!piece.actualUsed) {
            const glyphs = piece.glyphs.join('');
            piece.text = RTL.test(glyphs) ? [...piece.glyphs].reverse().join('') : glyphs;
          }
          const { actualUsed: _used, origin: _origin, ...done } = piece;
          pieces.push(done);
        }
        piece = null;
        break;
      case 'Tf':
        fontName = (args[0] as { name: string }).name;
        font = fonts.get(fontName);
        size = args[1] as number;
        if (piece) piece.font = font?.baseFont ?? fontName;
        break;
      case 'Tm':
      case 'Td':
        if (piece && !piece.origin) {
          piece.x = args[token.op === 'Tm' ? 4 : 0] as number;
          piece.y = args[token.op === 'Tm' ? 5 : 1] as number;
          piece.endX = piece.x;
          piece.origin = true;
        }
        break;
      case 'Tj':
        show([args[0]!]);
        break;
      case 'TJ':
        show(args[0] as PdfValue[]);
        break;
      case 'BDC': {
        const properties = args[1];
        marks.push({
          actual:
            isDict(properties) && properties.has('ActualText')
              ? textString(properties.get('ActualText'))
              : null,
          used: false,
        });
        break;
      }
      case 'BMC':
        marks.push({ actual: null, used: false });
        break;
      case 'EMC':
        marks.pop();
        break;
      default:
        break;
    }
  }
  return pieces;
}

function parse(pdf: Uint8Array | Buffer): PdfFile {
  return new PdfFile(Buffer.from(pdf));
}

/** Every text object in drawing order, page by page. */
export function pdfPieces(pdf: Uint8Array | Buffer): TextPiece[] {
  const file = parse(pdf);
  return file.pages().flatMap((page, index) => pagePieces(file, page, index));
}

/** The lines of text (pieces sharing a baseline, in drawing order). */
export function pdfLines(pdf: Uint8Array | Buffer): string[] {
  const lines: string[] = [];
  let last: TextPiece | null = null;
  for (const piece of pdfPieces(pdf)) {
    if (last && last.page === piece.page && Math.abs(last.y - piece.y) < 0.5) {
      const gap = piece.x - last.endX;
      lines[lines.length - 1] += (gap > 0.5 || gap < -1 ? ' ' : '') + piece.text;
    } else {
      lines.push(piece.text);
    }
    last = piece;
  }
  return lines.map((line) => line.replace(/\s+/g, ' ').trim());
}

/** All the text, lines joined by a space: enough for `toContain`. */
export function pdfText(pdf: Uint8Array | Buffer): string {
  return pdfLines(pdf).join(' ');
}

/** Page count, title and language from the document catalog and info dictionary. */
export function pdfInfo(pdf: Uint8Array | Buffer): {
  pages: number;
  title: string;
  language: string;
  fonts: string[];
  mediaBox: number[];
} {
  const file = parse(pdf);
  const pages = file.pages();
  const info = file.dict(file.trailer.get('Info'));
  const catalog = file.dict(file.trailer.get('Root'));
  const fonts = new Set<string>();
  for (const page of pages) {
    for (const [, ref] of file.dict(file.dict(page.get('Resources')).get('Font'))) {
      const base = file.dict(ref).get('BaseFont');
      if (base && typeof base === 'object' && 'name' in base)
        fonts.add(base.name.replace(/^[A-Z]{6}\+/, ''));
    }
  }
  const box = file.resolve(pages[0]?.get('MediaBox'));
  return {
    pages: pages.length,
    title: textString(file.resolve(info.get('Title'))),
    language: textString(file.resolve(catalog.get('Lang'))),
    fonts: [...fonts].sort(),
    mediaBox: Array.isArray(box) ? box.map(Number) : [],
  };
}
