import type { Role } from '@bdms/shared';

/** The signed-in user as the client reads it (product spec section 3, API.md "The user object"). */
export interface User {
  id: string;
  email: string;
  role: Role;
  /** pending, approved, active, rejected or suspended; pending when absent. */
  status?: string;
  isApproved?: boolean;
  verification?: { isVerified?: boolean };
  onboardingCompleted?: boolean;
  questionnaireCompleted?: boolean;
  documents?: unknown[];
  name?: string;
  fullName?: string;
  firstName?: string;
  lastName?: string;
}

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  user: User | null;
}
