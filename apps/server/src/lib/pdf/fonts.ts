import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';

/**
 * The open fonts (Noto, SIL Open Font License 1.1) the server prints PDFs with, from the
 * @fontsource packages: each package's LICENSE file carries the licence text, and PDFs embed
 * only the glyphs they use (pdfkit subsets). Google's per-script subsets keep each script's
 * OpenType tables, so fontkit can shape conjuncts, reordered vowel signs and joined Arabic.
 */
export type FaceId =
  'latin' | 'latin-ext' | 'devanagari' | 'bengali' | 'tamil' | 'telugu' | 'arabic';
export type FontStyle = 'regular' | 'bold' | 'italic' | 'boldItalic';

interface FaceSource {
  package: string;
  /** File name prefix inside `<package>/files/`. */
  prefix: string;
  hasItalic: boolean;
  /** Written right to left: shaped as a whole run, never word by word. */
  rtl?: boolean;
}

const FACES: Record<FaceId, FaceSource> = {
  latin: { package: '@fontsource/noto-sans', prefix: 'noto-sans-latin', hasItalic: true },
  'latin-ext': { package: '@fontsource/noto-sans', prefix: 'noto-sans-latin-ext', hasItalic: true },
  devanagari: {
    package: '@fontsource/noto-sans-devanagari',
    prefix: 'noto-sans-devanagari-devanagari',
    hasItalic: false,
  },
  bengali: {
    package: '@fontsource/noto-sans-bengali',
    prefix: 'noto-sans-bengali-bengali',
    hasItalic: false,
  },
  tamil: {
    package: '@fontsource/noto-sans-tamil',
    prefix: 'noto-sans-tamil-tamil',
    hasItalic: false,
  },
  telugu: {
    package: '@fontsource/noto-sans-telugu',
    prefix: 'noto-sans-telugu-telugu',
    hasItalic: false,
  },
  arabic: {
    package: '@fontsource/noto-sans-arabic',
    prefix: 'noto-sans-arabic-arabic',
    hasItalic: false,
    rtl: true,
  },
};

/** Where a character of no particular script (a digit, "₹", "–") is looked for, in order. */
export const FALLBACK_ORDER: readonly FaceId[] = [
  'latin',
  'latin-ext',
  'devanagari',
  'bengali',
  'tamil',
  'telugu',
  'arabic',
];

export function isRtlFace(face: FaceId): boolean {
  return FACES[face].rtl === true;
}

const require = createRequire(import.meta.url);
/** Parsed once per process and shared by every document (fontkit fonts are read-only). */
const parsed = new Map<string, fontkit.Font>();

function fileName(face: FaceId, style: FontStyle): string {
  const source = FACES[face];
  const bold = style === 'bold' || style === 'boldItalic';
  const italic = source.hasItalic && (style === 'italic' || style === 'boldItalic');
  return `${source.prefix}-${bold ? 700 : 400}-${italic ? 'italic' : 'normal'}.woff`;
}

/** The cache key of a face in a style: faces without italics share their upright key. */
export function fontKey(face: FaceId, style: FontStyle): string {
  return fileName(face, style).replace(/\.woff$/, '');
}

/** The parsed font of a face in a style, read from its package the first time it is needed. */
export function loadFont(face: FaceId, style: FontStyle): fontkit.Font {
  const name = fileName(face, style);
  let font = parsed.get(name);
  if (!font) {
    const path = require.resolve(`${FACES[face].package}/files/${name}`);
    font = fontkit.create(woffToSfnt(readFileSync(path))) as fontkit.Font;
    patchNullAnchors(font);
    memoizeLayout(font);
    parsed.set(name, font);
  }
  return font;
}

/**
 * A WOFF 1.0 file unwrapped into the plain TrueType/OpenType font it compresses
 * (https://www.w3.org/TR/WOFF/: a header, a table directory, zlib-compressed tables). fontkit
 * reads WOFF itself but inflates a table again on every access, in pure JavaScript: subsetting
 * one certificate's fonts took ~0.5 s. Unwrapped once with node:zlib, a font is read directly.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, index) => {
    const entry = 44 + index * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const stored = woff.subarray(offset, offset + compLength);
    return {
      tag: woff.subarray(entry, entry + 4),
      checksum: woff.readUInt32BE(entry + 16),
      data: compLength < origLength ? inflateSync(stored) : stored,
    };
  });
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + numTables * 16);
  woff.copy(header, 0, 4, 8); // the font's own version (flavor)
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, index) => {
    const record = 12 + index * 16;
    table.tag.copy(header, record);
    header.writeUInt32BE(table.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.data.length, record + 12);
    const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/** Shaped runs kept per process; the certificate's fixed texts are shaped once per language. */
const LAYOUT_CACHE_MAX = 5_000;

/**
 * Shaping (fontkit's GSUB/GPOS lookups) was most of a certificate's time, for the same fixed
 * texts every time. Each font keeps its recent runs; pdfkit scales a run's positions in place,
 * so every caller gets its own copy of the positions (glyphs are fontkit's shared objects).
 */
function memoizeLayout(font: fontkit.Font): void {
  const layout = font.layout.bind(font);
  const runs = new Map<string, fontkit.GlyphRun>();
  font.layout = ((text: string, features?: unknown) => {
    const key = features === undefined ? text : `${JSON.stringify(features)}\u0000${text}`;
    let run = runs.get(key);
    if (!run) {
      run = layout(text, features as never);
      if (runs.size >= LAYOUT_CACHE_MAX) runs.delete(runs.keys().next().value as string);
      runs.set(key, run);
    }
    return Object.assign(
      Object.create(Object.getPrototypeOf(run) as object) as fontkit.GlyphRun,
      run,
      {
        positions: run.positions.map((position) => ({ ...position })),
      },
    );
  }) as typeof font.layout;
}

let anchorsPatched = false;

/**
 * fontkit 2.0.4 (its latest release) throws "Cannot read properties of null (reading
 * 'xCoordinate')" on GPOS mark records whose anchor is NULL, which the OpenType spec allows and
 * Noto Sans Telugu uses: every Telugu name with a vowel sign failed. Like HarfBuzz (and the
 * pending fix, foliojs/fontkit#374 for #367), such a record is skipped. The processor class is
 * not exported, so its prototype is reached through a font's layout engine, once per process.
 */
function patchNullAnchors(font: fontkit.Font): void {
  if (anchorsPatched) return;
  font.layout('a');
  const engine = (font as unknown as { _layoutEngine?: { engine?: { GPOSProcessor?: object } } })
    ._layoutEngine?.engine;
  const processor = engine?.GPOSProcessor;
  if (!processor) return;
  const prototype = Object.getPrototypeOf(processor) as {
    applyAnchor?: (
      markRecord: { markAnchor?: unknown } | null,
      baseAnchor: unknown,
      index: number,
    ) => void;
  };
  const original = prototype.applyAnchor;
  if (typeof original !== 'function') return;
  prototype.applyAnchor = function applyAnchor(markRecord, baseAnchor, index) {
    if (!baseAnchor || !markRecord?.markAnchor) return;
    original.call(this, markRecord, baseAnchor, index);
  };
  anchorsPatched = true;
}
