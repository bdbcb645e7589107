import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFParser,
  PDFStream,
  PDFString,
  type PDFObject,
} from '@cantoo/pdf-lib';

/**
 * Names that make a PDF do something rather than show something (ISO 32000-1 §12.6 actions,
 * §7.11.4 embedded files, §12.7.8 XFA forms, Adobe's RichMedia): as a dictionary key or a name
 * value anywhere in the document. A scanned ID or a medical report never needs any of them.
 * `OpenAction` alone (open at page 1) is harmless; with JavaScript it is caught by `JavaScript`.
 */
const ACTIVE_NAMES = new Set(
  [
    'JavaScript',
    'JS',
    'Launch',
    'EmbeddedFile',
    'EmbeddedFiles',
    'XFA',
    'AA',
    'SubmitForm',
    'ImportData',
    'GoToE',
    'Rendition',
  ].map((name) => name.toLowerCase()),
);
const ACTIVE_PREFIXES = ['richmedia'];

const RAW_ACTIVE = /\/(?:JavaScript|Launch|EmbeddedFiles?|RichMedia\w*|SubmitForm|ImportData)\b/i;

/** A legitimate object stream is a few hundred KB at most; more is a decompression bomb. */
export const OBJECT_STREAM_MAX_BYTES = 16 * 1024 * 1024;

export type PdfVerdict =
  { ok: true } | { ok: false; reason: 'unparsable' | 'encrypted' | 'active'; detail: string };

/** `#xx` escapes decoded (any case), as readers do (ISO 32000-1 §7.3.5). */
function decodeName(name: string): string {
  return name.replace(/#([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

function nameText(name: PDFName): string {
  // asString() is the name as pdf-lib would write it again (`/` and escapes).
  return decodeName(decodeName(name.asString().slice(1)));
}

function isActiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return ACTIVE_NAMES.has(lower) || ACTIVE_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Before pdf-lib inflates the object streams, each is inflated here with a ceiling, so a
 * 5 MB upload cannot expand into gigabytes in memory. Streams are found by their dictionaries
 * (names decoded, so `/Obj#53tm` counts); one that is not Flate-compressed is refused, since
 * other filters (LZW) can also expand without bound and no producer uses them for this.
 */
function checkObjectStreams(bytes: Buffer): PdfVerdict {
  const text = bytes.toString('latin1');
  const streamKeyword = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streamKeyword.exec(text)) !== null) {
    if (text.slice(match.index - 3, match.index) === 'end') continue;
    const objStart = text.lastIndexOf('obj', match.index);
    if (objStart < 0) continue;
    const dict = decodeName(text.slice(objStart, match.index));
    if (!/\/Type\s*\/ObjStm\b/.test(dict)) continue;
    const filter = /\/Filter\s*(\[\s*)?\/([A-Za-z0-9]+)\s*(\])?/.exec(dict);
    if (
      filter &&
      (filter[2] !== 'FlateDecode' || /\/Filter\s*\[[^\]]*\/[^\]]*\/[^\]]*\]/.test(dict))
    ) {
      return { ok: false, reason: 'unparsable', detail: `object stream filter ${filter[2]}` };
    }
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) return { ok: false, reason: 'unparsable', detail: 'unterminated stream' };
    if (!filter) continue;
    try {
      inflateSync(bytes.subarray(start, end), {
        maxOutputLength: OBJECT_STREAM_MAX_BYTES,
        finishFlush: 2, // Z_SYNC_FLUSH: a stream without its end marker is read as far as it goes
      });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        return { ok: false, reason: 'unparsable', detail: 'object stream too large' };
      }
      // Other damage is for the parser to judge.
    }
  }
  return { ok: true };
}

/** The first active name or `javascript:` address in the parsed objects, or null. */
function findActive(objects: PDFObject[]): string | null {
  const seen = new Set<PDFObject>();
  const stack = [...objects];
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (seen.has(object)) continue;
    seen.add(object);
    if (object instanceof PDFName) {
      const name = nameText(object);
      if (isActiveName(name)) return `/${name}`;
    } else if (object instanceof PDFDict) {
      for (const [key, value] of object.entries()) {
        const name = nameText(key);
        if (isActiveName(name)) return `/${name}`;
        // A link to `javascript:` is a script too.
        if (name === 'URI' && (value instanceof PDFString || value instanceof PDFHexString)) {
          if (/^\s*(javascript|vbscript|data):/i.test(value.decodeText()))
            return 'javascript: link';
        }
        stack.push(value);
      }
    } else if (object instanceof PDFArray) {
      stack.push(...object.asArray());
    } else if (object instanceof PDFStream) {
      stack.push(object.dict);
    }
  }
  return null;
}

/**
 * Checks an uploaded PDF by parsing it with a maintained parser (@cantoo/pdf-lib): every
 * indirect object, those inside compressed object streams included, with names decoded
 * (`/J#61vaScript` is `/JavaScript`). Refused: files that do not parse as a PDF with a catalog,
 * encrypted files (their object streams cannot be read, so nothing could be checked), and any
 * active content (ACTIVE_NAMES, `javascript:` links).
 */
export async function checkPdf(bytes: Buffer): Promise<PdfVerdict> {
  const streams = checkObjectStreams(bytes);
  if (!streams.ok) return streams;
  // Also in the raw bytes with names decoded, for an object a reader might find through the
  // cross-reference table where the parser skipped over it (long names only: short ones such
  // as /JS turn up by chance in compressed image data).
  const decoded = decodeName(bytes.toString('latin1'));
  const raw = RAW_ACTIVE.exec(decoded);
  if (raw) return { ok: false, reason: 'active', detail: raw[0] };
  // Encrypted strings and streams cannot be read without the password: nothing can be checked.
  if (/\/Encrypt\b/.test(decoded)) return { ok: false, reason: 'encrypted', detail: 'Encrypt' };
  let context;
  try {
    context = await PDFParser.forBytesWithOptions(
      new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      Infinity,
      true, // throwOnInvalidObject: a damaged object is refused, not skipped unseen
    ).parseDocument();
  } catch (error) {
    return {
      ok: false,
      reason: 'unparsable',
      detail: error instanceof Error ? error.message.slice(0, 200) : 'parse error',
    };
  }
  if (context.trailerInfo.Encrypt) return { ok: false, reason: 'encrypted', detail: 'Encrypt' };
  const objects = context.enumerateIndirectObjects().map(([, object]) => object);
  if (!(context.lookup(context.trailerInfo.Root) instanceof PDFDict)) {
    return { ok: false, reason: 'unparsable', detail: 'no document catalog' };
  }
  const trailer = Object.values(context.trailerInfo).filter(
    (value): value is PDFObject => value !== undefined,
  );
  const active = findActive([...objects, ...trailer]);
  return active ? { ok: false, reason: 'active', detail: active } : { ok: true };
}
