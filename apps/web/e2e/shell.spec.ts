import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test.describe('The app shell', () => {
  test('the home page renders with its header and footer', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Home', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'About Us' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Education' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Contact' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Register as Donor' })).toBeVisible();
    // Both flags are off by default.
    await expect(header.getByRole('link', { name: 'Emergency Request' })).toHaveCount(0);
    await expect(header.getByRole('link', { name: 'Blood Banks' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/privacy-protected/i);

    const footer = page.getByRole('contentinfo');
    for (const name of ['Help Center', 'Contact Us', 'Privacy Policy', 'Terms of Service']) {
      await expect(footer.getByRole('link', { name })).toBeVisible();
    }
    await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    await expect(page).toHaveTitle(/Blood Donation Management System/);
  });

  test('header links navigate between pages', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('banner').getByRole('link', { name: 'Register as Donor' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
  });

  test('an unknown path shows the 404 page with a way home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an anonymous visit to a protected page goes to sign-in', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('a render error shows the error screen with an error ID', async ({ page }) => {
    await page.goto('/components?__throw=render');
    await expect(page.getByRole('heading', { name: 'Oops! Something went wrong' })).toBeVisible();
    await expect(page.getByText(/ERR-[A-Z0-9-]+/)).toBeVisible();
    const report = page.getByRole('link', { name: 'Report Bug' });
    await expect(report).toHaveAttribute('href', /^mailto:.*ERR-/);
    await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go Home' })).toBeVisible();
  });

  test('switching to Hindi changes the header and is remembered', async ({ page }) => {
    await page.goto('/');
    await page
      .getByRole('banner')
      .getByLabel(/language/i)
      .first()
      .selectOption('hi');
    await expect(page.getByRole('banner').getByRole('link', { name: 'हमारे बारे में' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await page.reload();
    await expect(page.getByRole('banner').getByRole('link', { name: 'हमारे बारे में' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('preferred-language'))).toBe('hi');
  });

  test('the home page has no serious accessibility violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});

test.describe('On a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test('the mobile menu opens, navigates and closes on route change and outside click', async ({
    page,
  }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const menu = page.locator('#mobile-menu');
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'Education' }).click();
    await expect(page).toHaveURL(/\/education$/);
    await expect(menu).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    await page.mouse.click(180, 700);
    await expect(menu).toBeHidden();
  });
});
