import { describe, expect, it } from 'vitest';
import { decideRouteAccess } from './route-guard';
import type { AuthState, User } from './types';

const signedIn = (user: Partial<User>): AuthState => ({
  status: 'authenticated',
  user: { id: 'u1', email: 'asha@example.in', role: 'donor', ...user },
});

describe('decideRouteAccess (product spec section 4, route guard)', () => {
  it('waits while the session loads', () => {
    expect(
      decideRouteAccess({ status: 'loading', user: null }, { pathname: '/dashboard' }),
    ).toEqual({ type: 'loading' });
  });

  it('sends visitors to /login, or /admin/login for admin routes, remembering where they came from', () => {
    const visitor: AuthState = { status: 'unauthenticated', user: null };
    expect(decideRouteAccess(visitor, { pathname: '/profile' })).toEqual({
      type: 'redirect',
      to: '/login',
      rememberOrigin: true,
    });
    expect(
      decideRouteAccess(visitor, { requiredRole: 'hospital', pathname: '/hospital/dashboard' }),
    ).toMatchObject({ to: '/login' });
    expect(decideRouteAccess(visitor, { requiredRole: 'admin', pathname: '/admin' })).toMatchObject(
      { to: '/admin/login' },
    );
  });

  it("silently sends a user with another role to that role's home", () => {
    expect(
      decideRouteAccess(signedIn({ role: 'donor', isApproved: true }), {
        requiredRole: 'admin',
        pathname: '/admin',
      }),
    ).toEqual({
      type: 'redirect',
      to: '/dashboard',
      rememberOrigin: false,
    });
    expect(
      decideRouteAccess(signedIn({ role: 'admin' }), {
        requiredRole: 'hospital',
        pathname: '/hospital/dashboard',
      }),
    ).toMatchObject({ to: '/admin' });
    expect(
      decideRouteAccess(signedIn({ role: 'hospital' }), {
        requiredRole: 'admin',
        pathname: '/admin',
      }),
    ).toMatchObject({ to: '/hospital/dashboard' });
  });

  it('lets approved donors through', () => {
    for (const approval of [
      { isApproved: true },
      { status: 'approved' },
      { status: 'active' },
      { verification: { isVerified: true } },
    ]) {
      expect(decideRouteAccess(signedIn(approval), { pathname: '/dashboard' })).toEqual({
        type: 'allow',
      });
    }
  });

  it('keeps unapproved donors on /onboarding until onboarding is done, then also allows /profile', () => {
    const fresh = signedIn({ status: 'pending' });
    expect(decideRouteAccess(fresh, { pathname: '/dashboard' })).toMatchObject({
      to: '/onboarding',
    });
    expect(decideRouteAccess(fresh, { pathname: '/profile' })).toMatchObject({ to: '/onboarding' });
    expect(decideRouteAccess(fresh, { pathname: '/onboarding' })).toEqual({ type: 'allow' });

    const waiting = signedIn({ status: 'pending', questionnaireCompleted: true });
    expect(decideRouteAccess(waiting, { pathname: '/profile' })).toEqual({ type: 'allow' });
    expect(decideRouteAccess(waiting, { pathname: '/notifications' })).toMatchObject({
      to: '/onboarding',
    });
  });

  it('does not gate admins and hospitals by donor approval', () => {
    expect(decideRouteAccess(signedIn({ role: 'admin' }), { pathname: '/profile' })).toEqual({
      type: 'allow',
    });
  });
});
