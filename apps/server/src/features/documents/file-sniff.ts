import type { DonorDocument } from '@bdms/shared';

type DocumentMime = DonorDocument['mimeType'];

/**
 * The type of an upload from its first bytes, never from its name or the client's claim
 * (file-type needs Node 22, so the four signatures are checked here):
 * PDF `%PDF-`, JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, WebP `RIFF????WEBP`.
 */
export function sniffMimeType(bytes: Buffer): DocumentMime | null {
  const starts = (signature: number[], offset = 0) =>
    bytes.length >= offset + signature.length &&
    signature.every((byte, index) => bytes[offset + index] === byte);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

/**
 * Markers of active content: a web page or script inside the file (an HTML/PHP polyglot that a
 * misconfigured viewer or server could run), or a PDF action that runs JavaScript or another
 * program when opened. A scanned ID or a phone photo never holds any, so such files are
 * refused. Each marker is long or specific enough not to turn up by chance in the compressed
 * data of a 5 MB file (odds well under 1 in 1,000 for the shortest, `<body`).
 */
const ACTIVE_CONTENT =
  /<(?:script|iframe|object|embed|html|body)\b|<!doctype\s+html|<\?php|<(?:img|svg)\b[^>]{0,200}\son[a-z]+\s*=|javascript:|\/(?:JavaScript|Launch)\b/i;

/** What active content the file carries (see ACTIVE_CONTENT), or null. */
export function findActiveContent(bytes: Buffer): string | null {
  return ACTIVE_CONTENT.exec(bytes.toString('latin1'))?.[0] ?? null;
}

const EXTENSIONS: Record<DocumentMime, string[]> = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
};

/**
 * The original name, kept only to name the download: no folders, control or bidi-override
 * characters (which can disguise `gpj.exe` as `exe.jpg`), at most 120 characters, and ending
 * in an extension that matches the real content.
 */
export function sanitizeFileName(name: string | undefined, mime: DocumentMime): string {
  let base = (name ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  base = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>:|?*\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const extensions = EXTENSIONS[mime];
  if (!base) base = 'document';
  if (!extensions.some((ext) => base.toLowerCase().endsWith(ext))) base += extensions[0];
  if (base.length > 120) {
    const ext = extensions.find((candidate) => base.toLowerCase().endsWith(candidate)) ?? '';
    base = base.slice(0, 120 - ext.length) + ext;
  }
  return base;
}
