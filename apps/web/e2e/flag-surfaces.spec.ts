import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from './support/constants';
import { adminToken, apiPut, registerApprovedDonor } from './support/api';

/**
 * Issue #21 in the browser: `referralSystem` puts an "Invite friends" card on an approved donor's
 * dashboard, `analyticsReporting` the administrators' monthly report; off, neither is there.
 * At 390 and 1280 px, in English and Hindi, with axe.
 */
const LANGUAGES = [
  { lang: 'en', invite: 'Invite friends', figures: 'The month in figures' },
  { lang: 'hi', invite: 'दोस्तों को आमंत्रित करें', figures: 'महीना आँकड़ों में' },
] as const;

async function setFlags(request: APIRequestContext, flags: Record<string, boolean>) {
  await apiPut(request, '/api/v1/admin/flags', flags, await adminToken(request));
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

async function signInDonor(page: Page, donor: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('E-mail address').fill(donor.email);
  await page.getByLabel('Password', { exact: true }).fill(donor.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

async function signInAdmin(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(E2E_ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

async function useLanguage(page: Page, lang: string) {
  await page.evaluate((value) => localStorage.setItem('preferred-language', value), lang);
  await page.reload();
}

test.afterAll(async ({ request }) => {
  await setFlags(request, { referralSystem: false, analyticsReporting: false });
});

test('with the flags off, a donor has no invitation card and the report answers nothing', async ({
  page,
  request,
}) => {
  await setFlags(request, { referralSystem: false, analyticsReporting: false });
  const donor = await registerApprovedDonor(request);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInDonor(page, donor);
  await expect(page.getByRole('heading', { name: 'Your donations' }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Invite friends' })).toHaveCount(0);
  const report = await request.get('/api/v1/reports/monthly', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
  });
  expect(report.status()).toBe(404);
});

for (const texts of LANGUAGES) {
  for (const width of [390, 1280]) {
    test(`referralSystem on: the donor's invitation card (${texts.lang}, ${width} px)`, async ({
      page,
      request,
    }) => {
      await setFlags(request, { referralSystem: true });
      const donor = await registerApprovedDonor(request);
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await signInDonor(page, donor);
      await useLanguage(page, texts.lang);
      const card = page.getByRole('heading', { name: texts.invite });
      await expect(card).toBeVisible();
      await expectNoSeriousViolations(page);
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: test.info().outputPath(`referral-card-${texts.lang}-${width}.png`),
      });
    });

    test(`analyticsReporting on: the monthly report (${texts.lang}, ${width} px)`, async ({
      page,
      request,
    }) => {
      await setFlags(request, { analyticsReporting: true, adminPanel: true });
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await signInAdmin(page);
      await useLanguage(page, texts.lang);
      await page.goto('/admin/reports');
      await expect(page.getByRole('heading', { name: texts.figures })).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({
        path: test.info().outputPath(`monthly-report-${texts.lang}-${width}.png`),
        fullPage: true,
      });
    });
  }
}
