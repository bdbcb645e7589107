/**
 * `attachment; filename="ascii"; filename*=UTF-8''…` (RFC 6266 with RFC 5987 for non-ASCII
 * names): every browser saves the file instead of showing it, under a safe name.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
