/**
 * The constraint a unique violation (SQLSTATE 23505) broke, or null for any other error. Both
 * drivers put `code` and `constraint` on their error; drizzle wraps it in `cause`.
 */
export function uniqueViolation(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === '23505') {
      return typeof candidate.constraint === 'string' ? candidate.constraint : '';
    }
    current = candidate.cause;
  }
  return null;
}

/** The SQLSTATE of a database error (on it or, as drizzle wraps it, on its `cause`), or null. */
export function sqlState(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return candidate.code;
    }
    current = candidate.cause;
  }
  return null;
}

/** Socket errors of a database (or other service) that cannot be reached. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What node-postgres says when a connection dies under a query or a pool cannot connect. */
const LOST_CONNECTION =
  /connection terminated|not queryable|connection ended|timeout exceeded when trying to connect/i;

/**
 * True when the database is down or dropped the connection: SQLSTATE class 08 (connection
 * exception), 57P01–57P03 (shut down, crashed, starting up), a refused or reset socket, or
 * node-postgres's "Connection terminated". The request may succeed if retried a moment later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || UNREACHABLE_CODES.has(code)) {
      return true;
    }
    if (typeof candidate.message === 'string' && LOST_CONNECTION.test(candidate.message))
      return true;
    current = candidate.cause;
  }
  return false;
}
