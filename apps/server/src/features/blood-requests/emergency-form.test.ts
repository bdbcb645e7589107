import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bloodRequests } from '../../db/schema';
import { nextPhone } from '../../test/blood-request-helpers';
import { useTestApp } from '../../test/test-app';
import { indianWallClockToIso } from './emergency-form.routes';

const PUBLIC_URL = 'https://rakt.example.in';
const subject = useTestApp({ env: { PUBLIC_URL } });

let addressSequence = 0;
/** A fresh client address, so the per-address limit of one test does not leak into another. */
const nextAddress = () => `203.0.113.${(addressSequence += 1) % 250}`;

/** What the browser sends for the emergency form before the app's script has arrived. */
function form(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    language: 'en',
    bloodType: 'O-',
    unitsNeeded: '2',
    urgency: 'critical',
    patientName: 'Lakshmi Devi',
    hospitalName: 'Gandhi Hospital',
    state: 'Telangana',
    city: 'Secunderabad',
    contactName: 'Ravi Kumar',
    contactPhone: nextPhone(),
    requiredBy: '',
    notes: 'Ward 4, ask at the blood bank counter',
    ...overrides,
  };
}

/** What a current browser says of a form sent from this site's own page. */
function sameSite(): Record<string, string> {
  return { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' };
}

function post(
  fields: Record<string, string>,
  remoteAddress = nextAddress(),
  from: Record<string, string> = sameSite(),
) {
  return subject.app.inject({
    method: 'POST',
    url: '/emergency',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...from },
    payload: new URLSearchParams(fields).toString(),
    remoteAddress,
  });
}

