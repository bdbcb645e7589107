import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import type { User } from '../../features/auth';
import { deobfuscate } from '../../features/auth/session/obfuscation';
import { routes } from '../router';

async function renderProfile(
  user: User,
  server: Record<string, MockRoute> = {},
  path = '/profile',
) {
  await seedSession(user);
  const api = mockApi({ 'GET /auth/me': ok({ user }), ...server });
  const rendered = renderRoutes(routes, { path });
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
  return { ...rendered, api, user: userEvent.setup() };
}

describe('/profile', () => {
  it('greets a donor with the donor-facing name, while the header uses its own rule', async () => {
    // The name is only the e-mail's local part: the donor-facing rule skips it.
    await renderProfile(
      makeUser({ name: 'asha.rao', fullName: 'asha.rao', email: 'asha.rao@example.in' }),
    );
    expect(screen.getByText('Hello, Donor • 3210')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Account menu:/ })).toHaveAccessibleName(
      'Account menu: asha.rao',
    );
  });

  it('shows the status, the e-mail read-only and an approved donor’s blood type locked', async () => {
    await renderProfile(makeUser({ status: 'approved', bloodType: 'B-' }));
    expect(screen.getByText('Hello, Asha Rao')).toBeInTheDocument();
    expect(screen.getByText('Approved')).toBeInTheDocument();
    const email = screen.getByLabelText(/^E-mail address/);
    expect(email).toHaveValue('asha.rao@example.in');
    expect(email).toHaveAttribute('readonly');
    expect(screen.queryByRole('radiogroup', { name: /Blood type/ })).not.toBeInTheDocument();
    expect(screen.getByText('B-')).toBeInTheDocument();
    expect(screen.getByText(/^Your blood type was confirmed/)).toBeInTheDocument();
  });

  it('lets a pending donor change the blood type', async () => {
    const pending = makeUser({ status: 'pending', isApproved: false, onboardingCompleted: true });
    pending.verification = { isVerified: false };
    const { user, api } = await renderProfile(pending, {
      'PATCH /users/u-1': (request) => ok({ user: { ...pending, ...(request.body as object) } }),
    });
    expect(screen.getByText('Pending review')).toBeInTheDocument();
    const bloodTypes = screen.getByRole('radiogroup', { name: /Blood type/ });
    expect(within(bloodTypes).getByRole('radio', { name: 'O+' })).toBeChecked();
    await user.click(within(bloodTypes).getByRole('radio', { name: 'A-' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your profile has been updated.')).toBeInTheDocument();
    expect(api.callsTo('PATCH /users/u-1')[0]!.body).toEqual({ bloodType: 'A-' });
  });

  it('saves only the changed fields and shows the new name in the header', async () => {
    const donor = makeUser();
    const { user, api } = await renderProfile(donor, {
      'PATCH /users/u-1': (request) =>
        ok({
          user: {
            ...donor,
            ...(request.body as object),
            name: (request.body as { fullName?: string }).fullName ?? donor.name,
          },
        }),
    });
    const name = screen.getByLabelText(/^Full name/);
    await user.clear(name);
    await user.type(name, 'Asha R. Kulkarni');
    expect(screen.getByLabelText(/^Mobile number/)).toHaveValue('9876543210');
    await user.clear(screen.getByLabelText(/^PIN code/));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Your profile has been updated.')).toBeInTheDocument();
    expect(api.callsTo('PATCH /users/u-1')[0]!.body).toEqual({
      fullName: 'Asha R. Kulkarni',
      pincode: null,
    });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Account menu:/ })).toHaveAccessibleName(
        'Account menu: Asha R. Kulkarni',
      ),
    );
    expect(JSON.parse(window.localStorage.getItem('user')!)).toMatchObject({
      name: 'Asha R. Kulkarni',
    });
  });

  it('says so when nothing changed, and sends nothing', async () => {
    const { user, api } = await renderProfile(makeUser());
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('There are no changes to save.')).toBeInTheDocument();
    expect(api.callsTo('PATCH /users/u-1')).toHaveLength(0);
  });

  it('asks for the code sent by SMS before the new phone replaces the old one', async () => {
    const donor = makeUser();
    const { user, api } = await renderProfile(donor, {
      'PATCH /users/u-1': ok({
        user: donor,
        phoneChange: { phone: '+919123456789', expiresAt: '2026-11-20T10:10:00.000Z' },
      }),
      'POST /users/u-1/phone/confirm': (request) =>
        (request.body as { code: string }).code === '246810'
          ? ok({ user: { ...donor, phone: '+919123456789', phoneNumber: '+919123456789' } })
          : fail(400, 'INVALID_PHONE_CODE', {
              details: [{ path: 'body.code', message: 'wrong' }],
            }),
    });
    const phone = screen.getByLabelText(/^Mobile number/);
    await user.clear(phone);
    await user.type(phone, '91234 56789');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(
      await screen.findByText(
        'We sent a code by SMS to +91 91234 56789. Enter it to confirm your new number. Until then, your current number stays on your account.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('PATCH /users/u-1')[0]!.body).toEqual({ phone: '+919123456789' });
    // Nothing is saved yet: the account keeps its number.
    expect(screen.queryByText('Your profile has been updated.')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Mobile number/)).toHaveValue('9876543210');

    const code = screen.getByLabelText(/^Code from the SMS/);
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm new number' }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription(
        expect.stringContaining('The code is wrong or has expired.'),
      ),
    );
    await user.clear(code);
    await user.type(code, '246810');
    await user.click(screen.getByRole('button', { name: 'Confirm new number' }));
    expect(await screen.findByText('Your phone number has been changed.')).toBeInTheDocument();
    expect(api.callsTo('POST /users/u-1/phone/confirm').map((call) => call.body)).toEqual([
      { code: '111111' },
      { code: '246810' },
    ]);
    await waitFor(() => expect(screen.getByLabelText(/^Mobile number/)).toHaveValue('9123456789'));
    expect(screen.queryByLabelText(/^Code from the SMS/)).not.toBeInTheDocument();
  });

  it('says on the phone field that SMS is not available (409 SMS_UNAVAILABLE)', async () => {
    const { user } = await renderProfile(makeUser(), {
      'PATCH /users/u-1': fail(409, 'SMS_UNAVAILABLE', {
        details: [{ path: 'body.phone', message: 'x' }],
      }),
    });
    const phone = screen.getByLabelText(/^Mobile number/);
    await user.clear(phone);
    await user.type(phone, '9000000001');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription(
        expect.stringContaining("Your phone number can't be changed here yet"),
      ),
    );
    expect(screen.queryByLabelText(/^Code from the SMS/)).not.toBeInTheDocument();
  });

  it('is also at /donor/profile, titled for donors', async () => {
    await renderProfile(makeUser(), {}, '/donor/profile');
    expect(screen.getByRole('heading', { level: 1, name: 'Donor Profile' })).toBeInTheDocument();
  });
});

