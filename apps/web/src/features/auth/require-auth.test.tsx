import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { AuthContext } from './auth-context';
import { RequireAuth } from './require-auth';
import type { AuthState } from './types';

function LoginProbe({ name }: { name: string }) {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string } } | null)?.from?.pathname;
  return (
    <p>
      {name} sign-in screen, from {from}
    </p>
  );
}

const VISITOR: AuthState = { status: 'unauthenticated', user: null };

function renderGuarded(path: string, auth: AuthState = VISITOR) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginProbe name="Donor" /> },
      { path: '/admin/login', element: <LoginProbe name="Admin" /> },
      { path: '/hospital/login', element: <LoginProbe name="Hospital" /> },
      { path: '/dashboard', element: <p>Donor dashboard</p> },
      { element: <RequireAuth />, children: [{ path: '/profile', element: <p>Profile</p> }] },
      {
        element: <RequireAuth role="admin" />,
        children: [{ path: '/admin', element: <p>Admin</p> }],
      },
      {
        element: <RequireAuth role="hospital" />,
        children: [{ path: '/hospital/dashboard', element: <p>Hospital</p> }],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AuthContext.Provider value={auth}>
      <RouterProvider router={router} />
    </AuthContext.Provider>,
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
    expect(await screen.findByText('Donor sign-in screen, from /profile')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a visitor to /admin/login for admin routes', async () => {
    const router = renderGuarded('/admin');
    expect(await screen.findByText('Admin sign-in screen, from /admin')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('sends a visitor to /hospital/login for hospital routes', async () => {
    const router = renderGuarded('/hospital/dashboard');
    expect(
      await screen.findByText('Hospital sign-in screen, from /hospital/dashboard'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/hospital/login');
  });

  it('shows the page to a signed-in user', () => {
    renderGuarded('/profile', {
      status: 'authenticated',
      user: { id: 'a1', email: 'a@example.in', role: 'admin' },
    });
    expect(screen.getByText('Profile')).toBeInTheDocument();
  });

  it('silently sends a donor who opens /admin to /dashboard', async () => {
    const router = renderGuarded('/admin', {
      status: 'authenticated',
      user: { id: 'd1', email: 'd@example.in', role: 'donor', isApproved: true },
    });
    expect(await screen.findByText('Donor dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.location.state).toBeNull();
  });
});
