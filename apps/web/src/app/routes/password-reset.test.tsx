import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser } from '../../test/session';
import { routes } from '../router';

const TOKEN = 'reset-token-0123456789abcdef';

describe('/forgot-password', () => {
  it('answers with a neutral confirmation that never says whether the account exists', async () => {
    const server = mockApi({ 'POST /auth/reset-password': ok({ sent: true }) });
    renderRoutes(routes, { path: '/forgot-password' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^E-mail address/), 'Someone@Example.in');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));

    const heading = await screen.findByRole('heading', { name: 'Check your e-mail' });
    expect(heading).toHaveFocus();
    expect(
      screen.getByText(/^If an account exists for that address, we have sent a link/),
    ).toBeInTheDocument();
    expect(server.callsTo('POST /auth/reset-password')[0]!.body).toEqual({
      email: 'someone@example.in',
    });
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  it('explains a rate limit instead of confirming', async () => {
    mockApi({ 'POST /auth/reset-password': fail(429, 'RATE_LIMITED') });
    renderRoutes(routes, { path: '/forgot-password' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^E-mail address/), 'a@example.in');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please wait a moment and try again.',
    );
  });
});

describe('/reset-password', () => {
  async function submitNewPassword(password = 'New-Password-2026', confirm = password) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/), password);
    await user.type(screen.getByLabelText(/^Confirm new password/), confirm);
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    return user;
  }

  it('explains an invalid or used link and offers a new one', async () => {
    const server = mockApi({ 'POST /auth/reset-password': fail(400, 'INVALID_RESET_TOKEN') });
    renderRoutes(routes, { path: `/reset-password?token=${TOKEN}` });
    await submitNewPassword();

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link cannot be used' +
        'The link to set a new password is invalid, has expired or has already been used.',
    );
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(server.callsTo('POST /auth/reset-password')[0]!.body).toEqual({
      token: TOKEN,
      password: 'New-Password-2026',
    });
  });

  it('explains a link without a token at once', async () => {
    renderRoutes(routes, { path: '/reset-password' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This link cannot be used');
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
  });

  it('asks for the same password twice', async () => {
    const server = mockApi({});
    renderRoutes(routes, { path: `/reset-password?token=${TOKEN}` });
    await submitNewPassword('New-Password-2026', 'New-Password-2025');
    await waitFor(() =>
      expect(screen.getByLabelText(/^Confirm new password/)).toHaveAccessibleDescription(
        'The two passwords are not the same.',
      ),
    );
    expect(server.calls).toHaveLength(0);
  });

  // Issue #32 item 13: a reset ends signed in, so an owner a stranger locked out is let in.
  it('sets the password, keeps the session the reply carries and goes to the dashboard', async () => {
    const user = makeUser();
    const server = mockApi({
      'POST /auth/reset-password': ok({
        reset: true,
        role: 'donor',
        user,
        tokens: { accessToken: 'a.b.c', refreshToken: 'refresh-after-reset', expiresIn: 3600 },
      }),
      'GET /auth/me': ok({ user }),
    });
    const { router } = renderRoutes(routes, { path: `/reset-password?token=${TOKEN}` });
    await submitNewPassword();

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), {
      timeout: 10_000,
    });
    expect(screen.queryByRole('heading', { level: 1, name: 'Sign In' })).not.toBeInTheDocument();
    expect(server.callsTo('POST /auth/reset-password')).toHaveLength(1);
  });

  it('sets the password of an account without a session and goes to sign-in with a success notice', async () => {
    mockApi({ 'POST /auth/reset-password': ok({ reset: true, role: 'donor' }) });
    const { router } = renderRoutes(routes, { path: `/reset-password?token=${TOKEN}` });
    await submitNewPassword();

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByText('Your new password is set. Sign in with it now.')).toBeInTheDocument();
  });

  it('sets the first password and lands on the hospital sign-in', async () => {
    mockApi({ 'POST /auth/reset-password': ok({ reset: true, role: 'hospital' }) });
    const { router } = renderRoutes(routes, { path: `/reset-password?token=${TOKEN}` });
    await submitNewPassword();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Hospital Sign In' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/hospital/login');
    expect(screen.getByText('Your new password is set. Sign in with it now.')).toBeInTheDocument();
  });
});
