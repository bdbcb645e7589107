import { expect, test, type Page } from '@playwright/test';
import { createHospital, registerApprovedDonor, registerDonor } from './support/api';
import { E2E_ADMIN } from './support/constants';

/**
 * Issue #18: signed-in pages must not jump while they load. Cumulative layout shift (the sum of
 * `layout-shift` entries not caused by input) stays under 0.1, Web Vitals' "good", at 390 px.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'Asia/Kolkata' });

const GOOD_CLS = 0.1;

declare global {
  interface Window {
    __cls?: { value: number; sources: string[] };
  }
}

/** Sums layout shifts from the first paint of every document the page opens. */
async function observeLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = { value: 0, sources: [] as string[] };
    window.__cls = record;
    type Shift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        record.value += entry.value;
        const nodes = (entry.sources ?? [])
          .map(({ node }) => {
            if (!(node instanceof Element)) return node?.nodeName ?? '?';
            const text = (node.textContent ?? '').trim().slice(0, 30);
            return `${node.tagName.toLowerCase()}.${String(node.className).slice(0, 40)} "${text}"`;
          })
          .join(' | ');
        record.sources.push(`${entry.value.toFixed(4)} ${nodes}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function signIn(page: Page, path: string, email: string, password: string) {
  await page.goto(path);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
}

/** Opens `path` afresh (a signed-in reload), lets it settle and returns its layout shift. */
async function measure(page: Page, path: string, label: string): Promise<number> {
  await observeLayoutShift(page);
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
  const record = await page.evaluate(() => window.__cls ?? { value: -1, sources: [] });
  console.log(`CLS ${label} (${path}): ${record.value.toFixed(4)}`);
  for (const source of record.sources) console.log(`  shift ${source}`);
  test.info().annotations.push({ type: 'cls', description: `${label}: ${record.value}` });
  return record.value;
}

test.describe('Signed-in pages keep still while they load (CLS < 0.1)', () => {
  test('onboarding of a donor who has not finished it', async ({ page, request }) => {
    const donor = await registerDonor(request);
    await signIn(page, '/login', donor.email, donor.password);
    await expect(page).toHaveURL(/onboarding/);
    expect(await measure(page, '/onboarding', 'onboarding')).toBeLessThan(GOOD_CLS);
  });

  test('the administrator dashboard', async ({ page }) => {
    await signIn(page, '/admin/login', E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(/\/admin$/);
    expect(await measure(page, '/admin', 'admin')).toBeLessThan(GOOD_CLS);
  });

  test('the donor dashboard', async ({ page, request }) => {
    const donor = await registerApprovedDonor(request);
    await signIn(page, '/login', donor.email, donor.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await measure(page, '/dashboard', 'donor dashboard')).toBeLessThan(GOOD_CLS);
  });

  test('the hospital dashboard', async ({ page, request }) => {
    const hospital = await createHospital(request);
    await signIn(page, '/hospital/login', hospital.email, hospital.password);
    await expect(page).toHaveURL(/\/hospital\/dashboard$/);
    expect(await measure(page, '/hospital/dashboard', 'hospital')).toBeLessThan(GOOD_CLS);
  });
});
