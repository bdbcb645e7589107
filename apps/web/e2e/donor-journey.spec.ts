import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { adminToken, apiPost, newDonor } from './support/api';
import { pdfText } from './support/pdf';

// A real 8 × 8 PNG: the server decodes every upload and stores it drawn again (decision 012).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQI12M4IaeBFTEMLQkAiE5DgdTZD4AAAAAASUVORK5CYII=',
  'base64',
);

test('a donor registers, uploads an ID, answers the questions, is approved and uses the dashboard', async ({
  page,
  request,
}) => {
  const donor = newDonor({ fullName: 'Kavya Menon', gender: 'female' });
  const registered = await apiPost<{ user: { id: string }; tokens: { accessToken: string } }>(
    request,
    '/api/v1/auth/register',
    donor,
  );

  await page.goto('/login');
  await page.getByLabel('E-mail address').fill(donor.email);
  await page.getByLabel('Password', { exact: true }).fill(donor.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/onboarding$/);

  // Step 1: documents (optional while the documentUpload flag is off, so the stepper opens on
  // the health questions; the donor goes back to add an ID proof anyway).
  await page
    .getByRole('navigation', { name: 'Registration steps' })
    .getByRole('button', { name: /^Documents/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Your documents' })).toBeVisible();
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles({ name: 'voter-id.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('ID proof uploaded. Our team will check it.')).toBeVisible();
  await page.getByRole('button', { name: /^(Continue|Save and continue)$/ }).click();

  // Step 2: health questions.
  await expect(page.getByRole('heading', { name: 'Health questions' }).first()).toBeVisible();
  await page.getByLabel('Weight (kg)').fill('58');
  await page
    .getByRole('radiogroup', { name: 'Is this your first time giving blood?' })
    .getByRole('radio', { name: 'Yes' })
    .check();
  await page
    .getByRole('radiogroup', { name: 'Are you feeling well today?' })
    .getByRole('radio', { name: 'Yes' })
    .check();
  await expect(page.getByText('You can give blood', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Save and continue' }).click();

  // Step 3: review and submit.
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(
    page.getByText('Thank you! Your registration has been sent for review.'),
  ).toBeVisible();

  // An administrator approves the donor, and a hospital-verified donation is recorded.
  const admin = await adminToken(request);
  await apiPost(request, `/api/v1/admin/donors/${registered.user.id}/approve`, {}, admin);
  // Ten Indian days ago (the app counts days in India: between 00:00 and 05:30 IST the UTC date
  // is still yesterday's).
  const donatedAt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(
    new Date(Date.now() - 10 * 24 * 3600 * 1000),
  );
  await apiPost(
    request,
    '/api/v1/donations',
    {
      donorId: registered.user.id,
      donatedAt,
      units: 1,
      place: 'Gandhi Hospital Blood Centre, Hyderabad',
    },
    admin,
  );

  // The signed-in user was cached before the approval: the registration screen notices the new
  // status, says so, and lets the donor through to the dashboard.
  await page.goto('/dashboard');
  await expect(page.getByText("You're a verified donor")).toBeVisible();
  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // A woman waits 120 days: 10 days have passed, so 110 remain.
  await expect(page.getByText('110 days to go')).toBeVisible();

  const availability = page.getByRole('switch', { name: /Available to donate/ });
  const wasOn = (await availability.getAttribute('aria-checked')) === 'true';
  await availability.click();
  await expect(availability).toHaveAttribute('aria-checked', wasOn ? 'false' : 'true');
  await page.reload();
  await expect(page.getByRole('switch', { name: /Available to donate/ })).toHaveAttribute(
    'aria-checked',
    wasOn ? 'false' : 'true',
  );

  // The certificate of the verified donation downloads as a PDF with the donor's name.
  await page.goto('/donor/certificates');
  const download = page.waitForEvent('download');
  await page
    .getByRole('button', { name: /Download certificate/ })
    .first()
    .click();
  const file = await (await download).path();
  const pdf = readFileSync(file);
  expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
  expect(pdfText(pdf)).toContain('Kavya Menon');
});
