import { defineConfig, devices } from '@playwright/test';

import {
  E2E_ADMIN,
  E2E_BASE_URL as baseURL,
  E2E_CLOCK_PORT,
  E2E_MAIL_HTTP_PORT,
  E2E_MAIL_URL,
  E2E_DLT,
  E2E_PHONE_HTTP_PORT,
  E2E_PHONE_URL,
  E2E_PORT,
  E2E_SMPP_PORT,
  E2E_SMTP_PORT,
  E2E_WHATSAPP,
  E2E_WHATSAPP_PORT,
} from './e2e/support/constants';

/** Specs of the installable app (e2e/pwa*.spec.ts): they need the service worker. */
const PWA_SPECS = /pwa[^/]*\.spec\.ts$/;

// Debian's Chromium, never a downloaded browser.
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  outputDir: `../../test-results/${E2E_PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: '../../playwright-report' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'block',
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      // The service worker would answer from its caches and hide what the server really does.
      testIgnore: PWA_SPECS,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    {
      // The installable app itself: service worker, offline, updates, installability.
      name: 'pwa',
      testMatch: PWA_SPECS,
      use: { ...devices['Desktop Chrome'], channel: undefined, serviceWorkers: 'allow' },
    },
  ],
  webServer: [
    {
      command: 'node scripts/e2e-mail-server.mjs',
      cwd: '../..',
      url: `${E2E_MAIL_URL}/health`,
      reuseExistingServer: false,
      env: { E2E_SMTP_PORT: String(E2E_SMTP_PORT), E2E_MAIL_HTTP_PORT: String(E2E_MAIL_HTTP_PORT) },
    },
    {
      // The phone providers: an SMPP SMSC and a WhatsApp Cloud API (issue #16).
      command: 'npx tsx apps/server/src/test/e2e-phone-peers.ts',
      cwd: '../..',
      url: `${E2E_PHONE_URL}/health`,
      reuseExistingServer: false,
      env: {
        E2E_SMPP_PORT: String(E2E_SMPP_PORT),
        E2E_WHATSAPP_PORT: String(E2E_WHATSAPP_PORT),
        E2E_PHONE_HTTP_PORT: String(E2E_PHONE_HTTP_PORT),
        E2E_APP_URL: baseURL,
        E2E_WHATSAPP_TOKEN: E2E_WHATSAPP.token,
        E2E_WHATSAPP_APP_SECRET: E2E_WHATSAPP.appSecret,
        E2E_WHATSAPP_PHONE_NUMBER_ID: E2E_WHATSAPP.phoneNumberId,
      },
    },
    {
      command: 'node scripts/e2e-server.mjs',
      cwd: '../..',
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(E2E_PORT),
        E2E_CLOCK_PORT: String(E2E_CLOCK_PORT),
        HOST: '127.0.0.1',
        // One database per port, so two runs on one machine do not share (or delete) it.
        DATA_DIR: `.tmp/e2e-data-${E2E_PORT}`,
        // An absolute path to another build of the web app (a parallel run's own `vite build --outDir`).
        ...(process.env.E2E_WEB_DIST ? { WEB_DIST_DIR: process.env.E2E_WEB_DIST } : {}),
        PUBLIC_URL: baseURL,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        LOG_LEVEL: 'warn',
        SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
        // SMS and WhatsApp go to the harness's providers (apps/server/src/test/e2e-phone-peers.ts).
        SMS_SMPP_URL: `smpp://bdms:secret@127.0.0.1:${E2E_SMPP_PORT}`,
        SMS_DLT_ENTITY_ID: E2E_DLT.entityId,
        SMS_DLT_TEMPLATE_IDS: Object.entries(E2E_DLT.templates)
          .map(([name, id]) => `${name}=${id}`)
          .join(','),
        WHATSAPP_API_URL: `http://127.0.0.1:${E2E_WHATSAPP_PORT}`,
        WHATSAPP_TOKEN: E2E_WHATSAPP.token,
        WHATSAPP_PHONE_NUMBER_ID: E2E_WHATSAPP.phoneNumberId,
        WHATSAPP_APP_SECRET: E2E_WHATSAPP.appSecret,
        WHATSAPP_VERIFY_TOKEN: E2E_WHATSAPP.verifyToken,
        // The donor dashboard's optional cards are on, as a foundation running the service would have them.
        FEATURE_FLAGS: 'donorDashboard,donationHistory,certificateGeneration',
        // Every journey registers from loopback; the API tests prove the per-address limits.
        RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1',
        // Every reply is written both ways and compared (apps/server/src/lib/reply-serializer.ts).
        CHECK_REPLIES: '1',
      },
    },
  ],
});
