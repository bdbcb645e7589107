import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

/** The blood bank directory, as a visitor without an account uses it (issue 7). */

type Envelope<T> = { success: boolean; data: T };
type Facility = { id: string; name: string; state: string };
type NearbyResult = { items: (Facility & { distanceKm: number })[] };
type Facets = { total: number; states: { name: string; count: number }[] };

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
  expect(
    serious.map(
      (violation) =>
        `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
    ),
  ).toEqual([]);
}

/** The result cards, in order. */
const cards = (page: Page) => page.getByRole('main').getByRole('article');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "7.8 km away" → 7.8 */
function kilometres(text: string): number {
  const match = /([\d.,]+)\s*km/.exec(text);
  expect(match, text).not.toBeNull();
  return Number(match![1]!.replace(',', '.'));
}

test.beforeEach(async ({ page }) => {
  // No internet in tests, and the page must not need the map's images anyway.
  await page.route('https://tile.openstreetmap.org/**', (route) => route.abort());
});

test('a visitor finds the nearest blood bank to PIN 500001, opens it and can call it', async ({
  page,
  request,
}) => {
  const nearby = await apiGet<NearbyResult>(
    request,
    '/api/v1/public/facilities/nearby?pincode=500001',
  );
  expect(nearby.items.length).toBeGreaterThan(1);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/blood-banks');
  await expect(page.getByRole('heading', { level: 1, name: 'Blood Banks' })).toBeVisible();
  await expect(page.getByText('This directory dates from April 2018.')).toBeVisible();
  await expect(
    page.getByText('Details may have changed since then. Call to confirm before you go.'),
  ).toBeVisible();

  await page.getByLabel('PIN code or place', { exact: true }).fill('500001');
  await page.getByRole('button', { name: 'Find blood banks' }).click();
  await expect(page).toHaveURL(/\/blood-banks\?pin=500001$/);
  await expect(
    page.getByText('Showing blood banks near PIN 500001 (Hyderabad, Telangana).'),
  ).toBeVisible();

  const first = cards(page).first();
  await expect(first.getByRole('heading', { level: 3 })).toHaveText(nearby.items[0]!.name);
  const distances = (
    await cards(page)
      .getByText(/ km away$/)
      .allTextContents()
  ).map(kilometres);
  expect(distances.length).toBeGreaterThan(1);
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
  await expect(first.getByRole('link', { name: /^Call / }).first()).toHaveAttribute(
    'href',
    /^tel:\+?\d{10,13}$/,
  );

  await first.getByRole('link', { name: nearby.items[0]!.name }).click();
  await expect(page).toHaveURL(new RegExp(`/blood-banks/${nearby.items[0]!.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(nearby.items[0]!.name);
  await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(nearby.items[0]!.name)} · `));
  await expect(page.getByRole('link', { name: /^Call / }).first()).toHaveAttribute(
    'href',
    /^tel:\+?\d{10,13}$/,
  );
  await expect(page.getByRole('link', { name: /^Directions/ })).toHaveAttribute(
    'href',
    /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/,
  );
  await expectNoSeriousA11yViolations(page);

  // Back to the same results.
  await page.getByRole('link', { name: 'Back to your results' }).click();
  await expect(page).toHaveURL(/\/blood-banks\?pin=500001$/);
  await expect(cards(page).first().getByRole('heading', { level: 3 })).toHaveText(
    nearby.items[0]!.name,
  );
});

test('a search with spelling mistakes finds Gandhi Hospital', async ({ page }) => {
  await page.goto('/blood-banks');
  await page.getByLabel('Name, city or district').fill('Gandhi hospital hyderbad');
  await expect(page.getByRole('heading', { level: 2, name: 'Search results' })).toBeVisible();
  await expect(cards(page).first().getByRole('heading', { level: 3 })).toHaveText(
    /Gandhi Hospital/,
  );
  await expect(cards(page).first()).toContainText('Secunderabad');
  await expect(page).toHaveURL(/q=Gandhi\+hospital\+hyderbad/);
});

test('the state filter narrows the directory, and the map stays optional', async ({
  page,
  request,
}) => {
  const facets = await apiGet<Facets>(request, '/api/v1/public/facilities/facets');
  const telangana = facets.states.find((state) => state.name === 'Telangana')!;
  expect(telangana.count).toBeGreaterThan(0);
  expect(telangana.count).toBeLessThan(facets.total);

  await page.setViewportSize({ width: 1280, height: 900 });
  const mapChunks: string[] = [];
  page.on('request', (req) => {
    if (/facility-map/.test(req.url())) mapChunks.push(req.url());
  });
  await page.goto('/blood-banks');
  const total = new Intl.NumberFormat('en').format(facets.total);
  await expect(page.getByText(`${total} blood banks`, { exact: true })).toBeVisible();
  // Wide screens show the map beside the list (its own chunk), even without its images.
  await expect(
    page.getByRole('region', { name: 'Map of the blood banks in the list' }),
  ).toBeVisible();
  expect(mapChunks.length).toBeGreaterThan(0);

  await page.getByLabel('State or union territory').selectOption('Telangana');
  await expect(page).toHaveURL(/state=Telangana/);
  await expect(page.getByText(`${telangana.count} blood banks`, { exact: true })).toBeVisible();
  const places = await cards(page).allTextContents();
  expect(places.length).toBeGreaterThan(0);
  for (const text of places) expect(text).toContain('Telangana');

  await expectNoSeriousA11yViolations(page);

  // The list is usable without the map.
  await page.getByRole('button', { name: 'Hide map' }).click();
  await expect(
    page.getByRole('region', { name: 'Map of the blood banks in the list' }),
  ).toHaveCount(0);
  await expect(cards(page).first()).toBeVisible();

  // Back undoes the filter.
  await page.goBack();
  await expect(page.getByText(`${total} blood banks`, { exact: true })).toBeVisible();
});

test('the map is not downloaded by other pages', async ({ page }) => {
  const mapChunks: string[] = [];
  page.on('request', (req) => {
    if (/facility-map|leaflet/.test(req.url())) mapChunks.push(req.url());
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(mapChunks).toEqual([]);
});
