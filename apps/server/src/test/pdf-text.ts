import { inflateSync } from 'node:zlib';

/** WinAnsi bytes 0x80–0x9f that differ from Latin-1 (the rest map to the same code point). */
const WIN_ANSI_HIGH: Record<number, string> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

function decodeWinAnsi(bytes: Buffer): string {
  return Array.from(bytes, (byte) => WIN_ANSI_HIGH[byte] ?? String.fromCharCode(byte)).join('');
}

/**
 * The text a pdf-lib document draws with the standard fonts, in drawing order, pieces joined by
 * spaces: enough for tests to check what is printed (not a general PDF text extractor).
 */
export function pdfText(pdf: Uint8Array | Buffer): string {
  const source = Buffer.from(pdf);
  const latin = source.toString('latin1');
  const pieces: string[] = [];
  const streams = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streams.exec(latin))) {
    const start = match.index + match[0].length;
    const end = latin.indexOf('endstream', start);
    if (end === -1) break;
    const raw = source.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(raw).toString('latin1');
    } catch {
      content = raw.toString('latin1');
    }
    for (const text of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      pieces.push(
        text[1] !== undefined
          ? decodeWinAnsi(Buffer.from(text[1], 'hex'))
          : (text[2] ?? '').replace(/\\(.)/g, '$1'),
      );
    }
    streams.lastIndex = end + 'endstream'.length;
  }
  return pieces.join(' ').replace(/\s+/g, ' ');
}
