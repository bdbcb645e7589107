import { SESSION } from '@bdms/shared';
import type { User } from '../features/auth';
import type { StoredSession } from '../features/auth/session/session-rules';
import { createSessionStore } from '../features/auth/session/session-store';

/** A user as the server sends it, with overrides. */
export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u-1',
    email: 'asha.rao@example.in',
    role: 'donor',
    status: 'approved',
    isApproved: true,
    verification: { isVerified: true },
    onboardingCompleted: true,
    questionnaireCompleted: true,
    documents: [],
    name: 'Asha Rao',
    fullName: 'Asha Rao',
    phone: '+919876543210',
    phoneNumber: '+919876543210',
    phoneVerifiedAt: null,
    bloodType: 'O+',
    gender: 'female',
    dateOfBirth: '1990-04-12',
    city: 'Pune',
    state: 'Maharashtra',
    pincode: '411001',
    available: true,
    lastDonationAt: null,
    nextEligibleAt: null,
    totalDonations: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeSession(
  user: User = makeUser(),
  overrides: Partial<StoredSession> = {},
  now = Date.now(),
): StoredSession {
  return {
    id: 's-1',
    userId: user.id,
    user,
    tokens: { accessToken: 'access-1', refreshToken: 'refresh-token-1', expiresIn: 3600 },
    createdAt: now,
    expiresAt: now + SESSION.maxAgeMs,
    lastAccessed: now,
    deviceInfo: { userAgent: navigator.userAgent, language: 'en', platform: '' },
    tokenIssuedAt: now,
    ...overrides,
  };
}

/** Stores a signed-in session the way sign-in does, so the app boots signed in. */
export async function seedSession(
  user: User = makeUser(),
  overrides: Partial<StoredSession> = {},
): Promise<StoredSession> {
  const session = makeSession(user, overrides);
  await createSessionStore().write(session);
  return session;
}
