import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import type { User } from '../../features/auth';
import { routes } from '../router';

const TOKENS = { accessToken: 'access-9', refreshToken: 'refresh-token-9', expiresIn: 3600 };

function signInReply(user: User) {
  return ok({ user, tokens: TOKENS });
}

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^E-mail address/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

describe('sign-in screens', () => {
  it('/admin/login says which sign-in it is and sends role "admin"', async () => {
    const admin = makeUser({ role: 'admin', name: 'Admin One' });
    const server = mockApi({ 'POST /auth/login': signInReply(admin) });
    const { router } = renderRoutes(routes, { path: '/admin/login' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Administrator Sign In' }),
    ).toBeInTheDocument();
    await fillAndSubmit('Admin@Example.in ', 'correct horse');

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(server.callsTo('POST /auth/login')[0]!.body).toEqual({
      email: 'admin@example.in',
      password: 'correct horse',
      role: 'admin',
    });
  });

  it('/hospital/login sends role "hospital"; /login sends none', async () => {
    const server = mockApi({ 'POST /auth/login': fail(401, 'INVALID_CREDENTIALS') });
    renderRoutes(routes, { path: '/hospital/login' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Hospital Sign In' }),
    ).toBeInTheDocument();
    await fillAndSubmit('h@example.in', 'secret-pass');
    await screen.findByRole('alert');
    expect(server.callsTo('POST /auth/login')[0]!.body).toMatchObject({ role: 'hospital' });
  });

  it('shows the INVALID_CREDENTIALS message and stays signed out', async () => {
    const server = mockApi({ 'POST /auth/login': fail(401, 'INVALID_CREDENTIALS') });
    const { router } = renderRoutes(routes, { path: '/login' });
    await fillAndSubmit('asha@example.in', 'wrong password');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The e-mail address or password is incorrect.',
    );
    expect(router.state.location.pathname).toBe('/login');
    expect(server.callsTo('POST /auth/login')[0]!.body).not.toHaveProperty('role');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('shows ROLE_MISMATCH and the wait of a rate limit in the user’s words', async () => {
    let attempt = 0;
    mockApi({
      'POST /auth/login': () =>
        ++attempt === 1
          ? fail(403, 'ROLE_MISMATCH')
          : fail(429, 'RATE_LIMITED', { headers: { 'Retry-After': '45' } }),
    });
    renderRoutes(routes, { path: '/admin/login' });
    const user = await fillAndSubmit('asha@example.in', 'password1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This account cannot sign in here. Please use the sign-in page for your account type.',
    );
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Too many attempts. Please try again in 45 seconds.',
      ),
    );
  });

  it('explains a network failure', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    renderRoutes(routes, { path: '/login' });
    await fillAndSubmit('asha@example.in', 'password1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "We couldn't reach the server. Check your internet connection and try again.",
    );
  });

  it('validates before sending, with translated messages tied to the fields', async () => {
    const server = mockApi({});
    renderRoutes(routes, { path: '/login' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));

    const email = screen.getByLabelText(/^E-mail address/);
    expect(email).toHaveAccessibleDescription('Enter your e-mail address.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription('Enter your password.');

    await user.type(email, 'not-an-email');
    expect(email).toHaveAccessibleDescription(
      'Enter a valid e-mail address, like name@example.com.',
    );
    expect(server.calls).toHaveLength(0);
  });

  it('shows and hides the password', async () => {
    renderRoutes(routes, { path: '/login' });
    const user = userEvent.setup();
    const password = await screen.findByLabelText(/^Password/);
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(password).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('links to the password reset and to registration', async () => {
    renderRoutes(routes, { path: '/signin' });
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('link', { name: 'Register as Donor' })).toHaveAttribute(
      'href',
      '/register',
    );
  });

  it('returns to the remembered origin after sign-in', async () => {
    const donor = makeUser({ status: 'approved' });
    mockApi({ 'POST /auth/login': signInReply(donor) });
    const { router } = renderRoutes(routes, { path: '/notifications' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
    await fillAndSubmit('asha.rao@example.in', 'password1');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/notifications');
  });

  it("goes to the role's home without an origin; a pending donor then meets onboarding", async () => {
    const pending = makeUser({ status: 'pending', isApproved: false, onboardingCompleted: false });
    pending.verification = { isVerified: false };
    pending.questionnaireCompleted = false;
    mockApi({ 'POST /auth/login': signInReply(pending) });
    const { router } = renderRoutes(routes, { path: '/login' });
    await fillAndSubmit('asha.rao@example.in', 'password1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
  });

  it('sends a signed-in user who opens a sign-in page to their home', async () => {
    await seedSession(makeUser({ role: 'hospital' }));
    mockApi({ 'GET /auth/me': ok({ user: makeUser({ role: 'hospital' }) }) });
    const { router } = renderRoutes(routes, { path: '/login' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Hospital Dashboard' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/hospital/dashboard');
  });
});

describe('one-time code sign-in', () => {
  it('requests a code, then signs in with it', async () => {
    const donor = makeUser({ status: 'approved' });
    const server = mockApi({
      'POST /auth/login-otp': (request) =>
        (request.body as { code?: string }).code ? signInReply(donor) : ok({ sent: true }),
    });
    const { router } = renderRoutes(routes, { path: '/login' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Sign in with a one-time code' }));
    await user.type(screen.getByLabelText(/^E-mail address/), 'asha.rao@example.in');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    expect(
      await screen.findByText(/If an account exists for asha.rao@example.in/),
    ).toBeInTheDocument();
    const code = screen.getByLabelText(/^6-digit code/);
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByRole('button', { name: 'Send a new code' })).toBeDisabled();
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(server.callsTo('POST /auth/login-otp').map((call) => call.body)).toEqual([
      { email: 'asha.rao@example.in' },
      { email: 'asha.rao@example.in', code: '123456' },
    ]);
  });

  it('with phone verification on, sends the code by SMS to a mobile number and signs in with it', async () => {
    const donor = makeUser({ status: 'approved' });
    const server = mockApi({
      'POST /auth/login-otp': (request) =>
        (request.body as { code?: string }).code ? signInReply(donor) : ok({ sent: true }),
    });
    const { router } = renderRoutes(routes, {
      path: '/login?method=code',
      flags: { phoneVerification: true },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'SMS' }));
    const phone = screen.getByLabelText(/^Mobile number/);
    expect(phone).toHaveFocus();
    await user.type(phone, '12345');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(phone).toHaveAccessibleDescription(expect.stringContaining('10-digit Indian mobile'));
    await user.clear(phone);
    await user.type(phone, '098765 43210');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(
      await screen.findByText(/If an account has the verified number \+91 98765 43210/),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^6-digit code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(server.callsTo('POST /auth/login-otp').map((call) => call.body)).toEqual([
      { phone: '+919876543210' },
      { phone: '+919876543210', code: '654321' },
    ]);
  });

  it('offers no SMS choice while phone verification is off', async () => {
    mockApi({});
    renderRoutes(routes, { path: '/login?method=code' });
    expect(await screen.findByLabelText(/^E-mail address/)).toBeVisible();
    expect(screen.queryByRole('radio', { name: 'SMS' })).toBeNull();
  });

  it('keeps the method in the address and the remembered origin across the switch', async () => {
    const donor = makeUser({ status: 'approved' });
    mockApi({
      'POST /auth/login-otp': (request) =>
        (request.body as { code?: string }).code ? signInReply(donor) : ok({ sent: true }),
    });
    const { router } = renderRoutes(routes, { path: '/notifications' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Sign in with a one-time code' }));
    expect(router.state.location.search).toBe('?method=code');
    expect(screen.getByLabelText(/^E-mail address/)).toHaveFocus();

    await user.click(screen.getByRole('link', { name: 'Sign in with a password instead' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText(/^E-mail address/)).toHaveFocus();
    await user.click(screen.getByRole('link', { name: 'Sign in with a one-time code' }));

    await user.type(screen.getByLabelText(/^E-mail address/), 'asha.rao@example.in');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(await screen.findByLabelText(/^6-digit code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications'));
  });

  it('shows INVALID_OTP on the code, and allows a new code after 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const server = mockApi({
        'POST /auth/login-otp': (request) =>
          (request.body as { code?: string }).code ? fail(401, 'INVALID_OTP') : ok({ sent: true }),
      });
      renderRoutes(routes, { path: '/login' });
      const user = userEvent.setup();
      await user.click(await screen.findByRole('link', { name: 'Sign in with a one-time code' }));
      await user.type(screen.getByLabelText(/^E-mail address/), 'asha@example.in');
      await user.click(screen.getByRole('button', { name: 'Send code' }));
      const code = await screen.findByLabelText(/^6-digit code/);
      await user.type(code, '000000');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      await waitFor(() =>
        expect(code).toHaveAccessibleDescription(
          expect.stringContaining('The code is wrong or has expired.'),
        ),
      );

      const resend = screen.getByRole('button', { name: 'Send a new code' });
      expect(resend).toBeDisabled();
      expect(screen.getByText(/You can ask for a new code in \d+ s\./)).toBeInTheDocument();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(30_000);
      });
      expect(resend).toBeEnabled();
      await user.click(resend);
      expect(await screen.findByText('We have sent a new code.')).toBeInTheDocument();
      expect(server.callsTo('POST /auth/login-otp')).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
