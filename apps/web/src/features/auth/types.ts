import type { AuthTokens, Login, Register, Role, User as ServerUser } from '@bdms/shared';

/**
 * The signed-in user as the client reads it (product spec section 3, API.md "The user object").
 * Only id, email and role are checked when it is read (session-rules.ts `parseUser`); every other
 * field may be missing, e.g. from an older server or an older stored session.
 */
export type User = {
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
  displayName?: string;
  username?: string;
  firstName?: string;
  lastName?: string;
} & Partial<
  Omit<
    ServerUser,
    | 'id'
    | 'email'
    | 'role'
    | 'status'
    | 'isApproved'
    | 'verification'
    | 'onboardingCompleted'
    | 'questionnaireCompleted'
    | 'documents'
    | 'name'
    | 'fullName'
  >
>;

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** What the route guard reads. */
export interface AuthState {
  status: AuthStatus;
  user: User | null;
  /**
   * Why the last session ended: `logout` is the user's own choice (Sign Out, account deleted),
   * after which the page they were on sends them home rather than to sign-in.
   */
  signOutReason?: string | undefined;
}

/** What sign-in screens, the user menu and the profile page do. Each resolves once stored. */
/** Where a sign-in code goes: an e-mail address, or a verified mobile number. */
export type OtpTarget = { email: string } | { phone: string };

export interface AuthActions {
  /** `POST /auth/login`; `role` is sent by /admin/login and /hospital/login. */
  login: (credentials: Login) => Promise<User>;
  /** `POST /auth/login-otp` with `{email}` (mails a 6-digit code) or `{phone}` (sends it by SMS). */
  requestOtp: (target: OtpTarget) => Promise<void>;
  /** `POST /auth/login-otp` with `{email, code}` or `{phone, code}`. */
  loginWithOtp: (input: OtpTarget & { code: string }) => Promise<User>;
  register: (input: Register) => Promise<User>;
  /**
   * Stores a session another call signed in (e.g. `POST /hospital-registrations`, which answers
   * `{user, tokens, …}` like registration).
   */
  adoptSession: (result: { user: unknown; tokens: AuthTokens }) => Promise<User>;
  /** Signs out locally at once; the server call may fail and is then ignored. */
  logout: () => Promise<void>;
  /** Asks the server for the user again (`GET /auth/me`); `force` skips the 5-minute cache. */
  refreshUser: (options?: { force?: boolean }) => Promise<User | null>;
  /** Stores a user the server returned (e.g. after `PATCH /users/{id}`). */
  updateUser: (user: User) => Promise<void>;
  /** Stores new tokens (e.g. after a password change), keeping the user signed in. */
  replaceTokens: (tokens: AuthTokens) => Promise<void>;
}
