import { expect, test, type Page } from '@playwright/test';

/**
 * Public pages arrive rendered (the server renders them with the web app's own code): a visitor
 * reads them before any script has run, then React adopts them without drawing them again, and
 * what is typed meanwhile is never lost.
 */

const PAGES = [
  { path: '/', heading: "India's first privacy-protected blood donation platform" },
  { path: '/emergency', heading: 'Emergency Blood Request' },
  { path: '/blood-banks', heading: 'Blood Banks' },
  { path: '/help', heading: 'Help Center' },
];

test.describe('Without scripts', () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, heading } of PAGES) {
    test(`${path} shows its content`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // The header and the footer are there too.
      await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
    });
  }

  // Issue #18: the form works before the app arrives (a plain form that posts to /emergency;
  // slow-phone.spec.ts sends one this way).
  test('the emergency form takes input and posts to /emergency', async ({ page }) => {
    await page.goto('/emergency');
    const name = page.getByLabel("Patient's name");
    await expect(name).toBeVisible();
    await expect(name).toBeEnabled();
    await expect(page.locator('form[method="post"][action="/emergency"]')).toHaveCount(1);
  });
});

/** Counts the prerendered headings React removes (it should remove none: it adopts them). */
async function watchHeadings(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counter = window as unknown as { removedHeadings: number };
    counter.removedHeadings = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node instanceof Element && (node.matches('h1') || node.querySelector('h1'))) {
            counter.removedHeadings += 1;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

for (const { path, heading } of PAGES) {
  test(`${path} is adopted, not drawn again, with no error`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // Map tiles come from OpenStreetMap, out of reach of the test machine.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        errors.push(message.text());
      }
    });
    await watchHeadings(page);
    await page.goto(path);
    const h1 = page.getByRole('heading', { level: 1, name: heading });
    await expect(h1).toBeVisible();
    // Adopted: the controls work (the header's menu or language choice).
    await expect(page.locator('fieldset').first()).toBeEnabled();
    await page.waitForLoadState('networkidle');
    expect(
      await page.evaluate(() => (window as unknown as { removedHeadings: number }).removedHeadings),
    ).toBe(0);
    expect(errors).toEqual([]);
  });
}

test('a page reached with a query string is drawn by the browser, not prerendered', async ({
  request,
}) => {
  const plain = await (
    await request.get('/blood-banks', { headers: { accept: 'text/html' } })
  ).text();
  expect(plain).toContain('data-prerendered="/blood-banks"');
  const filtered = await (
    await request.get('/blood-banks?state=Telangana', { headers: { accept: 'text/html' } })
  ).text();
  expect(filtered).not.toContain('data-prerendered');
});

test('a search typed as soon as the page shows is not lost', async ({ page }) => {
  // The app's code arrives late (a slow network): the page is already there.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/blood-banks', { waitUntil: 'commit' });
  const box = page.getByLabel('Name, city or district');
  await expect(box).toBeVisible();
  await expect(box, 'nothing can be typed before the page works').toBeDisabled();
  release();
  await box.fill('Gandhi hospital hyderbad');
  await expect(page.getByRole('heading', { level: 2, name: 'Search results' })).toBeVisible();
  await expect(page.getByRole('article').first().getByRole('heading', { level: 3 })).toHaveText(
    /Gandhi Hospital/,
  );
});

test.describe('On a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const path of ['/help', '/privacy', '/terms', '/education', '/blood-banks', '/']) {
    test(`${path}: what arrives after the page moves nothing the reader sees`, async ({ page }) => {
      await page.addInitScript(() => {
        const shifts = window as unknown as { layoutShift: number };
        shifts.layoutShift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) shifts.layoutShift += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // The page's data arrives well after the page itself (a slow network).
      await page.route('**/api/**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await route.continue();
      });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
      const shift = await page.evaluate(
        () => (window as unknown as { layoutShift: number }).layoutShift,
      );
      expect(shift).toBeLessThan(0.05);
    });
  }
});
