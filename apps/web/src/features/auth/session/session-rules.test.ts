import { describe, expect, it } from 'vitest';
import { DAY, MINUTE, SESSION } from '@bdms/shared';
import {
  SessionError,
  accessTokenRemainingMs,
  checkSession,
  createSession,
  isRefreshDue,
  parseUser,
  type StoredSession,
} from './session-rules';

const NOW = Date.UTC(2026, 5, 1, 9, 0, 0);
const DEVICE = { userAgent: 'Mozilla/5.0 Test', language: 'en-IN', platform: 'Linux' };
const LOGIN = {
  user: { id: 'u-1', email: 'asha@example.in', role: 'donor', name: 'Asha' },
  tokens: { accessToken: 'access', refreshToken: 'refresh', expiresIn: 3600 },
};

function session(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...createSession(LOGIN, { now: NOW, id: 's-1', deviceInfo: DEVICE }), ...overrides };
}

describe('createSession', () => {
  it('stores the user, tokens and device, expiring 30 days after creation', () => {
    const created = createSession(LOGIN, { now: NOW, id: 's-1', deviceInfo: DEVICE });
    expect(created).toEqual({
      id: 's-1',
      userId: 'u-1',
      user: LOGIN.user,
      tokens: LOGIN.tokens,
      createdAt: NOW,
      expiresAt: NOW + 30 * DAY,
      lastAccessed: NOW,
      deviceInfo: DEVICE,
      tokenIssuedAt: NOW,
    });
  });

  it.each([
    ['no user', { tokens: LOGIN.tokens }],
    ['no tokens', { user: LOGIN.user }],
    ['a user without an id', { ...LOGIN, user: { email: 'a@b.in', role: 'donor' } }],
    ['a user with an unknown role', { ...LOGIN, user: { ...LOGIN.user, role: 'root' } }],
    ['tokens without a refresh token', { ...LOGIN, tokens: { accessToken: 'a', expiresIn: 1 } }],
    ['nothing', null],
  ])('refuses login data with %s: "Invalid login data provided"', (_name, data) => {
    const attempt = () => createSession(data, { now: NOW, id: 's', deviceInfo: DEVICE });
    expect(attempt).toThrow(SessionError);
    expect(attempt).toThrow('Invalid login data provided');
  });
});

describe('checkSession (integrity, spec section 5)', () => {
  it('accepts a complete session that has not expired', () => {
    const result = checkSession(session(), NOW + 29 * DAY);
    expect(result.ok).toBe(true);
  });

  it('reports nothing stored as missing', () => {
    expect(checkSession(null, NOW)).toEqual({ ok: false, reason: 'missing' });
  });

  it('refuses an expired session (30 days after creation)', () => {
    expect(checkSession(session(), NOW + 30 * DAY)).toEqual({ ok: false, reason: 'expired' });
  });

  it.each([
    ['userId', { userId: undefined }],
    ['user', { user: undefined }],
    ['tokens', { tokens: undefined }],
    ['createdAt', { createdAt: undefined }],
    ['expiresAt', { expiresAt: undefined }],
    ['the access token', { tokens: { refreshToken: 'refresh', expiresIn: 3600 } }],
    ['the refresh token', { tokens: { accessToken: 'access', expiresIn: 3600 } }],
    ['an empty access token', { tokens: { accessToken: '', refreshToken: 'r', expiresIn: 1 } }],
  ])('refuses a session without %s', (_name, overrides) => {
    expect(checkSession(session(overrides), NOW)).toEqual({ ok: false, reason: 'incomplete' });
  });
});

describe('access-token timing', () => {
  const stored = session() as unknown as StoredSession;

  it('counts validity from the issue time plus expiresIn seconds', () => {
    expect(accessTokenRemainingMs(stored, NOW)).toBe(60 * MINUTE);
    expect(accessTokenRemainingMs(stored, NOW + 50 * MINUTE)).toBe(10 * MINUTE);
  });

  it('is due for a refresh when less than 15 minutes remain', () => {
    expect(isRefreshDue(stored, NOW + 44 * MINUTE)).toBe(false);
    expect(isRefreshDue(stored, NOW + 45 * MINUTE)).toBe(false);
    expect(isRefreshDue(stored, NOW + 45 * MINUTE + 1)).toBe(true);
    expect(SESSION.periodicRefreshBelowMs).toBe(15 * MINUTE);
  });
});

describe('parseUser', () => {
  it('needs an id, an e-mail and a known role, and keeps the rest as sent', () => {
    expect(parseUser({ id: 'u', email: 'e@x.in', role: 'admin', city: 'Pune' })).toEqual({
      id: 'u',
      email: 'e@x.in',
      role: 'admin',
      city: 'Pune',
    });
    expect(parseUser({ id: 'u', email: 'e@x.in' })).toBeNull();
    expect(parseUser('user')).toBeNull();
  });
});
