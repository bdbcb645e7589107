export { AuthActionsContext, AuthContext, useAuth, useAuthActions } from './auth-context';
export { AuthProvider } from './auth-provider';
export { RequireAuth } from './require-auth';
export { decideRouteAccess, isOnOnboarding, isOnProfile, type GuardDecision } from './route-guard';
export type { AuthActions, AuthState, AuthStatus, User } from './types';
export { hasSessionHint } from './session/session-manager';
