import type { z } from 'zod';

/**
 * Characters refused in names and free text:
 * - C0 controls U+0000–U+001F (except TAB and LF in multi-line text), DEL U+007F and the C1
 *   controls U+0080–U+009F: invisible, they break CSV exports, logs and e-mails;
 * - the bidirectional embeddings and overrides U+202A–U+202E and isolates U+2066–U+2069
 *   ("Trojan Source", CVE-2021-42574): they reorder what is displayed, so a name or a phone
 *   number in a note can show as something else than what is stored.
 * Allowed on purpose: U+200C/U+200D (ZWNJ/ZWJ, needed to write Hindi and other Indic scripts
 * correctly) and the marks U+200E/U+200F/U+061C (LRM/RLM/ALM): they only set the direction of
 * neutral characters next to them, cannot reorder a run, and Urdu text pasted into a name may hold them.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_MULTI_LINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export const UNSAFE_TEXT_MESSAGE =
  'Remove control characters and text-direction marks (such as U+202E): they cannot be stored.';

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
