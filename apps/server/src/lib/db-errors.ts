import { createHash } from 'node:crypto';

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

/** A short, stable name for a statement's text: the same statement, the same fingerprint. */
function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

// Only identifiers: drizzle sends every value as a parameter, so the text up to the first table
// name holds none, and the regular expressions accept nothing but a verb and a quoted name.
const STATEMENT_VERB = /^\s*(select|insert|update|delete|with|lock|truncate|call)\b/i;
const STATEMENT_TABLE = /\b(?:from|into|update|join)\s+"([a-z_][a-z0-9_]*)"/i;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.]{0,62}$/;

/** The database error that an error is or wraps (drizzle's DrizzleQueryError wraps the driver's). */
function databaseLayers(error: unknown): { query: string | null; driver: object | null } | null {
  let query: string | null = null;
  let driver: object | null = null;
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const candidate = current as {
      code?: unknown;
      query?: unknown;
      params?: unknown;
      cause?: unknown;
    };
    if (query === null && typeof candidate.query === 'string' && 'params' in candidate) {
      query = candidate.query;
    }
    if (
      driver === null &&
      typeof candidate.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(candidate.code)
    ) {
      driver = candidate;
    }
    current = candidate.cause;
  }
  return query === null && driver === null ? null : { query, driver };
}

/** True when an error is, or wraps, a failed statement (its message and fields may hold values). */
export function isDatabaseError(error: unknown): boolean {
  return databaseLayers(error) !== null;
}

/**
 * What may be logged of a failed statement (#32 item 18): its SQLSTATE, a fingerprint of its text,
 * the verb and table it names, and the constraint/table/column the server reports; never the
 * statement's parameters, the driver's `message` or `detail` ("Key (email)=(…) already exists",
 * "invalid input syntax for type uuid: \"…\""), which carry the values and bypass log redaction.
 * The stack keeps only its frames, as its first line repeats the message.
 */
export function databaseErrorSummary(error: unknown): Record<string, string> | null {
  const layers = databaseLayers(error);
  if (!layers) return null;
  const summary: Record<string, string> = {
    type: 'DatabaseError',
    message: 'database statement failed',
    sqlState: sqlState(error) ?? 'unknown',
  };
  if (layers.query !== null) {
    summary.statement = fingerprint(layers.query);
    const verb = STATEMENT_VERB.exec(layers.query)?.[1];
    const table = STATEMENT_TABLE.exec(layers.query)?.[1];
    if (verb) summary.verb = verb.toLowerCase();
    if (table) summary.table = table;
  }
  const driver = (layers.driver ?? {}) as Record<string, unknown>;
  for (const field of ['constraint', 'table', 'column', 'routine'] as const) {
    const value = driver[field];
    if (typeof value === 'string' && IDENTIFIER.test(value)) summary[field] = value;
  }
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  const frames = stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  if (frames) summary.stack = frames;
  return summary;
}

/**
 * An error's message for logs and stored failure reasons, without a failed statement's values:
 * "database statement failed (SQLSTATE 23505, statement 1a2b3c4d5e6f)" for database errors.
 */
export function safeErrorMessage(error: unknown): string {
  const summary = databaseErrorSummary(error);
  if (summary) {
    const statement = summary.statement ? `, statement ${summary.statement}` : '';
    return `database statement failed (SQLSTATE ${summary.sqlState}${statement})`;
  }
  return error instanceof Error ? error.message : String(error);
}
