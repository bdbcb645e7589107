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
