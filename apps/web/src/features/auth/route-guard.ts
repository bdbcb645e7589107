import { isDonorApproved, isOnboardingCompleted, roleHome, type Role } from '@bdms/shared';
import type { AuthState } from './types';

export type GuardDecision =
  | { type: 'loading' }
  | { type: 'redirect'; to: string; rememberOrigin: boolean }
  | { type: 'allow' };

/** The spec names /onboarding; registration lands on /donor/onboarding, the same step. */
export function isOnOnboarding(pathname: string): boolean {
  return pathname === '/onboarding' || pathname === '/donor/onboarding';
}

/** The spec names /profile; /donor/profile is the same page for donors. */
export function isOnProfile(pathname: string): boolean {
  return pathname === '/profile' || pathname === '/donor/profile';
}

/**
 * The sign-in screen for a protected route. The spec sends visitors to /admin/login for admin
 * routes; hospital routes get /hospital/login the same way (extension: a hospital user expects it).
 */
export function signInPathFor(requiredRole: Role | undefined): string {
  if (requiredRole === 'admin') return '/admin/login';
  if (requiredRole === 'hospital') return '/hospital/login';
  return '/login';
}

/** The route guard, evaluated in the product spec's order (section 4, "Route guard"). */
export function decideRouteAccess(
  auth: AuthState,
  {
    requiredRole,
    pathname,
    wasShowingUser = false,
  }: {
    requiredRole?: Role | undefined;
    pathname: string;
    /** This route was on screen for a signed-in user (so a sign-out happened while on it). */
    wasShowingUser?: boolean;
  },
): GuardDecision {
  // 1. While auth is loading, show the loader.
  if (auth.status === 'loading') return { type: 'loading' };
  // 2. Not signed in: to the sign-in screen (the admin one for admin routes), remembering the origin.
  //    Decision: a user who signs out (or deletes the account) on this page goes home, as Sign Out
  //    promises (spec section 2), even if the next page is still loading when the session ends.
  if (auth.status !== 'authenticated' || !auth.user) {
    if (wasShowingUser && auth.signOutReason === 'logout') {
      return { type: 'redirect', to: '/', rememberOrigin: false };
    }
    return { type: 'redirect', to: signInPathFor(requiredRole), rememberOrigin: true };
  }
  const { user } = auth;
  // 3. Wrong role: silently to that user's home.
  if (requiredRole && user.role !== requiredRole) {
    return { type: 'redirect', to: roleHome(user.role), rememberOrigin: false };
  }
  // 4. Donors on routes with no required role: approved donors pass. Others may stay on
  //    onboarding, and on the profile once onboarding is completed; everything else → /onboarding.
  if (!requiredRole && user.role === 'donor' && !isDonorApproved(user)) {
    const mayStay =
      isOnOnboarding(pathname) || (isOnProfile(pathname) && isOnboardingCompleted(user));
    if (!mayStay) return { type: 'redirect', to: '/onboarding', rememberOrigin: false };
  }
  return { type: 'allow' };
}
