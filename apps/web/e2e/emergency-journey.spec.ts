import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminToken, apiPost, apiPut, registerApprovedDonor } from './support/api';

type Notification = { type: string; title: string; message: string };
type Facility = { id: string; name: string; latitude: number | null; longitude: number | null };

async function apiGet<T>(request: APIRequestContext, path: string, token?: string): Promise<T> {
  const res = await request.get(path, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.ok(), path).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

async function requestAlerts(request: APIRequestContext, token: string) {
  const page = await apiGet<{ items: Notification[] }>(request, '/api/v1/notifications', token);
  return page.items.filter((n) => /request/i.test(n.type));
}

test('a guest posts a Critical O− request, an admin verifies it, the right donor accepts, the hospital records the donation', async ({
  page,
  browser,
  request,
}) => {
  const admin = await adminToken(request);
  // A new number each run: the duplicate guard would return an earlier run's request.
  const guestPhone = `9${String(Date.now()).slice(-9)}`;
  await apiPut(request, '/api/v1/admin/flags', { bloodRequests: true }, admin);

  // The hospital the guest will pick, and donors placed around it.
  const search = await apiGet<{ items: Facility[] }>(
    request,
    '/api/v1/public/facilities/search?q=Gandhi%20hospital%20hyderbad&limit=5',
  );
  const hospital = search.items.find((f) => f.latitude !== null && f.longitude !== null);
  expect(hospital, 'Gandhi Hospital is in the directory with coordinates').toBeTruthy();
  const { latitude: lat, longitude: lng } = hospital as { latitude: number; longitude: number };
  const near = { latitude: lat + 0.045, longitude: lng, gender: 'male' }; // about 5 km north
  const matchable = await registerApprovedDonor(request, {
    ...near,
    bloodType: 'O-',
    fullName: 'Arjun Rao',
  });
  const incompatible = await registerApprovedDonor(request, { ...near, bloodType: 'A+' });
  const recent = await registerApprovedDonor(request, { ...near, bloodType: 'O-' });
  const sixtyDaysAgo = new Date(Date.now() - 60 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  await apiPost(
    request,
    `/api/v1/users/${recent.id}/donations`,
    { donatedAt: sixtyDaysAgo, place: 'Camp' },
    recent.token,
  );
  const far = await registerApprovedDonor(request, {
    latitude: lat + 0.9,
    longitude: lng,
    bloodType: 'O-',
    gender: 'male',
  });

  // The guest's request, on the emergency page.
  await page.goto('/emergency');
  await page.getByRole('radio', { name: 'O-' }).check();
  await page.getByRole('radio', { name: /Critical/ }).check();
  await page.getByLabel('Hospital').fill('Gandhi');
  await page
    .getByRole('button', { name: new RegExp(hospital!.name.slice(0, 12)) })
    .first()
    .click();
  await page.getByLabel('Your name').fill('Lakshmi');
  await page.getByLabel('Your phone number').fill(guestPhone);
  await page.getByRole('button', { name: 'Send the request' }).click();
  await expect(page).toHaveURL(/track=/);
  const code = new URL(page.url()).searchParams.get('track') as string;

  // Nobody hears of it before verification; the administrator verifies it.
  expect(await requestAlerts(request, matchable.token)).toHaveLength(0);
  const list = await apiGet<{ items: { id: string; trackingCode: string }[] }>(
    request,
    '/api/v1/blood-requests?status=pending&pageSize=100',
    admin,
  );
  const created = list.items.find((item) => item.trackingCode === code);
  expect(created).toBeTruthy();
  await apiPut(
    request,
    `/api/v1/blood-requests/${created!.id}/status`,
    { status: 'verified', notes: 'Called the ward' },
    admin,
  );

  // Only the compatible, eligible donor nearby is told.
  await expect.poll(async () => (await requestAlerts(request, matchable.token)).length).toBe(1);
  for (const other of [incompatible, recent, far]) {
    expect(await requestAlerts(request, other.token)).toHaveLength(0);
  }

  // The donor sees the request without the contact, accepts, and then sees the contact.
  const donorContext = await browser.newContext();
  const donorPage = await donorContext.newPage();
  await donorPage.goto('/login');
  await donorPage.getByLabel('E-mail address').fill(matchable.email);
  await donorPage.getByLabel('Password', { exact: true }).fill(matchable.password);
  await donorPage.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(donorPage).toHaveURL(/\/dashboard$/);
  const section = donorPage.getByRole('region', { name: 'Requests for you' });
  await expect(section.getByText(/O-, 1 unit/)).toBeVisible();
  await expect(section.getByText(guestPhone)).toHaveCount(0);
  await section.getByRole('button', { name: 'I can donate' }).click();
  await expect(section.getByText(/Call Lakshmi/)).toBeVisible();
  await expect(section.getByRole('link', { name: new RegExp(guestPhone.slice(-4)) })).toBeVisible();
  await donorContext.close();

  // The tracking page shows one donor on the way, by first name only.
  await page.reload();
  await expect(page.getByText('1 donor on their way: Arjun')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(guestPhone)).toHaveCount(0);

  // The donation is recorded; the donor gets a certificate and is hidden from the next request.
  const today = new Date().toISOString().slice(0, 10);
  await apiPost(
    request,
    '/api/v1/donations',
    {
      donorId: matchable.id,
      donatedAt: today,
      units: 1,
      requestId: created!.id,
      place: hospital!.name,
    },
    admin,
  );
  const donations = await apiGet<{ items: { certificateAvailable: boolean }[] }>(
    request,
    `/api/v1/users/${matchable.id}/donations`,
    matchable.token,
  );
  expect(donations.items.some((d) => d.certificateAvailable)).toBe(true);

  await apiPost(
    request,
    '/api/v1/blood-requests',
    {
      bloodType: 'O-',
      unitsNeeded: 1,
      urgency: 'critical',
      hospitalName: hospital!.name,
      facilityId: hospital!.id,
      city: 'Hyderabad',
      state: 'Telangana',
      contactName: 'Ward 4',
      contactPhone: '9000054321',
    },
    admin,
  );
  await page.waitForTimeout(1000);
  expect(await requestAlerts(request, matchable.token)).toHaveLength(1);
});
