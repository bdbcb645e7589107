import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

/** The education pages, the help centre and the policies, as a visitor without an account sees them. */

type Envelope<T> = { success: boolean; data: T };

async function apiGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.ok(), path).toBe(true);
  return ((await res.json()) as Envelope<T>).data;
}

async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

const ARTICLE = {
  slug: 'blood-types-and-compatibility',
  title: 'Blood types and who can receive from whom',
  sentence:
    'Everyone has a blood type, and it matters a great deal when someone needs a transfusion.',
};

test('a visitor searches the articles, reads one and downloads it as a PDF', async ({
  page,
  request,
}) => {
  await page.goto('/education');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Learn About Blood Donation' }),
  ).toBeVisible();
  const featured = page.getByRole('region', { name: 'Featured articles' });
  await expect(featured.getByRole('article')).toHaveCount(3);
  await expect(page.getByRole('region', { name: 'Most read' }).getByRole('listitem')).toHaveCount(
    5,
  );
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('searchbox', { name: 'Search articles' }).fill('Bombay blood group');
  await page.getByRole('searchbox', { name: 'Search articles' }).press('Enter');
  await expect(page).toHaveURL(/\/education\?q=Bombay\+blood\+group$/);
  const results = page.getByRole('region', { name: 'Search results' });
  await expect(featured).toHaveCount(0);
  await results.getByRole('link', { name: ARTICLE.title }).click();

  await expect(page).toHaveURL(new RegExp(`/articles/${ARTICLE.slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ARTICLE.title);
  await expect(page.getByText(ARTICLE.sentence)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Sources' })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${ARTICLE.title} · `));
  await expectNoSeriousA11yViolations(page);

  const before = await apiGet<{ downloads: number }>(
    request,
    `/api/public/education/content/${ARTICLE.slug}`,
  );
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${ARTICLE.slug}.pdf`);
  expect(
    readFileSync(await file.path())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
  await expect(page.getByText('The PDF has been downloaded.')).toBeVisible();
  const after = await apiGet<{ downloads: number }>(
    request,
    `/api/public/education/content/${ARTICLE.slug}`,
  );
  expect(after.downloads).toBe(before.downloads + 1);

  // Back returns to the search, as it was.
  await page.goBack();
  await expect(page).toHaveURL(/\/education\?q=Bombay\+blood\+group$/);
  await expect(page.getByRole('searchbox', { name: 'Search articles' })).toHaveValue(
    'Bombay blood group',
  );
});

test('an unknown article says so, with the way back', async ({ page }) => {
  await page.goto('/articles/no-such-article');
  await expect(page.getByRole('heading', { level: 1, name: 'Article not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Browse all articles' }).click();
  await expect(page).toHaveURL(/\/education$/);
});

test('a visitor finds an answer in the help centre and marks it helpful', async ({
  page,
  request,
}) => {
  const id = 'who-sees-my-phone';
  const before = await apiGet<{ helpfulCount: number }>(
    request,
    `/api/public/education/faqs/${id}`,
  );

  await page.goto('/help');
  await expect(page.getByRole('heading', { level: 1, name: 'Help Center' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search the questions' }).fill('PHONE number');
  const question = page.getByRole('button', { name: 'Who can see my phone number?' });
  await expect(question).toBeVisible();
  await expect(page.getByRole('button', { name: 'How do I register as a donor?' })).toHaveCount(0);

  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  const answer = page.locator(`#${await question.getAttribute('aria-controls')}`);
  await expect(answer.getByText(/Strangers never see it/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await answer.getByRole('button', { name: 'Yes' }).click();
  await expect(answer.getByText('Thanks for your feedback.')).toBeVisible();
  await expect(answer.getByRole('button', { name: 'Yes' })).toHaveCount(0);
  await expect
    .poll(async () => {
      const after = await apiGet<{ helpfulCount: number }>(
        request,
        `/api/public/education/faqs/${id}`,
      );
      return after.helpfulCount;
    })
    .toBe(before.helpfulCount + 1);

  // After a reload the vote is remembered: no second vote is offered.
  await page.reload();
  await page.getByRole('button', { name: 'Who can see my phone number?' }).click();
  await expect(page.getByText('Thanks for your feedback.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Yes', exact: true })).toHaveCount(0);

  await page.getByRole('main').getByRole('link', { name: 'Contact us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});

test('the privacy policy and the terms are shown with their version', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1, name: /privacy policy/i })).toBeVisible();
  await expect(page.getByText(/^Version \d{4}-\d{2}-\d{2} · Last updated /)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'The short version' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 1, name: /terms/i })).toBeVisible();
});

test.describe('On a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  test('the education page and an article with tables fit the screen; rows and tables scroll on their own', async ({
    page,
  }) => {
    await page.goto('/education');
    await expect(page.getByRole('navigation', { name: 'Topics' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Most read' }).getByRole('listitem')).toHaveCount(
      5,
    );
    expect(await pageWidth(page)).toBeLessThanOrEqual(360);

    await page.goto(`/articles/${ARTICLE.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ARTICLE.title);
    const tables = page.getByRole('group', { name: /scroll sideways/ });
    await expect(tables.first()).toBeVisible();
    expect(await pageWidth(page)).toBeLessThanOrEqual(360);
  });
});
