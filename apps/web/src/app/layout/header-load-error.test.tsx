import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { mockApi, ok } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { Header } from './header';

// The account menu's code cannot be downloaded (a bad network, a deploy in between).
vi.mock('./user-menu', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

describe('the header when the account menu fails to load', () => {
  it('shows "Loading Error" with Refresh Page and still offers Sign Out, which signs out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await seedSession(makeUser({ name: 'Asha Rao', status: 'approved' }));
    const server = mockApi({
      'GET /auth/me': ok({ user: makeUser({ name: 'Asha Rao', status: 'approved' }) }),
      'POST /auth/logout': ok({ loggedOut: true }),
    });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <>
              <Header />
              <Outlet />
            </>
          ),
          children: [
            { index: true, element: <h1>Home page</h1> },
            { path: 'profile', element: <h1>Profile</h1> },
          ],
        },
      ],
      { path: '/profile' },
    );

    // The first attempt and 3 retries (waits of 1, 2 and 3 s) come first.
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Loading Error');
    expect(alert).toHaveTextContent('Failed to load component. Please try refreshing the page.');
    expect(within(alert).getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();

    await userEvent.click(within(alert).getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(await screen.findAllByRole('link', { name: 'Sign In' })).not.toHaveLength(0);
    expect(server.callsTo('POST /auth/logout')).toHaveLength(1);
  }, 20_000);
});
