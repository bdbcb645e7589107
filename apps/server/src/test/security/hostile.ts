import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * Hostile values for the fuzzer (issue #9, "Hostile input"): what an attacker, a broken client
 * or a bad network sends. Strings are the main weapon: SQL and script payloads, encodings,
 * unicode edge cases (lone surrogates, NUL, bidi overrides), ids of every wrong shape, numbers
 * outside any range, dates that do not exist.
 */
export const NASTY_STRINGS = [
  // SQL
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)--',
  "%' OR 1=1 --",
  "' UNION SELECT password_hash, email FROM users --",
  '\\',
  "\\'",
  '$$',
  '$1',
  '%',
  '_',
  '%_%',
  // full-text and trigram syntax
  '!!(&|:*',
  '"unterminated',
  '-',
  'or or or',
  ':*',
  // script and markup
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')",
  '<!--',
  ']]>',
  '{{7*7}}',
  '${7*7}',
  '=cmd|"/c calc"!A1',
  '@SUM(1+1)',
  // unicode
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\udc00y',
  '\u202eevil',
  '\ufeffbom',
  '\u200b',
  '🩸🩸🩸',
  'नमस्ते',
  'ÿþ',
  '\r\n\r\n',
  '\t',
  'Ω≈ç√∫',
  // paths and encodings
  '../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  '%E0%A4%A',
  '%zz',
  '/',
  '//',
  '?',
  '#',
  // prototype pollution
  '__proto__',
  'constructor',
  'prototype',
  // empty and look-alikes
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  // numbers as text
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '1e-400',
  '0x1F',
  '9'.repeat(40),
  '-9223372036854775809',
  '9223372036854775808',
  '2147483648',
  '1.5',
  // dates
  '0000-00-00',
  '9999-12-31',
  '2024-02-30',
  '2024-13-01',
  '10000-01-01',
  '-000001-01-01T00:00:00Z',
  '1970-01-01T00:00:00+99:99',
  '275760-09-13T00:00:00.001Z',
  // ids
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-00000000000g',
  '{00000000-0000-0000-0000-000000000000}',
  'bb-0',
  'bb--1',
  'bb-99999999999999999999',
  'BDMS-0000-00000000',
  // long
  'a'.repeat(300),
  'x'.repeat(10_000),
  '<script>'.repeat(500),
];

/** Characters a real HTTP/1.1 header value can carry (visible ASCII, tab, obs-text). */
const headerChar = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.constant(0x09),
  fc.integer({ min: 0x80, max: 0xff }),
);
export const headerValue = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS.filter((s) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s))),
  fc.array(headerChar, { maxLength: 200 }).map((codes) => String.fromCharCode(...codes)),
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...NASTY_STRINGS), fc.string())
      .map(([a, b, c]) => a + b + c),
  },
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 5e-324),
);

/** Any JSON value, biased towards the hostile, nested a few levels. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: hostileString },
    { weight: 2, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }) },
  ),
})).value;

/** `[[[[…]]]]` or `{"a":{"a":…}}` `depth` levels deep. */
export function deeplyNested(depth: number, kind: 'array' | 'object' = 'array'): string {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Raw bodies that are not the JSON they claim to be, or are JSON with traps in them. */
export const MALFORMED_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'undefined',
  'NaN',
  '"\\ud800"',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":1,"a":2}',
  '\u0000',
  '\ufeff{}',
  '{"a":"\\u0000"}',
  '1e999999',
  '-',
  '{"a":' + '9'.repeat(5000) + '}',
  deeplyNested(5_000),
  deeplyNested(2_000, 'object'),
];

export const ODD_CONTENT_TYPES = [
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=----x',
  'application/json; charset=utf-16',
  'application/json; charset=utf-7',
  'application/json; charset="unknown"',
  'application/jsonx',
  'application/vnd.api+json',
  'application/octet-stream',
  ';;;',
  '',
];

