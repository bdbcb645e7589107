import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  adminToken,
  apiGet,
  apiPost,
  apiPut,
  readMail,
  readSmsCode,
  type AuthResult,
} from './support/api';
import { E2E_ADMIN, E2E_CLOCK_URL } from './support/constants';

// Issue #17's journey: a blood centre registers itself, an administrator verifies it, the centre
// publishes its stock at the desk on a phone, a family on /emergency asking for O− finds it first
// with its figure and its age, and a day later the same figure is stale and no longer counted.
test.use({ timezoneId: 'Asia/Kolkata' });

type Facility = { id: string; name: string; address: string; city: string; distanceKm: number };
const HOUR = 3_600_000;

async function moveServerClock(request: APIRequestContext, offsetMs: number) {
  const res = await request.post(E2E_CLOCK_URL, { data: { offsetMs } });
  expect(res.ok()).toBe(true);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help}`);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function asLanguage(page: Page, lang: 'en' | 'hi') {
  await page.addInitScript((value) => localStorage.setItem('preferred-language', value), lang);
}

/** The O− packed red cells of a centre: the stock API's public figure. */
async function publicOMinus(request: APIRequestContext, facilityId: string) {
  const stock = await apiGet<{
    items: { bloodType: string; component: string; units: number; stale: boolean }[];
  }>(request, `/api/v1/public/facilities/${facilityId}/stock`);
  return stock.items.find((line) => line.bloodType === 'O-' && line.component === 'prbc');
}

/** An invited (verified) centre on another directory entry, holding `units` O− packed red cells. */
async function invitedCentreWithStock(
  request: APIRequestContext,
  admin: string,
  facilityId: string,
  units: number,
) {
  const stamp = `${Date.now() % 1_000_000}`.padStart(6, '0');
  const centre = {
    name: `Rival Blood Centre ${stamp}`,
    email: `rival-${stamp}@e2e.test`,
    phone: `7${stamp}321`.slice(0, 10),
    city: 'New Delhi',
    state: 'Delhi',
    facilityId,
  };
  await apiPost(request, '/api/v1/admin/hospitals', centre, admin);
  const token = await readMail(request, centre.email, /reset-password\?token=([A-Za-z0-9_-]+)/);
  const password = 'rival-centre-password-1';
  await apiPost(request, '/api/v1/auth/reset-password', { token, password });
  const session = await apiPost<AuthResult>(request, '/api/v1/auth/login', {
    email: centre.email,
    password,
    role: 'hospital',
  });
  await apiPut(
    request,
    `/api/v1/facilities/${facilityId}/stock`,
    { lines: [{ bloodType: 'O-', component: 'prbc', units }] },
    session.tokens.accessToken,
  );
}

test.describe('blood stock', () => {
  test.afterAll(async ({ request }) => {
    await moveServerClock(request, 0);
    await apiPut(
      request,
      '/api/v1/admin/flags',
      { inventoryManagement: false, hospitalRegistration: false },
      await adminToken(request),
    );
  });

  test('a centre registers, is verified, publishes its stock at 390 px; a family asking for O− finds it first; a day later it is stale', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminToken(request);
    await apiPut(
      request,
      '/api/v1/admin/flags',
      { inventoryManagement: true, hospitalRegistration: true, bloodRequests: true },
      admin,
    );

    // The centre is the directory's nearest blood bank to PIN 110001; a verified rival about
    // 3–10 km away holds more O−, so "first" means nearest, not largest.
    const near = await apiGet<{ items: Facility[] }>(
      request,
      '/api/v1/public/facilities/nearby?pincode=110001&radiusKm=25&limit=20',
    );
    const mine = near.items[0];
    const rival = near.items.find((f) => mine && f.distanceKm >= mine.distanceKm + 3);
    if (!mine || !rival) throw new Error('no blood banks near PIN 110001 in the directory');
    await invitedCentreWithStock(request, admin, rival.id, 9);

    // 1. The centre registers itself on a phone, finding its directory entry by search.
    await page.setViewportSize({ width: 390, height: 844 });
    const stamp = `${Date.now() % 1_000_000}`.padStart(6, '0');
    const email = `centre-${stamp}@e2e.test`;
    const phone = `9${stamp}456`.slice(0, 10);
    const password = 'centre desk password 17';
    await page.goto('/hospital/login');
    await page.getByRole('link', { name: 'Register it' }).click();
    await expect(page).toHaveURL(/\/hospital\/register$/);
    await page.getByLabel('Name of the blood centre or hospital').fill(mine.name);
    await page.getByLabel('Blood bank licence number').fill(`DL/28C/${stamp}/2019`);
    const picker = page.getByRole('combobox', { name: /blood bank directory/i });
    await picker.fill(`${mine.name} ${mine.city}`);
    // A chain has many entries of one name: the address tells this one apart.
    await page.getByRole('option').filter({ hasText: mine.address }).click();
    await page.getByLabel('Contact person').fill('Dr Kavita Sharma');
    await page.getByLabel('Official e-mail address').fill(email);
    await page.getByLabel('Official mobile number').fill(phone);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Register the blood centre' }).click();

    // Pending: it waits for an administrator, and confirms its e-mail and phone by code.
    await expect(page).toHaveURL(/\/hospital\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Waiting for verification' })).toBeVisible();
    await shot(page, 'centre-pending-en-390');
    const emailCode = await readMail(request, email, /registration page:\s+(\d{6})/);
    await page.getByLabel('Code from the e-mail').fill(emailCode);
    await page.getByRole('button', { name: 'Confirm' }).first().click();
    await expect(page.getByText('Confirmed.').first()).toBeVisible();
    const since = Date.now();
    await page.getByRole('button', { name: 'Send a code by SMS' }).click();
    const sms = await readSmsCode(request, `+91${phone}`, since);
    await page.getByLabel('Code from the SMS').fill(sms.code);
    await page.getByRole('button', { name: 'Confirm' }).last().click();
    await expect(page.getByText('Confirmed.')).toHaveCount(2);
    // Still unable to act: the stock screen says so.
    await page.goto('/hospital/stock');
    await expect(page.getByRole('heading', { name: 'Waiting for verification' })).toBeVisible();

    // 2. An administrator checks it against the directory entry and verifies it.
    const adminContext = await browser.newContext({ timezoneId: 'Asia/Kolkata' });
    const adminPage = await adminContext.newPage();
    await adminPage.setViewportSize({ width: 1280, height: 900 });
    await adminPage.goto('/admin/login');
    await adminPage.getByLabel('E-mail address').fill(E2E_ADMIN.email);
    await adminPage.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await adminPage.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
    await expect(adminPage).toHaveURL(/\/admin/);
    const pending = adminPage.getByRole('region', { name: /Registrations to verify/ });
    await expect(pending).toContainText(mine.name);
    await expect(pending).toContainText('Dr Kavita Sharma');
    await shot(adminPage, 'admin-pending-registration-en-1280');
    await pending
      .getByRole('button', { name: /Verify/ })
      .first()
      .click();
    await adminPage.getByRole('dialog').getByRole('button', { name: 'Verify' }).click();
    await expect(adminPage.getByText(`${mine.name} is verified.`)).toBeVisible();
    await readMail(request, email, /(verified)/i);
    await adminPage.reload();
    const stockPanel = adminPage.getByRole('region', { name: 'Blood stock by blood group' });
    await expect(stockPanel).toContainText('Download CSV');
    await stockPanel.screenshot({ path: test.info().outputPath('admin-stock-en-1280.png') });

    // 3. At the desk, on the phone: four O− packed red cells, saved on one screen.
    await page.goto('/hospital/stock');
    await expect(page.getByRole('heading', { name: 'Update blood stock' })).toBeVisible();
    const more = page.getByRole('button', { name: 'One more unit of O-', exact: false });
    for (let i = 0; i < 4; i += 1) await more.click();
    await page.getByRole('button', { name: /Save 1 change/ }).click();
    await expect(page.getByText('Stock saved.')).toBeVisible();
    expect((await publicOMinus(request, mine.id))?.units).toBe(4);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'desk-stock-en-390');
    // "Nothing changed" in one tap refreshes the time.
    await page.getByRole('button', { name: /Nothing changed/ }).click();
    await expect(page.getByText('Confirmed: every figure is current as of now.')).toBeVisible();

    // 4. A family on /emergency asks who holds O− near PIN 110001: this centre comes first,
    // with its figure and how fresh it is; the rival (more units, farther) after it.
    const family = await browser.newContext({ timezoneId: 'Asia/Kolkata' });
    const guest = await family.newPage();
    await guest.setViewportSize({ width: 390, height: 844 });
    await guest.goto('/emergency');
    const finder = guest.getByRole('region', { name: 'Who holds this blood now' });
    await finder.getByLabel('Blood group needed').selectOption('O-');
    await finder.getByLabel('PIN code or place').fill('110001');
    await finder.getByRole('button', { name: 'Find blood in stock' }).click();
    // The first list holds the exact group, nearest first.
    const cards = finder.locator('ol').first().locator(':scope > li');
    await expect(cards.first()).toContainText(mine.name);
    await expect(cards.first()).toContainText('O-: 4 units');
    await expect(cards.first()).toContainText(/Updated (now|\d+ (second|minute)s? ago)/);
    await expect(cards.nth(1)).toContainText(rival.name);
    await expect(cards.nth(1)).toContainText('O-: 9 units');
    expect(await seriousViolations(guest)).toEqual([]);
    await shot(guest, 'emergency-stock-en-390');

    // The same in Hindi, at 1280 px.
    const hindi = await browser.newContext({ timezoneId: 'Asia/Kolkata' });
    const hindiPage = await hindi.newPage();
    await asLanguage(hindiPage, 'hi');
    await hindiPage.setViewportSize({ width: 1280, height: 900 });
    await hindiPage.goto(`/blood-banks?pin=110001&blood=O-`);
    await expect(hindiPage.getByText(mine.name).first()).toBeVisible();
    await shot(hindiPage, 'blood-banks-stock-hi-1280');
    await hindiPage.setViewportSize({ width: 390, height: 844 });
    await hindiPage.goto('/emergency');
    const hindiFinder = hindiPage
      .locator('section')
      .filter({ has: hindiPage.locator('form') })
      .first();
    await hindiFinder.locator('select').first().selectOption('O-');
    await hindiFinder.locator('input').first().fill('110001');
    await hindiFinder.getByRole('button').last().click();
    await expect(hindiFinder).toContainText(mine.name);
    expect(await seriousViolations(hindiPage)).toEqual([]);
    await hindiFinder.screenshot({ path: test.info().outputPath('emergency-stock-hi-390.png') });

    // 5. 25 hours later, with no update, the figure is stale: shown as such on the centre's
    // page, and no longer counted as available to the family.
    await moveServerClock(request, 25 * HOUR);
    // A day later, another family's phone (its own HTTP cache, its clock a day on).
    const nextDay = await browser.newContext({ timezoneId: 'Asia/Kolkata' });
    const later = await nextDay.newPage();
    await later.clock.install({ time: new Date(Date.now() + 25 * HOUR) });
    await later.setViewportSize({ width: 390, height: 844 });
    try {
      expect(await publicOMinus(request, mine.id)).toMatchObject({ units: 4, stale: true });
      await later.goto(`/blood-banks/${mine.id}`);
      await expect(later.getByText('Stale').first()).toBeVisible();
      await expect(
        later.getByText('Not updated for more than 24 hours', { exact: false }).first(),
      ).toBeVisible();
      await shot(later, 'centre-stale-en-390');
      // The stock table scrolls inside its box; the page itself does not get wider than the phone.
      expect(await later.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      const available = await apiGet<{ items: { id: string }[] }>(
        request,
        '/api/v1/public/stock/availability?bloodType=O-&component=prbc&pincode=110001&radiusKm=25',
      );
      expect(available.items.map((centre) => centre.id)).not.toContain(mine.id);
      await later.goto('/emergency');
      const laterFinder = later.getByRole('region', { name: 'Who holds this blood now' });
      await laterFinder.getByLabel('Blood group needed').selectOption('O-');
      await laterFinder.getByLabel('PIN code or place').fill('110001');
      await laterFinder.getByRole('button', { name: 'Find blood in stock' }).click();
      await expect(laterFinder).toContainText(
        /No blood centre within \d+ km has published fresh stock/,
      );
      await expect(laterFinder).not.toContainText(mine.name);
    } finally {
      await moveServerClock(request, 0);
    }
    await Promise.all([adminContext.close(), family.close(), hindi.close(), nextDay.close()]);
  });
});
