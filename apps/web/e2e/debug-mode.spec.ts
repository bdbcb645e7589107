import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './support/constants';
import { adminToken, apiPut } from './support/api';

/**
 * Issue #21 in the browser: with `debugMode` on, an administrator's dashboard has the debug panel
 * (the server's version and build, the client log level, timings, recent errors); the flags that
 * are fixed on show as always on, their switches unusable.
 */
const LANGUAGES = [
  { lang: 'en', region: 'Debug', server: 'This server', alwaysOn: 'Always on' },
  { lang: 'hi', region: 'डीबग', server: 'यह सर्वर', alwaysOn: 'हमेशा चालू' },
] as const;

test.afterAll(async ({ request }) => {
  await apiPut(request, '/api/v1/admin/flags', { debugMode: false }, await adminToken(request));
});

for (const texts of LANGUAGES) {
  for (const width of [390, 1280]) {
    test(`an administrator sees the debug panel while debugMode is on (${texts.lang}, ${width} px)`, async ({
      page,
      request,
    }) => {
      const token = await adminToken(request);
      await apiPut(request, '/api/v1/admin/flags', { debugMode: true, adminPanel: true }, token);
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.goto('/admin/login');
      await page.getByLabel('E-mail address').fill(E2E_ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
      await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
      await expect(page).toHaveURL(/\/admin$/);
      await page.evaluate((lang) => localStorage.setItem('preferred-language', lang), texts.lang);
      await page.reload();

      const panel = page.getByRole('region', { name: texts.region, exact: true });
      await expect(panel).toBeVisible();
      await expect(panel.getByText(texts.server)).toBeVisible();
      await expect(panel).toContainText(/v\d+\.\d+\.\d+/); // the server's Node.js version
      await expect(panel.getByRole('combobox')).toHaveValue(/debug|info|warn|error/);
      await expect(page.getByText(texts.alwaysOn).first()).toBeVisible();

      const results = await new AxeBuilder({ page }).include('main').analyze();
      const serious = results.violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: test.info().outputPath(`debug-panel-${texts.lang}-${width}.png`),
      });
    });
  }
}
