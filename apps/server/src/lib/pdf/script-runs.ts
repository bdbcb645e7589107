import bidiFactory from 'bidi-js';
import { FALLBACK_ORDER, loadFont, type FaceId, type FontStyle } from './fonts';

/** A piece of one line set in one font, in the order it is drawn (left to right). */
export interface Run {
  text: string;
  face: FaceId;
  /** Right to left (an odd bidi level): shaped as a whole, fontkit lays its glyphs out reversed. */
  rtl: boolean;
}

const SCRIPT_FACES: [RegExp, FaceId][] = [
  [/\p{Script=Devanagari}/u, 'devanagari'],
  [/\p{Script=Bengali}/u, 'bengali'],
  [/\p{Script=Tamil}/u, 'tamil'],
  [/\p{Script=Telugu}/u, 'telugu'],
  [/\p{Script=Arabic}/u, 'arabic'],
];
const LATIN = /\p{Script=Latin}/u;
/** Joiners, variation selectors and the like: fontkit hides them, they need no glyph. */
const INVISIBLE = /[\p{Cf}\ufe00-\ufe0f]/u;

/** Characters that can start a right-to-left stretch; without any, every level is 0. */
const RTL_CHARS =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\u200f\u202b\u202e\u2067]/u;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const bidi = bidiFactory();

function covers(face: FaceId, style: FontStyle, cluster: string): boolean {
  const font = loadFont(face, style);
  for (const char of cluster) {
    if (INVISIBLE.test(char)) continue;
    if (!font.hasGlyphForCodePoint(char.codePointAt(0)!)) return false;
  }
  return true;
}

/** The face a cluster must use (its script's), or null for digits, spaces and punctuation. */
function strongFace(cluster: string, style: FontStyle): FaceId | null {
  for (const [pattern, face] of SCRIPT_FACES) if (pattern.test(cluster)) return face;
  if (LATIN.test(cluster)) return covers('latin', style, cluster) ? 'latin' : 'latin-ext';
  return null;
}

/**
 * Characters none of the fonts has (Noto's per-script subsets leave out maths and arrows), as
 * their closest printable form; anything else missing becomes "?" rather than an empty box.
 */
const REPLACEMENTS: Record<string, string> = {
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
  '\u2015': '—',
  '\t': ' ',
  '\n': ' ',
  '\r': ' ',
};

const printableCache = new Map<string, boolean>();

function isPrintable(char: string, style: FontStyle): boolean {
  if (INVISIBLE.test(char)) return true;
  const key = `${style}|${char}`;
  let known = printableCache.get(key);
  if (known === undefined) {
    known = char >= ' ' && FALLBACK_ORDER.some((face) => covers(face, style, char));
    printableCache.set(key, known);
  }
  return known;
}

/** The text as it can be printed: NFC, characters no font has replaced (see REPLACEMENTS). */
export function printableText(text: string, style: FontStyle): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    if (isPrintable(char, style)) {
      out += char;
      continue;
    }
    const replacement = REPLACEMENTS[char];
    if (replacement !== undefined) {
      out += replacement;
      continue;
    }
    // A letter with an accent no font has keeps its base letter (ǹ → n).
    const base = char.normalize('NFD').replace(/\p{M}+/gu, '');
    out += base && base !== char && [...base].every((c) => isPrintable(c, style)) ? base : '?';
  }
  return out;
}

function fallbackFace(cluster: string, style: FontStyle): FaceId {
  return FALLBACK_ORDER.find((face) => covers(face, style, cluster)) ?? 'latin';
}

interface Cluster {
  text: string;
  start: number;
  face: FaceId;
}

/**
 * Chooses a font for every character: a script's own (Devanagari, Bengali, Tamil, Telugu,
 * Arabic), Latin for Latin letters, and for neutral characters (spaces, digits, punctuation) the
 * surrounding script's font when it has the glyph, so "राजेश कुमार" stays one shaped run.
 */
function clusters(text: string, style: FontStyle): Cluster[] {
  const out: (Cluster & { strong: boolean })[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    const face = strongFace(segment, style);
    out.push({ text: segment, start: index, face: face ?? 'latin', strong: face !== null });
  }
  const nextStrong: (FaceId | null)[] = [];
  for (let index = out.length - 1, face: FaceId | null = null; index >= 0; index--) {
    nextStrong[index] = face;
    if (out[index]!.strong) face = out[index]!.face;
  }
  let previous: FaceId | null = null;
  out.forEach((cluster, index) => {
    if (cluster.strong) {
      previous = cluster.face;
      return;
    }
    const shared = previous !== null && nextStrong[index] === previous ? previous : null;
    cluster.face =
      shared && covers(shared, style, cluster.text) ? shared : fallbackFace(cluster.text, style);
  });
  return out;
}

/**
 * The runs of one line in drawing order: split by font and by direction (Unicode bidi algorithm,
 * UAX #9, left-to-right paragraph), right-to-left stretches reordered as the algorithm says.
 */
export function lineRuns(text: string, style: FontStyle): Run[] {
  if (text === '') return [];
  const levels = RTL_CHARS.test(text)
    ? bidi.getEmbeddingLevels(text, 'ltr').levels
    : new Uint8Array(text.length);
  const logical: (Run & { level: number })[] = [];
  for (const cluster of clusters(text, style)) {
    const level = levels[cluster.start] ?? 0;
    const last = logical.at(-1);
    if (last && last.face === cluster.face && last.level === level) {
      last.text += cluster.text;
    } else {
      logical.push({ text: cluster.text, face: cluster.face, level, rtl: level % 2 === 1 });
    }
  }
  // Rule L2: from the highest level down to the lowest odd one, reverse every stretch of runs
  // at that level or above.
  const highest = Math.max(...logical.map((run) => run.level));
  if (highest === 0)
    return logical.map(({ text: runText, face, rtl }) => ({ text: runText, face, rtl }));
  const lowestOdd = Math.min(...logical.map((run) => run.level).filter((level) => level % 2 === 1));
  for (let level = highest; level >= lowestOdd && level > 0; level--) {
    for (let i = 0; i < logical.length; i++) {
      if (logical[i]!.level < level) continue;
      let end = i;
      while (end + 1 < logical.length && logical[end + 1]!.level >= level) end++;
      logical.splice(i, end - i + 1, ...logical.slice(i, end + 1).reverse());
      i = end;
    }
  }
  return logical.map(({ text: runText, face, rtl }) => ({ text: runText, face, rtl }));
}
