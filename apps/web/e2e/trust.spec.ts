import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { adminToken, apiPut } from './support/api';

/**
 * Issue #14 in the browser: a guest who sends a request that is already open (same phone, blood
 * type, hospital and city) sees that it exists and where its link went, never the stored request.
 * Screenshots at 390 and 1280 px in English and Hindi land in test-results for review.
 */
test.use({ timezoneId: 'Asia/Kolkata' });

const LANGUAGES = [
  {
    lang: 'en',
    hospital: 'Hospital',
    name: 'Your name',
    phone: 'Your phone number',
    city: 'City or town',
    state: 'State or union territory',
    send: 'Send the request',
    notice: 'A request like this is already open',
  },
  {
    lang: 'hi',
    hospital: 'अस्पताल',
    name: 'आपका नाम',
    phone: 'आपका फ़ोन नंबर',
    city: 'शहर या कस्बा',
    state: 'राज्य या केंद्र शासित प्रदेश',
    send: 'अनुरोध भेजें',
    notice: 'ऐसा एक अनुरोध पहले से खुला है',
  },
] as const;

async function fill(page: Page, texts: (typeof LANGUAGES)[number], phone: string, name: string) {
  await page.getByRole('radio', { name: 'B+', exact: true }).check();
  await page.locator('input[name="urgency"][value="urgent"]').check();
  await page.getByLabel(texts.hospital, { exact: false }).first().fill('Trust Check Hospital');
  await page.getByLabel(texts.state, { exact: false }).selectOption('Telangana');
  await page.getByLabel(texts.city, { exact: false }).fill('Hyderabad');
  await page.getByLabel(texts.name, { exact: false }).fill(name);
  await page.getByLabel(texts.phone, { exact: false }).fill(phone);
  await page.getByRole('button', { name: texts.send }).click();
}

for (const texts of LANGUAGES) {
  for (const width of [390, 1280]) {
    test(`a repeated request shows that one is open, not its details (${texts.lang}, ${width} px)`, async ({
      page,
      request,
    }) => {
      await apiPut(
        request,
        '/api/v1/admin/flags',
        { bloodRequests: true },
        await adminToken(request),
      );
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.addInitScript(
        (lang) => localStorage.setItem('preferred-language', lang),
        texts.lang,
      );
      const phone = `8${String(Date.now()).slice(-9)}`;

      // The family's request, then someone else with the same desk phone and hospital.
      await page.goto('/emergency');
      await fill(page, texts, phone, 'Sunita Patil');
      await expect(page).toHaveURL(/track=/);
      const code = new URL(page.url()).searchParams.get('track')!;

      // Someone else, on another phone: this device's own list of requests (issue #18) is not
      // theirs to see.
      await page.evaluate(() => localStorage.removeItem('bdms-my-requests'));
      await page.goto('/emergency');
      await fill(page, texts, phone, 'Prober');
      await expect(page.getByText(texts.notice)).toBeVisible();
      await expect(page).not.toHaveURL(/track=/);
      await expect(page.locator('body')).not.toContainText(code);
      await expect(page.locator('body')).not.toContainText('Sunita');

      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await page
        .getByText(texts.notice)
        .scrollIntoViewIfNeeded()
        .then(() =>
          page.screenshot({
            path: test.info().outputPath(`duplicate-${texts.lang}-${width}.png`),
          }),
        );
    });
  }
}
