import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerSchema } from './auth';
import { createBloodRequestSchema } from './blood-requests';
import { contactMessageSchema } from './education';
import { hasUnsafeCharacters, multilineText, plainText, UNSAFE_TEXT_MESSAGE } from './text';

/**
 * Every refused code point: C0 (TAB and LF aside for multi-line), DEL, C1, bidi overrides and
 * isolates; zero-width and direction marks and line/paragraph separators (issue #32 item 19).
 */
const REFUSED = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...Array.from({ length: 0x21 }, (_, index) => 0x7f + index),
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
  0x200b,
  0x200e,
  0x200f,
  0x2028,
  0x2029,
  0x2060,
  0xfeff,
].map((code) => String.fromCodePoint(code));
const REFUSED_MULTILINE = REFUSED.filter((char) => char !== '\n' && char !== '\t');

const refusedChar = fc.constantFrom(...REFUSED);
/** Devanagari letters, vowel signs, virama, ZWJ/ZWNJ and spaces. */
const devanagari = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0x0905, max: 0x0939 }).map((code) => String.fromCodePoint(code)),
      fc.integer({ min: 0x093e, max: 0x094d }).map((code) => String.fromCodePoint(code)),
      fc.constantFrom('\u200c', '\u200d', ' ', '\u0964'),
    ),
    { minLength: 3, maxLength: 40 },
  )
  .map((chars) => `क${chars.join('')}म`);

const name = plainText(z.string().trim().min(2).max(100));
const note = multilineText(z.string().trim().max(1000));

describe('plainText and multilineText', () => {
  it('refuse any text holding a refused character, wherever it is', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        refusedChar,
        fc.string({ maxLength: 40 }),
        (before, bad, after) => {
          const value = `Ravi${before}${bad}${after}Kumar`;
          const parsed = name.safeParse(value);
          expect(parsed.success).toBe(false);
          expect(parsed.error?.issues.map((issue) => issue.message)).toContain(UNSAFE_TEXT_MESSAGE);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...REFUSED_MULTILINE),
        fc.string({ maxLength: 40 }),
        (bad, rest) => {
          expect(note.safeParse(`Note ${rest}${bad} end`).success).toBe(false);
        },
      ),
    );
  });

  it('accept Devanagari with ZWJ/ZWNJ, and line feeds and tabs only in multi-line text', () => {
    fc.assert(
      fc.property(devanagari, (value) => {
        expect(name.safeParse(value.slice(0, 100)).success).toBe(true);
        expect(note.safeParse(`${value}\n\t${value}`).success).toBe(true);
      }),
    );
    expect(name.safeParse('क्‍ष ज्ञ श्र').success).toBe(true);
    expect(name.safeParse('Ravi\nKumar').success).toBe(false);
    // Issue #32 item 19: invisible marks and separators are refused; the joiners are not.
    for (const invisible of ['\u200b', '\u200e', '\u200f', '\u2028', '\u2029']) {
      expect(hasUnsafeCharacters(`Ra${invisible}vi`, false)).toBe(true);
      expect(hasUnsafeCharacters(`Ra${invisible}vi`, true)).toBe(true);
      expect(name.safeParse(`Ravi${invisible} Kumar`).success).toBe(false);
    }
    expect(hasUnsafeCharacters('क्\u200dष अ\u200cनीता', false)).toBe(false);
  });

  it('are used by the names and free text of the contracts', () => {
    const bidi = 'Ravi \u202eramuK';
    const register = registerSchema.safeParse({ fullName: bidi });
    expect(register.error?.issues.find((issue) => issue.path[0] === 'fullName')?.message).toBe(
      UNSAFE_TEXT_MESSAGE,
    );
    const request = createBloodRequestSchema.safeParse({
      notes: 'Call \u2066+91 98765 43210\u2069',
      patientName: 'Lakshmi\u0007',
    });
    const paths = request.error?.issues
      .filter((issue) => issue.message === UNSAFE_TEXT_MESSAGE)
      .map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['notes', 'patientName']));
    const contact = contactMessageSchema.safeParse({
      name: 'Asha',
      email: 'asha@example.org',
      subject: 'Hello there',
      message: 'A message\u202d that hides things.',
    });
    expect(contact.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['message']);
  });
});
