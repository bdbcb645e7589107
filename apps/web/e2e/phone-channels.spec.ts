import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_DLT, E2E_PHONE_URL } from './support/constants';
import {
  adminToken,
  apiGet,
  apiPost,
  apiPut,
  HEALTHY_ANSWERS,
  readSmsCode,
  registerDonor,
  smsTo,
  waitForSms,
} from './support/api';

/**
 * Issue #16, end to end with real protocol peers (apps/server/src/test/e2e-phone-peers.ts): an
 * SMPP v3.4 SMSC and the WhatsApp Cloud API. A guest's request is confirmed by the SMS code;
 * once verified, the matched donor gets the alert by SMS and as a WhatsApp template, replies YES
 * by SMS and receives the family's contact; the family's tracking page shows the donor coming.
 * With both providers stopped, the next alert waits in the outbox and arrives once they return.
 */

const LOCALES = path.join(import.meta.dirname, '../src/i18n/locales');
const texts = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(LOCALES, lang, `${ns}.json`), 'utf8')) as Record<
    string,
    Record<string, string>
  >;

/** Gandhi Hospital, Secunderabad: the request and its donors are placed here. */
const PLACE = { latitude: 17.4226, longitude: 78.5062 };
const e164 = (phone: string) => `+91${phone}`;
const uniquePhone = (first: string) => `${first}${String(Date.now()).slice(-9)}`;

interface Whatsapp {
  id: string;
  body: {
    to: string;
    type: string;
    template?: {
      name: string;
      components: { type: string; sub_type?: string; parameters: { payload?: string }[] }[];
    };
  };
}

async function whatsappTo(request: APIRequestContext, phone: string): Promise<Whatsapp[]> {
  const res = await request.get(`${E2E_PHONE_URL}/whatsapp?to=${encodeURIComponent(phone)}`);
  return (await res.json()) as Whatsapp[];
}

