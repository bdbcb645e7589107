import { isDonorApproved, isOnboardingCompleted, roleHome, type Role } from '@bdms/shared';
import type { AuthState } from './types';

export type GuardDecision =
  | { type: 'loading' }
  | { type: 'redirect'; to: string; rememberOrigin: boolean }
  | { type: 'allow' };

/** The route guard, evaluated in the product spec's order (section 4, "Route guard"). */
export function decideRouteAccess(
  auth: AuthState,
  { requiredRole, pathname }: { requiredRole?: Role | undefined; pathname: string },
): GuardDecision {
  // 1. While auth is loading, show the loader.
  if (auth.status === 'loading') return { type: 'loading' };
  // 2. Not signed in: to the sign-in screen (the admin one for admin routes), remembering the origin.
  if (auth.status !== 'authenticated' || !auth.user) {
    return {
      type: 'redirect',
      to: requiredRole === 'admin' ? '/admin/login' : '/login',
      rememberOrigin: true,
    };
  }
  const { user } = auth;
  // 3. Wrong role: silently to that user's home.
  if (requiredRole && user.role !== requiredRole) {
    return { type: 'redirect', to: roleHome(user.role), rememberOrigin: false };
  }
  // 4. Unapproved donors on routes with no required role: onboarding first, then only /profile.
  if (!requiredRole && user.role === 'donor' && !isDonorApproved(user)) {
    const onOnboarding = pathname === '/onboarding';
    const mayStay = onOnboarding || (pathname === '/profile' && isOnboardingCompleted(user));
    if (!mayStay) return { type: 'redirect', to: '/onboarding', rememberOrigin: false };
  }
  return { type: 'allow' };
}
