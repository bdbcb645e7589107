import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { AuthContext } from './auth-context';
import { AuthProvider } from './auth-provider';
import { RequireAuth } from './require-auth';
import type { AuthState } from './types';

function LoginProbe() {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string } } | null)?.from?.pathname;
  return <p>Sign-in screen, from {from}</p>;
}

function renderGuarded(path: string, auth?: AuthState) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginProbe /> },
      { path: '/admin/login', element: <LoginProbe /> },
      { element: <RequireAuth />, children: [{ path: '/profile', element: <p>Profile</p> }] },
      {
        element: <RequireAuth role="admin" />,
        children: [{ path: '/admin', element: <p>Admin</p> }],
      },
    ],
    { initialEntries: [path] },
  );
  const tree = <RouterProvider router={router} />;
  render(
    auth ? (
      <AuthContext.Provider value={auth}>{tree}</AuthContext.Provider>
    ) : (
      <AuthProvider>{tree}</AuthProvider>
    ),
  );
  return router;
}

describe('RequireAuth', () => {
  it('shows "Authenticating..." while the session loads', () => {
    renderGuarded('/profile', { status: 'loading', user: null });
    expect(screen.getByRole('status')).toHaveTextContent('Authenticating...');
  });

  it('sends a visitor to /login with the origin in state.from', async () => {
    const router = renderGuarded('/profile');
    expect(await screen.findByText('Sign-in screen, from /profile')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a visitor to /admin/login for admin routes', async () => {
    const router = renderGuarded('/admin');
    expect(await screen.findByText('Sign-in screen, from /admin')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('shows the page to a signed-in user', () => {
    renderGuarded('/profile', {
      status: 'authenticated',
      user: { id: 'a1', email: 'a@example.in', role: 'admin' },
    });
    expect(screen.getByText('Profile')).toBeInTheDocument();
  });
});