async function peer(request: APIRequestContext, action: string, data?: object) {
  const res = await request.post(`${E2E_PHONE_URL}${action}`, data ? { data } : {});
  expect(res.ok(), `${action}: ${await res.text()}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

/** An approved AB− donor at the hospital whose phone was verified with the SMS code. */
async function verifiedDonor(request: APIRequestContext, fullName: string) {
  const since = Date.now();
  const donor = await registerDonor(request, {
    ...PLACE,
    bloodType: 'AB-',
    fullName,
    phone: uniquePhone('7'),
  });
  const phone = e164(donor.phone);
  // Registration sent the code (phoneVerification on); the SMSC has it.
  const { code } = await readSmsCode(request, phone, since);
  await apiPost(request, `/api/v1/users/${donor.id}/phone/verify`, { code }, donor.token);
  await apiPut(
    request,
    `/api/v1/users/${donor.id}/questionnaire`,
    { answers: HEALTHY_ANSWERS },
    donor.token,
  );
  await apiPost(request, `/api/v1/admin/donors/${donor.id}/approve`, {}, await adminToken(request));
  return { ...donor, phone };
}

async function noSeriousAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id),
  ).toEqual([]);
}

test.describe.configure({ mode: 'serial' });
// A busy machine, and an outbox retry (30 s) while the providers are down.
test.setTimeout(300_000);

test.afterAll(async ({ request }) => {
  await peer(request, '/smpp/start');
  await peer(request, '/whatsapp/start');
  await apiPut(
    request,
    '/api/v1/admin/flags',
    // As the other journeys expect them (the spec's defaults; shell.spec.ts checks the header).
    {
      emergencyServices: false,
      phoneVerification: false,
      smsNotifications: false,
      whatsappIntegration: false,
    },
    await adminToken(request),
  );
});

test('a guest confirms by SMS code, the donor is alerted by SMS and WhatsApp, replies YES, and the family sees them coming', async ({
  page,
  browser,
  request,
}) => {
  const admin = await adminToken(request);
  await apiPut(
    request,
    '/api/v1/admin/flags',
    {
      bloodRequests: true,
      emergencyServices: true,
      phoneVerification: true,
      smsNotifications: true,
      whatsappIntegration: true,
    },
    admin,
  );
  await apiPut(request, '/api/v1/admin/notifications/settings', { smsEnabled: true }, admin);

  // The donor: phone verified by code, then consent to SMS and WhatsApp on the settings page.
  const donor = await verifiedDonor(request, 'Meera Iyer');
  const notifications = texts('en', 'notifications');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  await page.getByLabel('E-mail address').fill(donor.email);
  await page.getByLabel('Password', { exact: true }).fill(donor.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto('/notifications');
  const channels = page.getByRole('region', { name: notifications.phoneChannels!.title });
  await expect(channels).toBeVisible();
  for (const name of ['SMS', 'WhatsApp']) {
    const toggle = channels.getByRole('switch', { name });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  }
  await expect(channels.getByText(/^On since/)).toHaveCount(2);
  await noSeriousAxeViolations(page);
  await page.screenshot({
    path: test.info().outputPath('phone-channels-consent-en-390.png'),
    fullPage: true,
  });
  const consents = await apiGet<{ channels: { channel: string; consented: boolean }[] }>(
    request,
    '/api/v1/notifications/channels',
    donor.token,
  );
  expect(
    consents.channels
      .filter((c) => c.consented)
      .map((c) => c.channel)
      .sort(),
  ).toEqual(['sms', 'whatsapp']);

  // The guest's Critical request waits for the code sent by SMS to the contact phone.
  const guestPhone = uniquePhone('9');
  const requestedAt = Date.now();
  const created = await apiPost<{ request: { trackingCode: string; status: string } }>(
    request,
    '/api/v1/blood-requests',
    {
      bloodType: 'AB-',
      unitsNeeded: 1,
      urgency: 'critical',
      patientName: 'Sita Ram',
      hospitalName: 'Gandhi Hospital',
      city: 'Secunderabad',
      state: 'Telangana',
      ...PLACE,
      contactName: 'Ravi Kumar',
      contactPhone: guestPhone,
      language: 'en',
    },
  );
  expect(created.request.status).toBe('unconfirmed');
  const { trackingCode } = created.request;
  const confirmation = await readSmsCode(request, e164(guestPhone), requestedAt);
  expect(confirmation.sms.templateId).toBe(E2E_DLT.templates.phone_code);
  expect(confirmation.sms.entityId).toBe(E2E_DLT.entityId);

  const requests = texts('en', 'requests');
  // The family, in a browser of its own.
  const family = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const guest = await family.newPage();
  await guest.goto(`/emergency?track=${trackingCode}`);
  await expect(guest.getByRole('heading', { name: requests.status!.unconfirmed })).toBeVisible({
    timeout: 30_000,
  });
  await guest.getByLabel(requests.confirm!.code!).fill(confirmation.code);
  await guest.getByRole('button', { name: requests.confirm!.submit }).click();
  await expect(guest.getByRole('heading', { name: requests.status!.pending })).toBeVisible();
  // The family is told by SMS that the request is in review, with a link to follow it.
  const received = await waitForSms(
    request,
    e164(guestPhone),
    (sms) => sms.templateId === E2E_DLT.templates.request_received,
    { since: requestedAt },
  );
  expect(received.text).toContain(trackingCode);
  expect(received.text).toMatch(/\/r\/[A-Za-z0-9]+/);

  // Verification: the donor's alert goes out by SMS and WhatsApp.
  const pending = await apiGet<{ items: { id: string; trackingCode: string }[] }>(
    request,
    '/api/v1/blood-requests?status=pending&pageSize=100',
    admin,
  );
  const requestId = pending.items.find((item) => item.trackingCode === trackingCode)!.id;
  const verifiedAt = Date.now();
  await apiPut(
    request,
    `/api/v1/blood-requests/${requestId}/status`,
    { status: 'verified' },
    admin,
  );
  const alert = await waitForSms(
    request,
    donor.phone,
    (sms) => sms.templateId === E2E_DLT.templates.donor_alert,
    { since: verifiedAt },
  );
  const figure = `verification to the donor's SMS at the SMSC: ${alert.at - verifiedAt} ms`;
  test.info().annotations.push({ type: 'figure', description: figure });
  console.log(figure);
  expect(alert.entityId).toBe(E2E_DLT.entityId);
  expect(alert.text).toContain('AB-');
  expect(alert.text).toMatch(/\/r\/[A-Za-z0-9]+/);
  // Neither the family's phone nor the patient is in an alert.
  expect(alert.text).not.toContain(guestPhone.slice(-7));
  expect(alert.text).not.toContain('Sita');
  await expect
    .poll(async () => (await whatsappTo(request, donor.phone)).length, { timeout: 30_000 })
    .toBe(1);
  const [template] = await whatsappTo(request, donor.phone);
  expect(template!.body.type).toBe('template');
  const buttons = template!.body.template!.components.filter((c) => c.type === 'button');
  expect(buttons.map((b) => b.parameters[0]!.payload!.split(':')[0])).toEqual([
    'accept',
    'decline',
  ]);

  // The donor answers YES by SMS: accepted as by the in-app button, the contact released.
  const repliedAt = Date.now();
  expect(
    (await peer(request, '/sms/inbound', { from: donor.phone, text: 'YES' })).commandStatus,
  ).toBe(0);
  const answer = await waitForSms(
    request,
    donor.phone,
    (sms) => sms.templateId === E2E_DLT.templates.reply,
    { since: repliedAt },
  );
  expect(answer.text).toContain(guestPhone);
  expect(answer.text).toContain('Ravi Kumar');
  // And the family hears a donor is coming, without the donor's name or number.
  const coming = await waitForSms(
    request,
    e164(guestPhone),
    (sms) => sms.templateId === E2E_DLT.templates.donor_coming,
    { since: repliedAt },
  );
  expect(coming.text).toContain(trackingCode);
  expect(coming.text).not.toContain('Meera');
  expect(coming.text).not.toContain(donor.phone.slice(-7));

  // The family's tracking page shows the donor on the way (first name only).
  await guest.reload();
  await expect(guest.getByRole('heading', { name: requests.status!.in_progress })).toBeVisible();
  await expect(guest.getByText('1 donor on their way: Meera')).toBeVisible();
  await expect(guest.getByText('Iyer')).toHaveCount(0);
  await noSeriousAxeViolations(guest);
  await guest.screenshot({
    path: test.info().outputPath('phone-channels-tracking-en-390.png'),
    fullPage: true,
  });
  await guest.setViewportSize({ width: 1280, height: 900 });
  await guest.screenshot({
    path: test.info().outputPath('phone-channels-tracking-en-1280.png'),
    fullPage: true,
  });
  await guest.evaluate(() => localStorage.setItem('preferred-language', 'hi'));
  await guest.setViewportSize({ width: 390, height: 844 });
  await guest.reload();
  const hindi = texts('hi', 'requests');
  await expect(guest.getByRole('heading', { name: hindi.status!.in_progress })).toBeVisible({
    timeout: 30_000,
  });
  // The Devanagari font is fetched when Hindi is chosen: the screenshot waits for it.
  await guest.evaluate(async () => {
    await document.fonts.ready;
  });
  await guest.screenshot({
    path: test.info().outputPath('phone-channels-tracking-hi-390.png'),
    fullPage: true,
  });
  await family.close();
});

