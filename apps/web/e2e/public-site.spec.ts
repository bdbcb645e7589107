import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readMail } from './support/api';

/**
 * The public site as a visitor sees it: the home page's live figures and featured articles, the
 * contact form end to end (down to the support mailbox), and an accessibility sweep of every
 * public page on a phone and on a desktop.
 */

type Stats = {
  approvedDonors: number;
  requestsFulfilled: number;
  facilitiesListed: number;
  articles: number;
};
type Article = { slug: string; title: string };

async function apiGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.ok(), path).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

test.describe('The home page', () => {
  test('shows the live figures of the API and 3 featured articles', async ({ page, request }) => {
    const stats = await apiGet<Stats>(request, '/api/v1/public/stats');
    const featured = await apiGet<Article[]>(request, '/api/public/education/featured');
    expect(featured).toHaveLength(3);
    expect(stats.facilitiesListed, 'the blood bank directory is loaded').toBeGreaterThan(1000);

    await page.goto('/');
    const figures = page.getByRole('region', { name: 'The platform today' });
    await expect(figures).toBeVisible();
    const format = (value: number) => new Intl.NumberFormat('en').format(value);
    const expected: [label: string, value: number][] = [
      ['Approved donors', stats.approvedDonors],
      ['Requests fulfilled', stats.requestsFulfilled],
      ['Blood banks listed', stats.facilitiesListed],
      ['Articles to read', stats.articles],
    ];
    await expect(figures.getByRole('term')).toHaveText(expected.map(([label]) => label));
    await expect(figures.getByRole('definition')).toHaveText(
      expected.map(([, value]) => format(value)),
    );

    const articles = page.getByRole('region', { name: 'Learn before you give' });
    const links = articles.getByRole('listitem').getByRole('link');
    await expect(links).toHaveCount(3);
    for (const [index, article] of featured.entries()) {
      await expect(links.nth(index)).toHaveText(article.title);
      await expect(links.nth(index)).toHaveAttribute('href', `/articles/${article.slug}`);
    }
    await links.first().click();
    await expect(page).toHaveURL(new RegExp(`/articles/${featured[0]!.slug}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(featured[0]!.title);
  });

  for (const [width, height] of [
    [360, 740],
    [1280, 900],
  ] as const) {
    test(`its live parts appear without moving the page at ${width} px (no layout shift)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await page.addInitScript(() => {
        const shifts: { value: number; startTime: number }[] = [];
        (window as unknown as { shifts: typeof shifts }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput)
              shifts.push({ value: entry.value, startTime: entry.startTime });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // Hold the live parts' code, then their figures, so each placeholder is on screen a while.
      let releaseCode: () => void = () => {};
      const codeHeld = new Promise<void>((resolve) => (releaseCode = resolve));
      await page.route('**/assets/home-live-*.js', async (route) => {
        await codeHeld;
        await route.continue();
      });
      await page.route('**/api/v1/public/stats', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      });

      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Ready to become a donor?' })).toBeAttached();
      // From here on, only the live parts can move anything. Look at where they will appear.
      const start = await page.evaluate(() => {
        const how = document.getElementById('how-it-works')!;
        window.scrollTo(0, how.getBoundingClientRect().bottom + window.scrollY - 300);
        return performance.now();
      });
      releaseCode();
      await expect(page.getByTestId('figures-skeleton')).toBeVisible();
      await expect(page.getByRole('region', { name: 'The platform today' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Learn before you give' })).toBeVisible();
      await page.waitForTimeout(300);
      const shift = await page.evaluate(
        (after) =>
          (window as unknown as { shifts: { value: number; startTime: number }[] }).shifts
            .filter((entry) => entry.startTime > after)
            .reduce((sum, entry) => sum + entry.value, 0),
        start,
      );
      expect(shift).toBeLessThan(0.01);
    });
  }
});

test.describe('The contact page', () => {
  test('a visitor sends a message, sees the thank-you with its reference, and support receives it', async ({
    page,
    request,
  }) => {
    const config = await apiGet<{ supportEmail: string }>(request, '/api/v1/config');
    const stamp = Date.now();
    const subject = `Changing my city ${stamp}`;

    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: config.supportEmail })).toHaveAttribute(
      'href',
      `mailto:${config.supportEmail}`,
    );
    await expect(main.getByRole('link', { name: 'Visit the help centre' })).toHaveAttribute(
      'href',
      '/help',
    );

    // Nothing is sent while the form is incomplete.
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Enter your name.')).toBeVisible();
    await expect(page.getByLabel(/^Your name/)).toBeFocused();

    await page.getByLabel(/^Your name/).fill('Meena Iyer');
    await page.getByLabel(/^Your e-mail address/).fill(`meena.${stamp}@e2e.test`);
    await page.getByLabel(/^Subject/).fill(subject);
    const text = 'I moved from Pune to Hyderabad.\nHow do I change my city on my donor profile?';
    await page.getByLabel(/^Message/).fill(text);
    await expect(page.getByText(`${text.length} of 5000 characters`)).toBeVisible();
    await page.getByRole('button', { name: 'Send message' }).click();

    const thanks = page.getByRole('heading', { name: "Thank you — we've received your message" });
    await expect(thanks).toBeVisible();
    await expect(thanks).toBeFocused();
    await expect(page.getByText(`We will reply to meena.${stamp}@e2e.test.`)).toBeVisible();
    const referenceText = page.getByText(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    await expect(referenceText).toBeVisible();
    const reference = (await referenceText.textContent())?.trim() ?? '';

    // The support mailbox has it, with the reference, the sender and the text.
    const mail = await readMail(
      request,
      config.supportEmail,
      new RegExp(`(Subject: ${subject}[\\s\\S]*Reference: ${reference}[\\s\\S]*)`),
    );
    expect(mail).toContain(`meena.${stamp}@e2e.test`);
    expect(mail).toContain('How do I change my city on my donor profile?');
  });
});

/** Waits until a page has settled (its calls answered), then runs axe on it. */
async function seriousViolations(page: Page): Promise<string[]> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}

test.describe('Accessibility of the public pages', () => {
  const paths: string[] = [
    '/',
    '/about',
    '/contact',
    '/help',
    '/privacy',
    '/terms',
    '/education',
    '/articles/:slug',
    '/blood-banks',
    '/blood-banks/:id',
    '/components',
  ];
  const real: { slug?: string; id?: string } = {};

  test.beforeAll(async ({ request }) => {
    const featured = await apiGet<Article[]>(request, '/api/public/education/featured');
    real.slug = featured[0]?.slug;
    const directory = await apiGet<{ items: { id: string }[] }>(
      request,
      '/api/v1/public/facilities/directory?pageSize=1',
    );
    real.id = directory.items[0]?.id;
  });

  for (const width of [360, 1280]) {
    for (const path of paths) {
      test(`${path} at ${width} px has no serious or critical violations`, async ({ page }) => {
        const url = path.replace(':slug', real.slug ?? '').replace(':id', real.id ?? '');
        if (path.includes(':')) {
          expect(url, 'a real article slug or facility id').toMatch(/\/[a-z0-9-]+$/);
        }
        await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
        await page.goto(url);
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
  }

  test('the contact form with its errors, and its thank-you, at 360 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/contact');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Enter your name.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel(/^Your name/).fill('Ravi Kumar');
    await page.getByLabel(/^Your e-mail address/).fill('ravi.kumar@e2e.test');
    await page.getByLabel(/^Subject/).fill('A question about platelets');
    await page.getByLabel(/^Message/).fill('Can I give platelets at any blood bank near me?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(
      page.getByRole('heading', { name: "Thank you — we've received your message" }),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