describe('change password', () => {
  it('says when the current password is wrong', async () => {
    const { user } = await renderProfile(makeUser(), {
      'POST /users/u-1/password': fail(400, 'VALIDATION_ERROR', {
        details: [{ path: 'body.currentPassword', message: 'Wrong password' }],
      }),
    });
    await user.type(screen.getByLabelText(/^Current password/), 'not-my-password');
    await user.type(screen.getByLabelText(/^New password/), 'Another-Pass-2026');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Another-Pass-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() =>
      expect(current).toHaveAccessibleDescription('The current password is not correct.'),
    );
    expect(current).toHaveFocus();
  });

  it('shows the server’s refusal of a common password on the new password field', async () => {
    const { user } = await renderProfile(makeUser(), {
      'POST /users/u-1/password': fail(400, 'WEAK_PASSWORD', {
        details: [{ path: 'body.newPassword', message: 'too common' }],
      }),
    });
    await user.type(screen.getByLabelText(/^Current password/), 'old-password-1');
    await user.type(screen.getByLabelText(/^New password/), 'Password@123');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Password@123');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const next = screen.getByLabelText(/^New password/);
    await waitFor(() =>
      expect(next).toHaveAccessibleDescription(
        expect.stringContaining('This password is too common or too easy to guess.'),
      ),
    );
  });

  it('keeps the user signed in with the tokens the server returns', async () => {
    const { user, api } = await renderProfile(makeUser(), {
      'POST /users/u-1/password': ok({
        changed: true,
        tokens: { accessToken: 'access-new', refreshToken: 'refresh-new', expiresIn: 3600 },
      }),
      'PATCH /users/u-1': (request) =>
        request.headers.get('Authorization') === 'Bearer access-new'
          ? ok({ user: makeUser({ city: 'Nashik' }) })
          : fail(401, 'UNAUTHENTICATED'),
    });
    await user.type(screen.getByLabelText(/^Current password/), 'old-password-1');
    await user.type(screen.getByLabelText(/^New password/), 'Another-Pass-2026');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Another-Pass-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText(/Your password has been changed\./)).toBeInTheDocument();
    expect(api.callsTo('POST /users/u-1/password')[0]!.body).toEqual({
      currentPassword: 'old-password-1',
      newPassword: 'Another-Pass-2026',
    });
    expect(deobfuscate(window.localStorage.getItem('token'))).toBe('access-new');
    expect(deobfuscate(window.localStorage.getItem('refreshToken'))).toBe('refresh-new');
    expect(screen.getByLabelText(/^Current password/)).toHaveValue('');

    // Later calls use the new access token.
    const city = screen.getByLabelText(/^City or town/);
    await user.clear(city);
    await user.type(city, 'Nashik');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your profile has been updated.')).toBeInTheDocument();
  });
});

