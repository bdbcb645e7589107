import { createContext, useContext } from 'react';
import type { AuthActions, AuthState } from './types';

/** The state the route guard and the header read. */
export const AuthContext = createContext<AuthState | null>(null);
/** What screens do; a separate context so that actions never change identity. */
export const AuthActionsContext = createContext<AuthActions | null>(null);

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

export function useAuthActions(): AuthActions {
  const actions = useContext(AuthActionsContext);
  if (!actions) throw new Error('useAuthActions must be used inside <AuthProvider>');
  return actions;
}