describe('POST /emergency (the form sent before the script arrived)', () => {
  it("makes a guest's pending request and sends the browser to its tracking page", async () => {
    // The day after tomorrow in India, at 00:30 there (19:00 UTC the day before).
    const day = new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('en-CA', {
      timeZone: 'Asia/Kolkata',
    });
    const fields = form({ requiredBy: `${day}T00:30` });
    const res = await post(fields);
    expect(res.statusCode, res.body).toBe(303);
    const location = new URL(String(res.headers.location), 'http://x');
    expect(location.pathname).toBe('/emergency');
    expect(location.searchParams.get('sent')).toBe('1');
    const code = location.searchParams.get('track') ?? '';
    expect(code).toMatch(/^[A-Z0-9]{8}$/);

    const [row] = await subject.db
      .select()
      .from(bloodRequests)
      .where(eq(bloodRequests.trackingCode, code));
    expect(row).toMatchObject({
      status: 'pending',
      bloodType: 'O-',
      unitsNeeded: 2,
      urgency: 'critical',
      patientName: 'Lakshmi Devi',
      hospitalName: 'Gandhi Hospital',
      city: 'Secunderabad',
      state: 'Telangana',
      contactName: 'Ravi Kumar',
      contactPhone: `+91${fields.contactPhone}`,
      notes: 'Ward 4, ask at the blood bank counter',
      createdBy: null,
    });
    expect(row?.requiredBy?.toISOString()).toBe(
      new Date(Date.parse(`${day}T00:30:00+05:30`)).toISOString(),
    );
    expect(row?.requiredBy?.getUTCHours()).toBe(19);

    // The tracking API knows it.
    const track = await subject.app.inject({ url: `/api/v1/blood-requests/track/${code}` });
    expect(track.json().data).toMatchObject({ status: 'pending', bloodType: 'O-' });
  });

  it("refuses a form sent by another site's page with a page in its language, and makes nothing (#32 item 8)", async () => {
    const phone = nextPhone();
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      // A page cannot change Sec-Fetch-Site; when present it decides, even beside a right Origin.
      { origin: PUBLIC_URL, 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', referer: `${PUBLIC_URL}/emergency` },
      // Older browsers: Origin, else Referer.
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
      { referer: 'not a url' },
      // Nothing says where it came from: not the page's form.
      {},
    ];
    for (const from of crossSite) {
      const res = await post(form({ contactPhone: phone, language: 'hi' }), nextAddress(), from);
      expect(res.statusCode, JSON.stringify(from)).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('यह फ़ॉर्म केवल इसी साइट के आपातकालीन पेज से भेजा जा सकता है');
      expect(res.body).toContain('href="tel:108"');
    }
    expect(await subject.db.select().from(bloodRequests)).toHaveLength(0);
    // The site's own page, from every kind of browser.
    for (const from of [
      sameSite(),
      { origin: PUBLIC_URL },
      { referer: `${PUBLIC_URL}/emergency` },
    ]) {
      const res = await post(form(), nextAddress(), from);
      expect(res.statusCode, JSON.stringify(from)).toBe(303);
    }
    expect(await subject.db.select().from(bloodRequests)).toHaveLength(3);
  });

  it('counts 1 unit when the units field came empty', async () => {
    const res = await post(form({ unitsNeeded: '' }));
    const code = new URL(String(res.headers.location), 'http://x').searchParams.get('track');
    const [row] = await subject.db
      .select()
      .from(bloodRequests)
      .where(eq(bloodRequests.trackingCode, code ?? ''));
    expect(row?.unitsNeeded).toBe(1);
  });

  it('answers a form with missing details with a page in its language, and makes nothing', async () => {
    const res = await post(form({ language: 'hi', bloodType: '', contactPhone: '12' }));
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<html lang="hi">');
    expect(res.body).toContain('आपका अनुरोध नहीं भेजा गया');
    expect(res.body).toContain('<a href="tel:108">108</a>');
    expect(res.body).toContain('href="/emergency"');
    expect(await subject.db.select().from(bloodRequests)).toHaveLength(0);
  });

  it('escapes nothing it did not write: the page never repeats what was sent', async () => {
    const res = await post(form({ bloodType: '<script>alert(1)</script>', language: 'xx' }));
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('<script');
    expect(res.body).toContain('<html lang="en">');
  });

  it('sends the same request again to the open one (duplicate guard), not a second request', async () => {
    const fields = form();
    const first = await post(fields);
    const again = await post(fields);
    const firstCode = new URL(String(first.headers.location), 'http://x').searchParams.get('track');
    // A guest is never shown someone else's request: the duplicate page says so instead.
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('A request like this is already open');
    expect(again.body).not.toContain(firstCode ?? 'none');
    expect(await subject.db.select().from(bloodRequests)).toHaveLength(1);
  });

  it('keeps the per-address limit of the API (5 an hour), answered as a page', async () => {
    const address = nextAddress();
    for (let i = 0; i < 5; i += 1) {
      expect((await post(form(), address)).statusCode).toBe(303);
    }
    const limited = await post(form(), address);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^text\/html/);
    expect(limited.headers['retry-after']).toBeTruthy();
    expect(limited.body).toMatch(/Try again in \d+ minutes/);
    expect(await subject.db.select().from(bloodRequests)).toHaveLength(5);
  });

  it('reads form bodies on this route only: the API still refuses them', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/blood-requests',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form()).toString(),
      remoteAddress: nextAddress(),
    });
    expect(res.statusCode).toBe(415);
    expect(await subject.db.select().from(bloodRequests)).toHaveLength(0);
  });

  it('refuses a body larger than a form needs', async () => {
    const res = await post(form({ notes: 'x'.repeat(20_000) }));
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('indianWallClockToIso', () => {
  it('reads a datetime-local value as Indian time', () => {
    expect(indianWallClockToIso('2026-11-26T05:29')).toBe('2026-11-25T23:59:00.000Z');
    expect(indianWallClockToIso('2026-11-26T05:30')).toBe('2026-11-26T00:00:00.000Z');
    expect(indianWallClockToIso(undefined)).toBeUndefined();
    expect(indianWallClockToIso('tomorrow')).toBe('tomorrow');
  });
});
