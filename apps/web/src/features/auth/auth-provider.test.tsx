import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { routes } from '../../app/router';
import { api, ApiError } from '../../lib/api-client';
import { fail, mockApi, ok, type MockRequest } from '../../test/api';
import { renderRoutes, renderWithApp } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { deobfuscate } from './session/obfuscation';

const bearer = (request: MockRequest) => request.headers.get('Authorization');

describe('AuthProvider', () => {
  it('shows "Authenticating..." while a stored session loads, then the protected page', async () => {
    await seedSession(makeUser());
    mockApi({ 'GET /auth/me': ok({ user: makeUser() }) });
    const { router } = renderRoutes(routes, { path: '/notifications' });
    expect(screen.getByRole('status')).toHaveTextContent('Authenticating...');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/notifications');
  });

  it('never shows the loader to a visitor without a stored session', () => {
    renderRoutes(routes, { path: '/about' });
    expect(screen.queryByText('Authenticating...')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Sign In' }).length).toBeGreaterThan(0);
  });

  it("keeps the first page's queries while it finds no stored session to restore", async () => {
    let answer: (value: string) => void = () => {};
    function PublicFigures() {
      const figures = useQuery({
        queryKey: ['public-figures'],
        queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
      });
      return <p>{figures.data ?? 'Loading figures'}</p>;
    }
    renderWithApp(<PublicFigures />);
    // The query is under way before the session store has been read.
    expect(screen.getByText('Loading figures')).toBeInTheDocument();
    // Meanwhile the session layer has looked for a stored session and found none.
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer('1,204 donors registered');
    expect(await screen.findByText('1,204 donors registered')).toBeInTheDocument();
  });

  it('treats an expired stored session as signed out and clears it', async () => {
    await seedSession(makeUser(), { createdAt: 0, expiresAt: Date.now() - 1 });
    const { router } = renderRoutes(routes, { path: '/profile' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    await waitFor(() => expect(window.localStorage.getItem('authState')).toBeNull());
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('sends the stored access token, and on two concurrent 401s refreshes once and retries both', async () => {
    await seedSession(makeUser());
    let releaseRefresh: () => void = () => {};
    const server = mockApi({
      'GET /auth/me': ok({ user: makeUser() }),
      'GET /users/u-1/stats': (request) =>
        bearer(request) === 'Bearer access-2'
          ? ok({ totalDonations: 3 })
          : fail(401, 'UNAUTHENTICATED'),
      'POST /auth/refresh': async () => {
        await new Promise<void>((resolve) => (releaseRefresh = resolve));
        return ok({ accessToken: 'access-2', expiresIn: 3600 });
      },
    });
    renderRoutes(routes, { path: '/notifications' });
    await screen.findByRole('heading', { level: 1, name: 'Notifications' });

    const first = api.get<{ totalDonations: number }>('/users/u-1/stats');
    const second = api.get<{ totalDonations: number }>('/users/u-1/stats');
    await waitFor(() => expect(server.callsTo('POST /auth/refresh')).toHaveLength(1));
    releaseRefresh();
    expect(await first).toEqual({ totalDonations: 3 });
    expect(await second).toEqual({ totalDonations: 3 });

    expect(server.callsTo('POST /auth/refresh')).toHaveLength(1);
    expect(server.callsTo('POST /auth/refresh')[0]!.body).toEqual({
      refreshToken: 'refresh-token-1',
    });
    const stats = server.callsTo('GET /users/u-1/stats');
    expect(stats.map(bearer)).toEqual([
      'Bearer access-1',
      'Bearer access-1',
      'Bearer access-2',
      'Bearer access-2',
    ]);
    expect(deobfuscate(window.localStorage.getItem('token'))).toBe('access-2');
    // The refresh token is kept unchanged (spec section 7).
    expect(deobfuscate(window.localStorage.getItem('refreshToken'))).toBe('refresh-token-1');
  });

  it('when the refresh fails: clears both tokens, says "Session expired. Please sign in again." and the guard sends to sign-in', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await seedSession(makeUser());
    const server = mockApi({
      'GET /auth/me': ok({ user: makeUser() }),
      'GET /users/u-1/stats': fail(401, 'UNAUTHENTICATED'),
      'POST /auth/refresh': fail(401, 'INVALID_REFRESH_TOKEN'),
    });
    const { router } = renderRoutes(routes, { path: '/notifications' });
    await screen.findByRole('heading', { level: 1, name: 'Notifications' });

    await expect(api.get('/users/u-1/stats')).rejects.toBeInstanceOf(ApiError);

    expect(await screen.findByText('Session expired. Please sign in again.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/notifications' } });
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('refreshToken')).toBeNull();
    expect(server.callsTo('POST /auth/refresh')).toHaveLength(1);
    // The original call was not retried after the failed refresh.
    expect(server.callsTo('GET /users/u-1/stats')).toHaveLength(1);
  });
});