describe('your data', () => {
  it('downloads a copy of all the data as a JSON file', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:data'), revokeObjectURL: vi.fn() }),
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    const { user, api } = await renderProfile(makeUser(), {
      'GET /users/u-1/export': ok({ exportedAt: '2026-11-21T10:00:00.000Z', profile: {} }),
    });
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your data has been downloaded.')).toBeInTheDocument();
    expect(api.callsTo('GET /users/u-1/export')).toHaveLength(1);
    expect(clicked[0]!.download).toBe('my-data-2026-11-21.json');
  });

  it('deletes the account only with the password, then signs out and goes home', async () => {
    const { user, api, router } = await renderProfile(makeUser(), {
      'DELETE /users/u-1': (request) =>
        (request.body as { password?: string }).password === 'my-password-1'
          ? ok({ deleted: true })
          : fail(400, 'VALIDATION_ERROR', {
              details: [{ path: 'body.password', message: 'Wrong password' }],
            }),
      'POST /auth/logout': ok({ loggedOut: true }),
    });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete your account?' });
    expect(dialog).toHaveTextContent('It cannot be undone.');
    expect(dialog).toHaveTextContent('anonymous count of your donations');
    const password = within(dialog).getByLabelText(/^Your password/);
    expect(password).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Delete my account permanently' }));
    expect(password).toHaveAccessibleDescription(
      'Type your password to confirm. Enter your password to confirm.',
    );
    expect(api.callsTo('DELETE /users/u-1')).toHaveLength(0);

    await user.type(password, 'not-it');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account permanently' }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        'Type your password to confirm. The password is not correct.',
      ),
    );

    await user.clear(password);
    await user.type(password, 'my-password-1');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account permanently' }));
    expect(
      await screen.findByText(
        'Your account has been deleted. Thank you for having been part of this.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('DELETE /users/u-1').at(-1)!.body).toEqual({ password: 'my-password-1' });
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(await screen.findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('closes the confirmation with Cancel and deletes nothing', async () => {
    const { user, api } = await renderProfile(makeUser());
    const open = screen.getByRole('button', { name: 'Delete my account' });
    await user.click(open);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();
    expect(api.callsTo('DELETE /users/u-1')).toHaveLength(0);
  });
});
