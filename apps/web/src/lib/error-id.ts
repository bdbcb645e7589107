/**
 * A short, unique, human-readable identifier for one error occurrence, shown on the error screen
 * so a user can quote it in a bug report: `ERR-<time base36>-<6 random base36 chars>`.
 */
export function createErrorId(now: number = Date.now()): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  const random = Array.from(bytes, (byte) => byte.toString(36).padStart(2, '0'))
    .join('')
    .slice(0, 6);
  return `ERR-${now.toString(36)}-${random}`.toUpperCase();
}
