import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { adminToken, apiGet, apiPost, apiPut, readSmsCode } from './support/api';

/**
 * Issue #16: with `phoneVerification` on, a guest's emergency request waits for the code sent by
 * SMS to its contact phone before verifiers see it. The code is read from the SMPP peer the app
 * sent it to (apps/server/src/test/e2e-phone-peers.ts).
 */

const LOCALES = path.join(import.meta.dirname, '../src/i18n/locales');
const requests = (lang: string) =>
  JSON.parse(readFileSync(path.join(LOCALES, lang, 'requests.json'), 'utf8')) as {
    status: { unconfirmed: string; pending: string };
    confirm: { title: string; code: string; submit: string; wrongCode: string };
    share: { whatsapp: string };
  };

const PATIENT = 'Lakshmi Devi';

test.describe.configure({ mode: 'serial' });
// A busy machine: two browsers' worth of screens, axe and API calls per language.
test.setTimeout(180_000);

test.afterAll(async ({ request }) => {
  await apiPut(
    request,
    '/api/v1/admin/flags',
    // As the other journeys expect them (the spec's defaults; shell.spec.ts checks the header).
    { emergencyServices: false, phoneVerification: false },
    await adminToken(request),
  );
});

for (const lang of ['en', 'hi']) {
  test(`a guest confirms an emergency request with the SMS code, at 390 px, in ${lang}`, async ({
    page,
    request,
  }) => {
    const admin = await adminToken(request);
    await apiPut(
      request,
      '/api/v1/admin/flags',
      { bloodRequests: true, emergencyServices: true, phoneVerification: true },
      admin,
    );
    const text = requests(lang);
    const phone = `9${String(Date.now()).slice(-9)}`;
    const e164 = `+91${phone}`;
    const created = await apiPost<{ request: { trackingCode: string; status: string } }>(
      request,
      '/api/v1/blood-requests',
      {
        bloodType: 'B+',
        unitsNeeded: 2,
        urgency: 'urgent',
        patientName: PATIENT,
        hospitalName: 'Gandhi Hospital',
        city: 'Secunderabad',
        state: 'Telangana',
        latitude: 17.42,
        longitude: 78.5,
        contactName: 'Ravi Kumar',
        contactPhone: phone,
        language: lang,
      },
    );
    expect(created.request.status).toBe('unconfirmed');
    const { trackingCode } = created.request;
    const sms = await readSmsCode(request, e164);
    // In the request's language: Hindi as Unicode (UCS-2, data_coding 8), English as GSM 7-bit.
    expect(/[\u0900-\u097F]/.test(sms.text)).toBe(lang === 'hi');
    expect(sms.sms.dataCoding).toBe(lang === 'hi' ? 8 : 0);

    // Verifiers do not see it yet.
    const before = await apiGet<{ items: { trackingCode: string }[] }>(
      request,
      '/api/v1/blood-requests?pageSize=100',
      admin,
    );
    expect(before.items.map((item) => item.trackingCode)).not.toContain(trackingCode);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((value) => localStorage.setItem('preferred-language', value), lang);
    await page.goto(`/emergency?track=${trackingCode}`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    // The language's texts and fonts load lazily: a busy machine takes a while the first time.
    await expect(page.getByRole('heading', { name: text.status.unconfirmed })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole('heading', { name: text.confirm.title })).toBeVisible();
    // The number only masked, its last digits.
    await expect(page.getByText(phone.slice(-3), { exact: false }).first()).toBeVisible();
    await expect(page.getByText(phone)).toHaveCount(0);
    // No share button before the request is confirmed.
    await expect(page.getByRole('link', { name: new RegExp(text.share.whatsapp) })).toHaveCount(0);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => violation.id),
    ).toEqual([]);
    await page.screenshot({
      path: test.info().outputPath(`request-confirmation-${lang}-390-code.png`),
      fullPage: true,
    });

    // A wrong code is refused on the field; the right one sends it to review.
    const wrong = String((Number(sms.code) + 1) % 1_000_000).padStart(6, '0');
    const codeField = page.getByLabel(text.confirm.code);
    await codeField.fill(wrong);
    await page.getByRole('button', { name: text.confirm.submit }).click();
    await expect(page.getByText(text.confirm.wrongCode)).toBeVisible();
    await codeField.fill(sms.code);
    await page.getByRole('button', { name: text.confirm.submit }).click();
    await expect(page.getByRole('heading', { name: text.status.pending })).toBeVisible();
    await expect(page.getByRole('heading', { name: text.confirm.title })).toHaveCount(0);

    const after = await apiGet<{ items: { trackingCode: string; status: string }[] }>(
      request,
      '/api/v1/blood-requests?status=pending&pageSize=100',
      admin,
    );
    expect(after.items.map((item) => item.trackingCode)).toContain(trackingCode);

    // Share on WhatsApp: the link, blood type, hospital and city; never a phone or the patient.
    const share = page.getByRole('link', { name: new RegExp(text.share.whatsapp) });
    await expect(share).toBeVisible();
    const href = (await share.getAttribute('href')) as string;
    expect(href.startsWith('https://wa.me/?text=')).toBe(true);
    const message = decodeURIComponent(href.slice('https://wa.me/?text='.length));
    expect(message).toContain(`/emergency?track=${trackingCode}`);
    expect(message).toContain('B+');
    expect(message).toContain('Gandhi Hospital');
    expect(message).toContain('Secunderabad');
    expect(message).not.toContain(phone.slice(-7));
    expect(message).not.toContain(PATIENT);
    expect(message).not.toContain('Ravi');
    expect(message.replace(trackingCode, '')).not.toMatch(/\d{6,}/);
    await page.screenshot({
      path: test.info().outputPath(`request-confirmation-${lang}-390-confirmed.png`),
      fullPage: true,
    });
  });
}
