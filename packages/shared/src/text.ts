import type { z } from 'zod';

/**
 * Characters refused in names and free text:
 * - C0 controls U+0000–U+001F (except TAB and LF in multi-line text), DEL U+007F and the C1
 *   controls U+0080–U+009F: invisible, they break CSV exports, logs and e-mails;
 * - the bidirectional embeddings and overrides U+202A–U+202E and isolates U+2066–U+2069
 *   ("Trojan Source", CVE-2021-42574): they reorder what is displayed, so a name or a phone
 *   number in a note can show as something else than what is stored;
 * - the zero-width space U+200B, the direction marks U+200E/U+200F, the word joiner U+2060 and
 *   the zero-width no-break space U+FEFF (issue #32 item 19): invisible, they make two names
 *   that look the same differ ("Ravi" and "Ra\u200Bvi"), dodge searches and duplicate checks,
 *   and hide inside names shown to others;
 * - the line and paragraph separators U+2028/U+2029 (issue #32 item 19): they break a one-line
 *   name across lines in SMS, e-mail and CSV, and end a JavaScript string in older engines.
 * Allowed on purpose: U+200C/U+200D (ZWNJ/ZWJ), needed to write Hindi and the other Indic
 * scripts correctly (Unicode Standard, ch. 12 "South and Central Asia-I", Devanagari conjuncts).
 */
const UNSAFE_SINGLE_LINE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;
const UNSAFE_MULTI_LINE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

export const UNSAFE_TEXT_MESSAGE =
  'Remove control characters, invisible characters and text-direction marks (such as U+202E or U+200B): they cannot be stored.';

/** True when `value` holds a character refused in names and free text (see above). */
export function hasUnsafeCharacters(value: string, multiline = false): boolean {
  return (multiline ? UNSAFE_MULTI_LINE : UNSAFE_SINGLE_LINE).test(value);
}

/**
 * A name or a one-line text (city, hospital, reason): `schema` plus the refusal of control and
 * bidi-override characters, with UNSAFE_TEXT_MESSAGE on the field's path (400 VALIDATION_ERROR).
 */
export function plainText<T extends z.ZodType<string | null | undefined>>(schema: T): T {
  return schema.refine((value) => typeof value !== 'string' || !hasUnsafeCharacters(value), {
    message: UNSAFE_TEXT_MESSAGE,
  }) as unknown as T;
}

/** Multi-line free text (notes, messages): as `plainText`, but line feeds and tabs are allowed. */
export function multilineText<T extends z.ZodType<string | null | undefined>>(schema: T): T {
  return schema.refine((value) => typeof value !== 'string' || !hasUnsafeCharacters(value, true), {
    message: UNSAFE_TEXT_MESSAGE,
  }) as unknown as T;
}
