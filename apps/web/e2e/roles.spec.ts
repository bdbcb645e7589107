import { expect, test, type Page } from '@playwright/test';
import { createHospital, registerApprovedDonor } from './support/api';

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
}

test.describe('Each role lands on its home', () => {
  test('an approved donor signs in to /dashboard, and /admin sends them back there', async ({
    page,
    request,
  }) => {
    const donor = await registerApprovedDonor(request);
    await page.goto('/login');
    await signIn(page, donor.email, donor.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page
      .getByRole('banner')
      .getByRole('button', { name: new RegExp(donor.fullName) })
      .click();
    await expect(page.getByRole('menuitem', { name: 'Dashboard', exact: true })).toBeVisible();
  });

  test('a hospital signs in at /hospital/login and lands on /hospital/dashboard', async ({
    page,
    request,
  }) => {
    const hospital = await createHospital(request);
    await page.goto('/hospital/login');
    await signIn(page, hospital.email, hospital.password);
    await expect(page).toHaveURL(/\/hospital\/dashboard$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/hospital\/dashboard$/);
  });
});