const SCRIPT_ECHO = /<script|onerror\s*=|onload\s*=|javascript:/i;
/** The payloads a reflected-XSS probe looks for in pages a browser would render. */
const MARKUP_PAYLOADS = NASTY_STRINGS.filter((s) => SCRIPT_ECHO.test(s));
/** What a leak of internals looks like: stack frames, SQL, driver and runtime error names. */
const INTERNALS =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+:\d+|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate\b.+\bset\b|\bdelete from\b|relation "|syntax error at|violates .* constraint|duplicate key|ZodError|TypeError|ReferenceError|RangeError|SyntaxError:|ECONNREFUSED|PGlite|drizzle/i;

/**
 * What every reply to hostile input must respect:
 * - never a 5xx;
 * - an error is the JSON envelope `{success: false, error: {message, code}}` whose texts carry
 *   no stack trace, SQL or driver name;
 * - nothing the client sent comes back as live markup: error replies contain no `<` or `>` at
 *   all (the error handler escapes them, so a quoted `<script>` or `<img onerror=…>` is inert),
 *   and no reply a browser would render (not JSON, not an attachment) contains one of the
 *   script payloads. Success replies in JSON may hold stored text as data (a request's notes): they
 *   are `application/json` with `X-Content-Type-Options: nosniff`, which browsers never render,
 *   and the web app escapes what it shows (e2e security-xss.spec.ts).
 */
export function expectSafeReply(res: LightMyRequestResponse, label: string): void {
  const where = `${label} → ${res.statusCode} ${res.body.slice(0, 500)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  const type = String(res.headers['content-type'] ?? '');
  const isJson = type.startsWith('application/json');
  const isAttachment = String(res.headers['content-disposition'] ?? '').startsWith('attachment');
  if (res.statusCode >= 400) {
    expect(isJson, `error reply is JSON: ${where}`).toBe(true);
    const body = res.json() as {
      success?: unknown;
      error?: { message?: unknown; code?: unknown; details?: { message?: unknown }[] };
    };
    expect(body.success, where).toBe(false);
    expect(typeof body.error?.message, where).toBe('string');
    expect(body.error?.code, where).toMatch(/^[A-Z_]+$/);
    expect(body.error).not.toHaveProperty('stack');
    const texts = [
      body.error!.message as string,
      ...(Array.isArray(body.error?.details)
        ? body.error.details.map((item) => String(item?.message ?? ''))
        : []),
    ];
    for (const text of texts) expect(text, `internals leaked: ${where}`).not.toMatch(INTERNALS);
    // Error texts may quote the request (a URL, a field name), never as markup.
    expect(res.body, `markup in an error reply: ${where}`).not.toMatch(/[<>]/);
  } else if (isJson) {
    expect(res.headers['x-content-type-options'], where).toBe('nosniff');
  } else if (!isAttachment) {
    // An HTML page (the web app, the API docs) has scripts of its own: look for ours.
    for (const payload of MARKUP_PAYLOADS) {
      expect(res.body.includes(payload), `${payload} echoed in a ${type} reply: ${where}`).toBe(
        false,
      );
    }
  }
}

/**
 * Routes a browser posts a form to and that answer with a page, never the JSON envelope (issue
 * #18: `POST /emergency`, the emergency form sent before the app's script arrived).
 */
export const PAGE_ROUTES: ReadonlySet<string> = new Set(['POST /emergency']);

/** A page route's reply: no 5xx, an HTML page, and none of our markup echoed into it. */
export function expectSafePage(res: LightMyRequestResponse, label: string): void {
  const where = `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  if (res.statusCode >= 300 && res.statusCode < 400) return;
  expect(String(res.headers['content-type'] ?? ''), where).toMatch(/^text\/html/);
  for (const payload of MARKUP_PAYLOADS) {
    expect(res.body.includes(payload), `${payload} echoed in a page: ${where}`).toBe(false);
  }
}

/** The check that fits the route: a page for the form routes, the envelope for the API. */
export function expectSafeAnswer(key: string, res: LightMyRequestResponse, label: string): void {
  if (PAGE_ROUTES.has(key)) expectSafePage(res, label);
  else expectSafeReply(res, label);
}
