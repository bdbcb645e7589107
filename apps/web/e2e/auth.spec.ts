import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from './support/constants';
import { newDonor, readMail, registerDonor } from './support/api';

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
}

test.describe('Accounts and sessions', () => {
  test('a new donor registers and lands on onboarding', async ({ page }) => {
    const donor = newDonor();
    await page.goto('/register');
    await page.getByLabel('Full name').fill(donor.fullName);
    await page.getByLabel('E-mail address').fill(donor.email);
    await page.getByLabel('Mobile number').fill(donor.phone);
    await page.getByLabel('Password', { exact: true }).fill(donor.password);
    await page.getByRole('radio', { name: 'O-' }).check();
    await page.getByLabel('Date of birth').fill(donor.dateOfBirth);
    await page.getByRole('radio', { name: 'Female' }).check();
    await page.getByLabel('City or town').fill(donor.city);
    await page.getByLabel('State or union territory').selectOption({ label: 'Telangana' });
    await page.getByRole('checkbox', { name: /Privacy Policy/ }).check();
    await expect(page.getByText('This e-mail address is available.')).toBeVisible();
    await page.getByRole('button', { name: 'Create my donor account' }).click();
    await expect(page).toHaveURL(/\/donor\/onboarding$/);
    // The signed-in menu offers to complete the registration.
    await page
      .getByRole('banner')
      .getByRole('button', { name: new RegExp(donor.fullName) })
      .click();
    await expect(page.getByRole('menuitem', { name: 'Complete Registration' })).toBeVisible();
  });

  test('an e-mail that is already registered is flagged while typing', async ({
    page,
    request,
  }) => {
    const donor = await registerDonor(request);
    await page.goto('/register');
    await page.getByLabel('E-mail address').fill(donor.email);
    await page.getByLabel('Mobile number').click();
    await expect(page.getByText('This e-mail address is already registered.')).toBeVisible();
  });

  test('an anonymous visit to /admin goes to /admin/login and returns there after sign-in', async ({
    page,
  }) => {
    await page.goto('/admin/verification');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(/\/admin\/verification$/);
  });

  test('an administrator signing in at /admin/login lands on /admin', async ({ page }) => {
    await page.goto('/admin/login');
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await expect(page).toHaveURL(/\/admin$/);
    await page
      .getByRole('banner')
      .getByRole('button', { name: /Administrator/ })
      .click();
    await expect(page.getByRole('menuitem', { name: 'Admin Dashboard' })).toBeVisible();
  });

  test("a donor cannot sign in on the administrators' screen", async ({ page, request }) => {
    const donor = await registerDonor(request);
    await page.goto('/admin/login');
    await signIn(page, donor.email, donor.password);
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('a pending donor who signs in is sent to finish onboarding, and /admin sends them home', async ({
    page,
    request,
  }) => {
    const donor = await registerDonor(request);
    await page.goto('/login');
    await signIn(page, donor.email, donor.password);
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.goto('/admin');
    await expect(page).not.toHaveURL(/\/admin/);
    await expect(page).toHaveURL(/\/(dashboard|onboarding)$/);
  });

  test('forgot password → e-mail → reset → signed in with the new password', async ({
    page,
    request,
  }) => {
    const donor = await registerDonor(request);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('E-mail address').fill(donor.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByText(/we have sent a link/)).toBeVisible();

    const link = await readMail(
      request,
      donor.email,
      /(https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+)/,
    );
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-password');
    await page.getByLabel('Confirm new password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    // Issue #32 item 13: the reset ends signed in, on the donor's next step.
    await expect(page).toHaveURL(/\/onboarding$/);

    // The link works once.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-new-password');
    await page.getByLabel('Confirm new password').fill('another-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('This link cannot be used')).toBeVisible();
  });

  test('a stored session survives a reload; an expired one does not', async ({ page, request }) => {
    const donor = await registerDonor(request);
    await page.goto('/login');
    await signIn(page, donor.email, donor.password);
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.reload();
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(
      page.getByRole('banner').getByRole('button', { name: new RegExp(donor.fullName) }),
    ).toBeVisible();

    // 31 days later the stored session has expired and is cleared on read.
    await page.clock.install({ time: new Date(Date.now() + 31 * 24 * 60 * 60 * 1000) });
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  });
});
