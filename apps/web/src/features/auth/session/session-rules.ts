import { ROLES, SESSION } from '@bdms/shared';
import type { User } from '../types';

/**
 * The session's pure rules (product spec sections 3, 4, 5 and 9): what a stored session holds,
 * when it is complete, when it has expired, when its access token is due for a refresh. No I/O
 * and no clock of its own: callers pass `now`.
 */

/** The spec's exact messages (sections 5 and 8); the UI shows `errors:<code>` instead. */
export const SESSION_ERROR_MESSAGES = {
  INVALID_LOGIN_DATA: 'Invalid login data provided',
  NO_REFRESH_TOKEN: 'No refresh token available',
  REFRESH_IN_PROGRESS: 'Refresh already in progress',
  INVALID_SERVER_RESPONSE: 'Invalid response from server',
  SESSION_EXPIRED: 'Session expired. Please sign in again.',
} as const;

export type SessionErrorCode = keyof typeof SESSION_ERROR_MESSAGES;

export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly code: SessionErrorCode;

  constructor(code: SessionErrorCode, options?: { cause?: unknown }) {
    super(SESSION_ERROR_MESSAGES[code], options);
    this.code = code;
  }
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token is valid for, counted from `tokenIssuedAt`. */
  expiresIn: number;
}

export interface DeviceInfo {
  userAgent: string;
  language: string;
  platform: string;
}

/** The stored session (spec section 3). Times are epoch milliseconds. */
export interface StoredSession {
  id: string;
  userId: string;
  user: User;
  tokens: SessionTokens;
  createdAt: number;
  expiresAt: number;
  lastAccessed: number;
  deviceInfo: DeviceInfo;
  /**
   * Extension: when the current access token was received. `expiresIn` alone cannot say how much
   * validity is left, so the periodic check computes it from this (spec section 9, 15 minutes).
   */
  tokenIssuedAt: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isFilledString = (value: unknown): value is string =>
  typeof value === 'string' && value !== '';

/**
 * A light check of a user from the server or from storage: id, e-mail and a known role. The
 * rest is read leniently by the screens (zod stays out of the first page load).
 */
export function parseUser(value: unknown): User | null {
  if (!isObject(value)) return null;
  const { id, email, role } = value;
  if (!isFilledString(id) || typeof email !== 'string') return null;
  if (!(ROLES as readonly unknown[]).includes(role)) return null;
  return value as unknown as User;
}

export function parseTokens(value: unknown): SessionTokens | null {
  if (!isObject(value)) return null;
  const { accessToken, refreshToken, expiresIn } = value;
  if (!isFilledString(accessToken) || !isFilledString(refreshToken)) return null;
  return {
    accessToken,
    refreshToken,
    expiresIn:
      typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : SESSION.accessTokenTtlSeconds,
  };
}

/** `POST /auth/refresh` replies `{accessToken, expiresIn}`. */
export function parseRefreshResult(
  value: unknown,
): { accessToken: string; expiresIn: number } | null {
  if (!isObject(value) || !isFilledString(value.accessToken)) return null;
  const { expiresIn } = value;
  return {
    accessToken: value.accessToken,
    expiresIn:
      typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : SESSION.accessTokenTtlSeconds,
  };
}

/** The session stored on sign-in; it expires 30 days after creation (spec section 4). */
export function createSession(
  loginData: unknown,
  { now, id, deviceInfo }: { now: number; id: string; deviceInfo: DeviceInfo },
): StoredSession {
  const user = isObject(loginData) ? parseUser(loginData.user) : null;
  const tokens = isObject(loginData) ? parseTokens(loginData.tokens) : null;
  if (!user || !tokens) throw new SessionError('INVALID_LOGIN_DATA');
  return {
    id,
    userId: user.id,
    user,
    tokens,
    createdAt: now,
    expiresAt: now + SESSION.maxAgeMs,
    lastAccessed: now,
    deviceInfo,
    tokenIssuedAt: now,
  };
}

export type SessionCheck =
  | { ok: true; session: StoredSession }
  | { ok: false; reason: 'missing' | 'incomplete' | 'expired' };

/**
 * Integrity (spec section 5): userId, user, tokens, createdAt, expiresAt, an access token and a
 * refresh token must all be there, and the session must not have expired.
 */
export function checkSession(value: unknown, now: number): SessionCheck {
  if (value === null || value === undefined) return { ok: false, reason: 'missing' };
  if (!isObject(value)) return { ok: false, reason: 'incomplete' };
  const { userId, user, tokens, createdAt, expiresAt } = value;
  const parsedUser = parseUser(user);
  const parsedTokens = parseTokens(tokens);
  if (
    !isFilledString(userId) ||
    !parsedUser ||
    !parsedTokens ||
    typeof createdAt !== 'number' ||
    typeof expiresAt !== 'number'
  ) {
    return { ok: false, reason: 'incomplete' };
  }
  if (now >= expiresAt) return { ok: false, reason: 'expired' };
  const session = value as unknown as StoredSession;
  return {
    ok: true,
    session: {
      ...session,
      user: parsedUser,
      tokens: parsedTokens,
      lastAccessed: typeof session.lastAccessed === 'number' ? session.lastAccessed : createdAt,
      tokenIssuedAt: typeof session.tokenIssuedAt === 'number' ? session.tokenIssuedAt : 0,
      deviceInfo: isObject(session.deviceInfo)
        ? session.deviceInfo
        : { userAgent: '', language: '', platform: '' },
    },
  };
}

/** Milliseconds of access-token validity left (negative once it has expired). */
export function accessTokenRemainingMs(session: StoredSession, now: number): number {
  return session.tokenIssuedAt + session.tokens.expiresIn * 1000 - now;
}

/** The periodic check refreshes when less than 15 minutes of validity remain (spec section 9). */
export function isRefreshDue(session: StoredSession, now: number): boolean {
  return accessTokenRemainingMs(session, now) < SESSION.periodicRefreshBelowMs;
}

/** The device the session was created on (spec section 3, `deviceInfo`). */
export function currentDeviceInfo(): DeviceInfo {
  if (typeof navigator === 'undefined') return { userAgent: '', language: '', platform: '' };
  return {
    userAgent: navigator.userAgent ?? '',
    language: navigator.language ?? '',
    platform: navigator.platform ?? '',
  };
}
