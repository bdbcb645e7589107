import type { ReactNode } from 'react';
import { AuthContext } from './auth-context';
import type { AuthState } from './types';

/**
 * Sign-in, sessions and token refresh arrive with the accounts feature. Until then nobody can be
 * signed in, so the state says exactly that: no stored session is read and no user is invented.
 */
const SIGNED_OUT: AuthState = { status: 'unauthenticated', user: null };

export function AuthProvider({ children }: { children: ReactNode }) {
  return <AuthContext.Provider value={SIGNED_OUT}>{children}</AuthContext.Provider>;
}
