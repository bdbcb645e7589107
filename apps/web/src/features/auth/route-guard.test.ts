import { describe, expect, it } from 'vitest';
import { decideRouteAccess, isOnOnboarding, isOnProfile, signInPathFor } from './route-guard';
import type { AuthState, User } from './types';

const signedIn = (user: Partial<User>): AuthState => ({
  status: 'authenticated',
  user: { id: 'u1', email: 'asha@example.in', role: 'donor', ...user },
});
const visitor: AuthState = { status: 'unauthenticated', user: null };

describe('decideRouteAccess (product spec section 4, route guard)', () => {
  describe('1. loading', () => {
    it('waits while the session loads, whatever the route', () => {
      for (const requiredRole of [undefined, 'admin', 'hospital'] as const) {
        expect(
          decideRouteAccess({ status: 'loading', user: null }, { requiredRole, pathname: '/x' }),
        ).toEqual({ type: 'loading' });
      }
    });

    it('waits even when a user is already known', () => {
      expect(
        decideRouteAccess(
          { status: 'loading', user: signedIn({}).user },
          { pathname: '/dashboard' },
        ),
      ).toEqual({ type: 'loading' });
    });
  });

  describe('2. not signed in', () => {
    it('sends visitors to /login, remembering where they came from', () => {
      expect(decideRouteAccess(visitor, { pathname: '/profile' })).toEqual({
        type: 'redirect',
        to: '/login',
        rememberOrigin: true,
      });
    });

    it('sends a user who signed out on this page home, without remembering it', () => {
      const signedOut: AuthState = { ...visitor, signOutReason: 'logout' };
      expect(decideRouteAccess(signedOut, { pathname: '/profile', wasShowingUser: true })).toEqual({
        type: 'redirect',
        to: '/',
        rememberOrigin: false,
      });
      // Opening a protected page later, or a session that expired, still leads to sign-in.
      expect(decideRouteAccess(signedOut, { pathname: '/profile' })).toMatchObject({
        to: '/login',
      });
      expect(
        decideRouteAccess(
          { ...visitor, signOutReason: 'expired' },
          { pathname: '/profile', wasShowingUser: true },
        ),
      ).toMatchObject({ to: '/login', rememberOrigin: true });
    });

    it('sends visitors to /admin/login when the admin role is required', () => {
      expect(decideRouteAccess(visitor, { requiredRole: 'admin', pathname: '/admin' })).toEqual({
        type: 'redirect',
        to: '/admin/login',
        rememberOrigin: true,
      });
    });

    it('sends visitors to /hospital/login when the hospital role is required (extension)', () => {
      expect(
        decideRouteAccess(visitor, { requiredRole: 'hospital', pathname: '/hospital/dashboard' }),
      ).toEqual({ type: 'redirect', to: '/hospital/login', rememberOrigin: true });
    });

    it('treats "authenticated" without a user as signed out', () => {
      expect(
        decideRouteAccess({ status: 'authenticated', user: null }, { pathname: '/profile' }),
      ).toMatchObject({ to: '/login' });
    });
  });

  describe("3. wrong role: silently to the user's role home", () => {
    it.each([
      ['donor', 'admin', '/dashboard'],
      ['donor', 'hospital', '/dashboard'],
      ['admin', 'hospital', '/admin'],
      ['hospital', 'admin', '/hospital/dashboard'],
    ] as const)('%s on a %s route goes to %s', (role, requiredRole, home) => {
      expect(
        decideRouteAccess(signedIn({ role, isApproved: true }), { requiredRole, pathname: '/x' }),
      ).toEqual({ type: 'redirect', to: home, rememberOrigin: false });
    });

    it('applies before donor approval: an unapproved donor on /admin goes to /dashboard', () => {
      expect(
        decideRouteAccess(signedIn({ status: 'pending' }), {
          requiredRole: 'admin',
          pathname: '/admin',
        }),
      ).toMatchObject({ to: '/dashboard' });
    });

    it('lets the right role through', () => {
      expect(
        decideRouteAccess(signedIn({ role: 'admin' }), {
          requiredRole: 'admin',
          pathname: '/admin',
        }),
      ).toEqual({ type: 'allow' });
      expect(
        decideRouteAccess(signedIn({ role: 'hospital' }), {
          requiredRole: 'hospital',
          pathname: '/hospital/dashboard',
        }),
      ).toEqual({ type: 'allow' });
    });
  });

  describe('4. donors on routes with no required role', () => {
    it.each([
      ['isApproved', { isApproved: true }],
      ['status approved', { status: 'approved' }],
      ['status active', { status: 'active' }],
      ['verification.isVerified', { verification: { isVerified: true } }],
    ])('lets approved donors through (%s)', (_name, approval) => {
      for (const pathname of ['/dashboard', '/notifications', '/onboarding', '/donor/profile']) {
        expect(decideRouteAccess(signedIn(approval), { pathname })).toEqual({ type: 'allow' });
      }
    });

    it('treats a missing status as pending', () => {
      expect(decideRouteAccess(signedIn({}), { pathname: '/dashboard' })).toMatchObject({
        to: '/onboarding',
      });
    });

    it('keeps a donor who has not completed onboarding on onboarding, even from /profile', () => {
      const fresh = signedIn({ status: 'pending' });
      for (const pathname of ['/dashboard', '/donor/dashboard', '/notifications', '/profile']) {
        expect(decideRouteAccess(fresh, { pathname })).toEqual({
          type: 'redirect',
          to: '/onboarding',
          rememberOrigin: false,
        });
      }
      expect(decideRouteAccess(fresh, { pathname: '/donor/profile' })).toMatchObject({
        to: '/onboarding',
      });
    });

    it('lets a donor who has not completed onboarding stay on /onboarding and /donor/onboarding', () => {
      const fresh = signedIn({ status: 'pending' });
      expect(decideRouteAccess(fresh, { pathname: '/onboarding' })).toEqual({ type: 'allow' });
      expect(decideRouteAccess(fresh, { pathname: '/donor/onboarding' })).toEqual({
        type: 'allow',
      });
    });

    it.each([
      ['onboardingCompleted', { onboardingCompleted: true }],
      ['documents present', { documents: [{ id: 'd1' }] }],
      ['questionnaireCompleted', { questionnaireCompleted: true }],
    ])(
      'lets an unapproved donor who completed onboarding (%s) use the profile, nothing else',
      (_name, completion) => {
        const waiting = signedIn({ status: 'pending', ...completion });
        for (const pathname of ['/profile', '/donor/profile', '/onboarding', '/donor/onboarding']) {
          expect(decideRouteAccess(waiting, { pathname })).toEqual({ type: 'allow' });
        }
        for (const pathname of ['/dashboard', '/donor/dashboard', '/notifications']) {
          expect(decideRouteAccess(waiting, { pathname })).toMatchObject({ to: '/onboarding' });
        }
      },
    );

    it('treats rejected and suspended donors as unapproved', () => {
      for (const status of ['rejected', 'suspended']) {
        expect(
          decideRouteAccess(signedIn({ status, onboardingCompleted: true }), {
            pathname: '/dashboard',
          }),
        ).toMatchObject({ to: '/onboarding' });
      }
    });

    it('does not gate admins and hospitals by donor approval', () => {
      for (const role of ['admin', 'hospital'] as const) {
        expect(
          decideRouteAccess(signedIn({ role, status: 'pending' }), { pathname: '/profile' }),
        ).toEqual({ type: 'allow' });
      }
    });
  });
});

describe('route helpers', () => {
  it('knows both onboarding and both profile paths', () => {
    expect(isOnOnboarding('/onboarding')).toBe(true);
    expect(isOnOnboarding('/donor/onboarding')).toBe(true);
    expect(isOnOnboarding('/onboarding/extra')).toBe(false);
    expect(isOnProfile('/profile')).toBe(true);
    expect(isOnProfile('/donor/profile')).toBe(true);
    expect(isOnProfile('/profiles')).toBe(false);
  });

  it('picks the sign-in screen for the required role', () => {
    expect(signInPathFor(undefined)).toBe('/login');
    expect(signInPathFor('donor')).toBe('/login');
    expect(signInPathFor('admin')).toBe('/admin/login');
    expect(signInPathFor('hospital')).toBe('/hospital/login');
  });
});
