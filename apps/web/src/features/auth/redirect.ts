import { roleHome } from '@bdms/shared';
import type { User } from './types';

const SIGN_IN_PATHS = new Set(['/login', '/signin', '/admin/login', '/hospital/login']);

/** Location state the guard leaves on the sign-in screen (`{from}`) and screens leave for it. */
export interface SignInState {
  from?: { pathname?: unknown; search?: unknown; hash?: unknown };
  /** Set by /reset-password after a new password was set. */
  notice?: 'passwordReset';
}

/**
 * Where a user goes after signing in: back to the page that sent them to sign in, else their
 * role's home (donors then meet the guard's approval and onboarding rules).
 */
export function afterSignInPath(state: unknown, user: Pick<User, 'role'>): string {
  const from = (state as SignInState | null | undefined)?.from;
  const pathname = from?.pathname;
  if (typeof pathname === 'string' && pathname.startsWith('/') && !pathname.startsWith('//')) {
    if (!SIGN_IN_PATHS.has(pathname)) {
      const search = typeof from?.search === 'string' ? from.search : '';
      const hash = typeof from?.hash === 'string' ? from.hash : '';
      return `${pathname}${search}${hash}`;
    }
  }
  return roleHome(user.role);
}
