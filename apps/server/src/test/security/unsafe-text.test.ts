import { UNSAFE_TEXT_MESSAGE } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bloodRequests, users } from '../../db/schema';
import { requestBody } from '../blood-request-helpers';
import { signIn } from '../donor-helpers';
import { useTestApp } from '../test-app';

const t = useTestApp();

/** Control characters (TAB, LF, NUL aside: NUL has its own guard) and the bidi overrides. */
const refused = fc.constantFrom(
  '\u0001',
  '\u0007',
  '\u000b',
  '\u000d',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  // Issue #32 item 19: zero-width and direction marks, line and paragraph separators.
  '\u200b',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
);
const latin = fc.string({
  unit: fc.constantFrom(...'abcdefghij KLMNOP'),
  minLength: 1,
  maxLength: 20,
});

describe('names and free text with control characters or bidi overrides', () => {
  it('are refused with VALIDATION_ERROR on the field, and nothing is stored; Devanagari is stored', async () => {
    const donor = await signIn(t.app, t.db, { fullName: 'Ravi Kumar' });
    await fc.assert(
      fc.asyncProperty(latin, refused, latin, async (before, bad, after) => {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/v1/users/${donor.row.id}`,
          headers: donor.headers,
          payload: { fullName: `Ravi ${before}${bad}${after}` },
        });
        expect(res.statusCode).toBe(400);
        const { error } = res.json();
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(error.details).toContainEqual({
          path: 'body.fullName',
          message: UNSAFE_TEXT_MESSAGE,
        });
      }),
      { numRuns: 15 },
    );
    const [row] = await t.db.select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.fullName).toBe('Ravi Kumar');

    // Hindi with a zero-width joiner and non-joiner is a valid name and is stored as sent.
    const hindi = 'श्री\u200dमती अ\u200cनीता शर्मा';
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${donor.row.id}`,
      headers: donor.headers,
      payload: { fullName: hindi },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const [stored] = await t.db.select().from(users).where(eq(users.id, donor.row.id));
    expect(stored!.fullName).toBe(hindi);
  });

  it('are refused in blood requests (notes keep line feeds), storing no request', async () => {
    const refusedBody = [
      { notes: 'Call \u202e01234 56789\u202c now' },
      { patientName: 'Lakshmi\u2067 Devi' },
      { hospitalName: 'Gandhi\u0008 Hospital' },
      { contactName: 'Ravi\u0085Kumar' },
    ];
    for (const [index, overrides] of refusedBody.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/blood-requests',
        payload: requestBody(overrides),
        remoteAddress: `192.0.2.${index + 1}`,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details).toContainEqual({
        path: `body.${Object.keys(overrides)[0]}`,
        message: UNSAFE_TEXT_MESSAGE,
      });
    }
    expect(await t.db.select().from(bloodRequests)).toHaveLength(0);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blood-requests',
      payload: requestBody({ notes: 'Line one\nLine two\twith a tab', patientName: 'लक्ष्मी देवी' }),
      remoteAddress: '192.0.2.99',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const [row] = await t.db.select().from(bloodRequests);
    expect(row).toMatchObject({
      notes: 'Line one\nLine two\twith a tab',
      patientName: 'लक्ष्मी देवी',
    });
  });
});
