export { AuthContext, useAuth } from './auth-context';
export { AuthProvider } from './auth-provider';
export { RequireAuth } from './require-auth';
export { decideRouteAccess, type GuardDecision } from './route-guard';
export type { AuthState, AuthStatus, User } from './types';
