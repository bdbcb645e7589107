import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN } from './support/constants';
import { adminToken, apiPost, apiPut } from './support/api';

// Issue #9: stored text shown in the web app is escaped. A guest posts markup in every free-text
// field of a blood request (and an administrator in a status note); the administrators' requests
// page must show it as literal text: no element made from it, no script run, no dialog.
const IMG_PAYLOAD = '<img src=x onerror=alert(1)>';
const SCRIPT_PAYLOAD = '<script>window.__xss = "script"</script>';
const SVG_PAYLOAD = '<svg onload="window.__xss = \'svg\'"></svg>';

type Flags = Record<string, boolean>;

async function currentFlags(request: APIRequestContext): Promise<Flags> {
  const res = await request.get('/api/v1/config');
  return ((await res.json()) as { data: { flags: Flags } }).data.flags;
}

test('markup posted in a blood request shows as text on the admin requests page', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  // The request surfaces stay on for this test; the flags are put back afterwards.
  const before = await currentFlags(request);
  await apiPut(
    request,
    '/api/v1/admin/flags',
    { bloodRequests: true, emergencyServices: true },
    token,
  );

  try {
    const created = await apiPost<{ request: { id: string; trackingCode: string } }>(
      request,
      '/api/v1/blood-requests',
      {
        bloodType: 'B+',
        unitsNeeded: 2,
        urgency: 'urgent',
        patientName: `Meena ${SVG_PAYLOAD}`,
        hospitalName: `Osmania ${SCRIPT_PAYLOAD}`,
        city: 'Hyderabad',
        state: 'Telangana',
        contactName: `Kiran ${IMG_PAYLOAD}`,
        // A number no other test uses (the per-phone limit counts 24 hours).
        contactPhone: `7${String(Date.now()).slice(-9)}`,
        notes: IMG_PAYLOAD,
      },
    );
    const { id, trackingCode } = created.request;
    await apiPut(
      request,
      `/api/v1/blood-requests/${id}/status`,
      { status: 'verified', notes: `Checked ${IMG_PAYLOAD}` },
      token,
    );

    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });

    await page.goto('/admin/login');
    await page.getByLabel('E-mail address').fill(E2E_ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto('/admin/requests');

    const card = page.getByRole('article', { name: new RegExp(trackingCode) });
    await expect(card).toBeVisible();
    // Each payload is there as the characters that were typed.
    await expect(card.getByText(`Notes: ${IMG_PAYLOAD}`, { exact: true })).toBeVisible();
    await expect(card.getByText(`Osmania ${SCRIPT_PAYLOAD}`)).toBeVisible();
    await expect(card.getByText(`Meena ${SVG_PAYLOAD}`)).toBeVisible();
    await expect(card.getByText(`Kiran ${IMG_PAYLOAD}`)).toBeVisible();
    await card.locator('summary').click();
    await expect(card.getByText(`Checked ${IMG_PAYLOAD}`)).toBeVisible();

    // Nothing was turned into an element, and nothing ran.
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(card.locator('img, svg[onload], script')).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: string }).__xss),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
  } finally {
    const restore = Object.fromEntries(
      ['bloodRequests', 'emergencyServices'].map((flag) => [flag, before[flag] ?? false]),
    );
    await apiPut(request, '/api/v1/admin/flags', restore, token);
  }
});
