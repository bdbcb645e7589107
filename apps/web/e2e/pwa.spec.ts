import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, expect, test, type Page } from '@playwright/test';

/**
 * The installable app in Chromium with its service worker (the `pwa` project of
 * playwright.config.ts allows service workers; every other spec blocks them).
 */

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The build the test server serves (playwright.config.ts passes E2E_WEB_DIST as WEB_DIST_DIR). */
const SERVED_DIST = process.env.E2E_WEB_DIST ?? path.join(WEB_ROOT, 'dist');

async function waitForServiceWorkerControl(page: Page): Promise<string> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, {
    timeout: 30_000,
  });
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
}

async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test.describe('The installable app', () => {
  test('registers /sw.js, which takes control of the page', async ({ page, request }) => {
    await page.goto('/');
    expect(await waitForServiceWorkerControl(page)).toMatch(/\/sw\.js$/);
    const registration = await page.evaluate(async () => {
      const found = await navigator.serviceWorker.getRegistration();
      return { scope: found?.scope, active: found?.active?.state };
    });
    expect(registration.scope).toMatch(/\/$/);
    expect(registration.active).toBe('activated');
    // Served so that a deploy reaches installed apps at once.
    const worker = await request.get('/sw.js');
    expect(worker.headers()['cache-control']).toBe('no-cache');
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
      'href',
      '/manifest.webmanifest',
    );
  });

  test('offline, an article read before still opens and an unseen page shows the offline page', async ({
    page,
    context,
    request,
  }) => {
    const list = await request.get('/api/public/education/content?pageSize=1');
    const [article] = (await list.json()).data.items as { slug: string; title: string }[];
    expect(article).toBeDefined();

    await page.goto('/');
    await waitForServiceWorkerControl(page);
    await page.goto(`/articles/${article!.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: article!.title })).toBeVisible();
    // The article's reply is in the worker's public content cache, and the page counts as seen.
    await expect
      .poll(() =>
        page.evaluate(async (slug) => {
          const content = await caches.open('bdms-public-content');
          const visited = await caches.open('bdms-visited-pages');
          const keys = (await content.keys()).map((request) => new URL(request.url).pathname);
          return (
            keys.includes(`/api/public/education/content/${slug}`) &&
            (await visited.match(`/articles/${slug}`)) !== undefined
          );
        }, article!.slug),
      )
      .toBe(true);

    await context.setOffline(true);
    try {
      await page.goto(`/articles/${article!.slug}`);
      await expect(page.getByRole('heading', { level: 1, name: article!.title })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'You are offline' })).toHaveCount(0);

      await page.goto('/help');
      await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
      await expect(page.getByText('Pages you have opened before still work')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute(
        'href',
        '/',
      );
      await expectNoSeriousA11yViolations(page);
      // Still offline: "Try again" says so instead of reloading into the same page.
      await page.getByRole('link', { name: 'Try again' }).click();
      await expect(page.getByRole('status')).toHaveText(
        'Still offline. Please try again in a moment.',
      );
    } finally {
      await context.setOffline(false);
    }
    // Back online, the offline page reloads by itself into the page that was asked for.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'You are offline' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/help$/);
  });

  test('the install banner offers the browser prompt 3 s after the browser offers it', async ({
    page,
  }) => {
    await page.goto('/');
    // Headless Chromium in a test context never offers installation itself: a stand-in event.
    await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      const calls = { prompt: 0 };
      Object.assign(window, { __installCalls: calls });
      Object.assign(event, {
        prompt: () => {
          calls.prompt += 1;
          return Promise.resolve();
        },
        userChoice: Promise.resolve({ outcome: 'accepted', platform: 'web' }),
      });
      window.dispatchEvent(event);
    });
    const banner = page.getByRole('region', { name: 'Install the app' });
    await expect(banner).toBeVisible({ timeout: 10_000 });
    await expect(banner).toContainText('Install the app for quick access');
    await expectNoSeriousA11yViolations(page);
    await banner.getByRole('button', { name: 'Install', exact: true }).click();
    await expect(banner).toBeHidden();
    expect(
      await page.evaluate(
        () => (window as unknown as { __installCalls: { prompt: number } }).__installCalls.prompt,
      ),
    ).toBe(1);
    const info = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('pwa_install_info'))) ?? '{}',
    ) as { installedAt?: number; lastOutcome?: string };
    expect(info.lastOutcome).toBe('accepted');
    expect(info.installedAt).toEqual(expect.any(Number));
  });

  test("passes Chromium's installability check (DevTools protocol)", async ({
    baseURL,
  }, testInfo) => {
    // Installability is not evaluated in incognito contexts: a persistent profile, like a user's.
    const profile = mkdtempSync(path.join(os.tmpdir(), 'bdms-pwa-profile-'));
    const { launchOptions } = testInfo.project.use;
    const context = await chromium.launchPersistentContext(profile, {
      ...launchOptions,
      baseURL,
      serviceWorkers: 'allow',
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
      expect(manifest.errors).toEqual([]);
      const parsed = JSON.parse(manifest.data ?? '{}') as {
        id?: string;
        display?: string;
        icons?: { sizes: string; purpose?: string }[];
        screenshots?: { form_factor?: string; sizes: string }[];
      };
      expect(parsed.id).toBe('/');
      expect(parsed.display).toBe('standalone');
      expect(parsed.icons).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ sizes: '192x192', purpose: 'maskable' }),
          expect.objectContaining({ sizes: '512x512', purpose: 'maskable' }),
        ]),
      );
      expect(parsed.screenshots?.map((shot) => shot.form_factor).sort()).toEqual([
        'narrow',
        'wide',
      ]);
      await expect
        .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors)
        .toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test.describe('a new version', () => {
    let scratch: string | null = null;
    let backup: string | null = null;

    test.afterAll(() => {
      if (!backup) return;
      // Put the served build back exactly as it was, for the specs that run after this one.
      for (const entry of readdirSync(SERVED_DIST)) {
        rmSync(path.join(SERVED_DIST, entry), { recursive: true, force: true });
      }
      cpSync(backup, SERVED_DIST, { recursive: true });
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      backup = scratch = null;
    });

    test('a new build shows "Update Available", and "Update Now" reloads into it', async ({
      page,
    }) => {
      test.setTimeout(240_000);
      const versions: string[] = [];
      page.on('request', (sent) => {
        const version = sent.headers()['x-client-version'];
        if (version && new URL(sent.url()).pathname === '/api/v1/config') versions.push(version);
      });
      // A query string: the page is drawn by the browser, which asks for the configuration (a
      // prerendered page carries it), so each version's own request shows.
      await page.goto('/?from=update-test');
      await waitForServiceWorkerControl(page);
      await expect.poll(() => versions.length).toBeGreaterThan(0);
      const before = versions.at(-1)!;
      const next = `${before}-next`;

      // Deploy: build the app with another version and copy it over the served build (hashed
      // assets of both versions side by side, as a real deploy leaves them).
      scratch = mkdtempSync(path.join(os.tmpdir(), 'bdms-pwa-'));
      backup = path.join(scratch, 'backup');
      cpSync(SERVED_DIST, backup, { recursive: true });
      const nextBuild = path.join(scratch, 'next');
      execFileSync(
        'npx',
        ['vite', 'build', '--outDir', nextBuild, '--emptyOutDir', '--logLevel', 'warn'],
        {
          cwd: WEB_ROOT,
          env: { ...process.env, VITE_APP_VERSION: next },
          stdio: 'inherit',
        },
      );
      cpSync(nextBuild, SERVED_DIST, { recursive: true, force: true });

      // The hourly check, now.
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });
      const card = page.getByRole('region', { name: 'Update Available' });
      await expect(card).toBeVisible({ timeout: 60_000 });
      await expect(card).toContainText('A new version of the app is ready.');
      await expect(card.getByRole('button', { name: 'Later' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      await card.getByRole('button', { name: 'Update Now' }).click();
      const success = page.getByRole('region', { name: 'App updated' });
      await expect(success).toContainText(`You are using the latest version (${next}).`);
      expect(versions.at(-1)).toBe(next);
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe(
        'activated',
      );
      // The success card closes by itself after 2 s.
      await expect(success).toBeHidden({ timeout: 5_000 });
    });
  });
});
