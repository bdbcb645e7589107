import { inflateSync } from 'node:zlib';

/** The text a PDF shows, as far as pdf-lib writes it: inflated content streams, hex and literal strings. */
export function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const contents: string[] = [raw];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (let match = streams.exec(raw); match; match = streams.exec(raw)) {
    try {
      contents.push(inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1'));
    } catch {
      // not a deflated stream
    }
  }
  const text: string[] = [];
  for (const content of contents) {
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) {
      text.push(Buffer.from(hex ?? '', 'hex').toString('latin1'));
    }
    for (const [, literal] of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g))
      text.push(literal ?? '');
  }
  return text.join('\n');
}
