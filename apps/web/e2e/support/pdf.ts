import { inflateSync } from 'node:zlib';

/**
 * The text a PDF carries for copying: the `/ActualText` of its marked spans (the server's PDFs
 * mark every left-to-right run of text with it, in UTF-16BE), plus any plain strings drawn with
 * Tj. Glyph codes of embedded fonts are not decoded: enough for "the name is printed".
 */
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
    for (const [, hex] of content.matchAll(/\/ActualText\s*<([0-9A-Fa-f\s]+)>/g)) {
      const utf16 = Buffer.from((hex ?? '').replace(/\s+/g, ''), 'hex');
      const body = utf16[0] === 0xfe && utf16[1] === 0xff ? utf16.subarray(2) : utf16;
      text.push(Buffer.from(body).swap16().toString('utf16le'));
    }
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) {
      text.push(Buffer.from(hex ?? '', 'hex').toString('latin1'));
    }
    for (const [, literal] of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g))
      text.push(literal ?? '');
  }
  return text.join('\n');
}