test('with the SMSC and the Cloud API stopped, an alert waits and arrives once when they return', async ({
  page,
  request,
}) => {
  const admin = await adminToken(request);
  const donor = await verifiedDonor(request, 'Farhan Qureshi');
  for (const channel of ['sms', 'whatsapp']) {
    await apiPut(
      request,
      `/api/v1/notifications/channels/${channel}`,
      { consent: true, language: 'en' },
      donor.token,
    );
  }
  await peer(request, '/smpp/stop');
  await peer(request, '/whatsapp/stop');
  const stoppedAt = Date.now();
  // A hospital's own request (by the administrator here) is verified at once and matched.
  await apiPost(
    request,
    '/api/v1/blood-requests',
    {
      bloodType: 'AB-',
      unitsNeeded: 2,
      urgency: 'critical',
      patientName: 'Imran Khan',
      hospitalName: 'Gandhi Hospital',
      city: 'Secunderabad',
      state: 'Telangana',
      ...PLACE,
      contactName: 'Blood bank desk',
      contactPhone: uniquePhone('8'),
      language: 'en',
    },
    admin,
  );
  // The providers are down for a while: nothing reaches them, nothing is lost.
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  expect((await smsTo(request, donor.phone)).filter((sms) => sms.at >= stoppedAt)).toHaveLength(0);
  await peer(request, '/smpp/start');
  await peer(request, '/whatsapp/start');
  const alert = await waitForSms(
    request,
    donor.phone,
    (sms) => sms.templateId === E2E_DLT.templates.donor_alert,
    { since: stoppedAt, timeout: 150_000 },
  );
  expect(alert.text).toContain('AB-');
  await expect
    .poll(async () => (await whatsappTo(request, donor.phone)).length, { timeout: 150_000 })
    .toBe(1);
  // Exactly once, even after more polls of the outbox.
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  const alerts = (await smsTo(request, donor.phone)).filter(
    (sms) => sms.templateId === E2E_DLT.templates.donor_alert,
  );
  expect(alerts).toHaveLength(1);
  expect(await whatsappTo(request, donor.phone)).toHaveLength(1);

  // The administrators' console: each channel working again, with today's figures.
  const statuses = await apiGet<{
    channels: {
      channel: string;
      configured: boolean;
      failingSince: string | null;
      sentToday: number;
    }[];
  }>(request, '/api/v1/admin/notifications/channels', admin);
  for (const name of ['sms', 'whatsapp']) {
    const status = statuses.channels.find((c) => c.channel === name)!;
    expect(status).toMatchObject({ configured: true, failingSince: null });
    expect(status.sentToday).toBeGreaterThanOrEqual(2);
  }
  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(E2E_ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  for (const lang of ['en', 'hi']) {
    const admin = texts(lang, 'admin') as unknown as {
      dashboard: { channels: { title: string; working: string } };
    };
    await page.evaluate((value) => localStorage.setItem('preferred-language', value), lang);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      const heading = page.getByRole('heading', { name: admin.dashboard.channels.title });
      await expect(heading).toBeVisible({ timeout: 30_000 });
      const panel = page.locator('section', { has: heading }).last();
      // Each working channel says so (the figures were checked through the API above).
      await expect(panel.getByText(admin.dashboard.channels.working).first()).toBeVisible();
      await page.evaluate(async () => {
        await document.fonts.ready;
      });
      await panel.screenshot({
        path: test.info().outputPath(`phone-channels-admin-${lang}-${width}.png`),
      });
    }
  }
  await noSeriousAxeViolations(page);
});
