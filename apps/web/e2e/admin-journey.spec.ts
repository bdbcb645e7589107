import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './support/constants';
import { apiPut, HEALTHY_ANSWERS, registerDonor } from './support/api';

// A real 8 × 8 PNG: the server decodes every upload and stores it drawn again (decision 012).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQI12M4IaeBFTEMLQkAiE5DgdTZD4AAAAAASUVORK5CYII=',
  'base64',
);

test('an administrator rejects a document with a reason, the donor sees it, then approves the donor', async ({
  page,
  browser,
  request,
}) => {
  const donor = await registerDonor(request, { fullName: 'Ravi Teja' });
  const upload = await request.post('/api/v1/documents', {
    headers: { authorization: `Bearer ${donor.token}` },
    multipart: { type: 'id_proof', file: { name: 'id.png', mimeType: 'image/png', buffer: PNG } },
  });
  expect(upload.status()).toBe(201);
  await apiPut(
    request,
    `/api/v1/users/${donor.id}/questionnaire`,
    { answers: HEALTHY_ANSWERS },
    donor.token,
  );

  // The administrator signs in and opens the donor from the review queue.
  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(E2E_ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/verification');
  await page.getByRole('main').getByText('Ravi Teja').first().click();

  // Reject the ID proof with a reason.
  const reason = 'The photo is blurred; please upload a clearer scan.';
  await page.getByRole('button', { name: /^Reject\s*:\s*ID proof$/ }).click();
  const documentDialog = page.getByRole('alertdialog');
  await documentDialog.getByLabel('What is wrong with it').fill(reason);
  await documentDialog.getByRole('button', { name: /Reject/ }).click();
  await expect(page.getByText('ID proof rejected.')).toBeVisible();

  // The donor sees the reason on their registration.
  const donorContext = await browser.newContext();
  const donorPage = await donorContext.newPage();
  await donorPage.goto('/login');
  await donorPage.getByLabel('E-mail address').fill(donor.email);
  await donorPage.getByLabel('Password', { exact: true }).fill(donor.password);
  await donorPage.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(donorPage).toHaveURL(/\/onboarding$/);
  // Onboarding is complete, so the screen shows the summary; the donor opens the documents.
  await donorPage.getByRole('button', { name: 'Change documents or answers' }).click();
  await expect(donorPage.getByText(reason)).toBeVisible();

  // The administrator approves the donor, and the donor's dashboard shows it.
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve donor' }).click();
  await expect(page.getByText('Ravi Teja was approved.')).toBeVisible();

  await donorContext.close();

  // Told by e-mail, the donor signs in again and lands on an approved dashboard.
  const laterContext = await browser.newContext();
  const laterPage = await laterContext.newPage();
  await laterPage.goto('/login');
  await laterPage.getByLabel('E-mail address').fill(donor.email);
  await laterPage.getByLabel('Password', { exact: true }).fill(donor.password);
  await laterPage.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(laterPage).toHaveURL(/\/dashboard$/);
  await expect(laterPage.getByText("You're a verified donor")).toBeVisible();
  await laterContext.close();
});
