import {
  FEATURE_FLAG_DEFAULTS,
  FEATURE_FLAG_NAMES,
  NOTIFICATION_SETTINGS_DEFAULTS,
  type AdminFlags,
  type AnalyticsDashboard,
  type BloodRequest,
  type ClientLog,
  type DonorDetails,
  type DonorStatsAdmin,
  type EmailStatus,
  type RequestsSummary,
  type TimeRange,
  type User,
} from '@bdms/shared';
import { ok, type MockRoute } from '../../../test/api';
import { makeUser } from '../../../test/session';

/** Test data for the console screens, shaped as API.md and @bdms/shared say. */

export const ADMIN = makeUser({
  id: 'admin-1',
  email: 'admin@example.org',
  role: 'admin',
  name: 'Meera Admin',
  fullName: 'Meera Admin',
  bloodType: undefined,
});

export function makeDonor(overrides: Partial<User> = {}): User {
  return {
    id: 'd-1',
    email: 'ravi.kumar@example.in',
    role: 'donor',
    status: 'pending',
    isApproved: false,
    verification: { isVerified: false },
    onboardingCompleted: true,
    questionnaireCompleted: true,
    documents: [],
    name: 'Ravi Kumar',
    fullName: 'Ravi Kumar',
    phone: '+919812345678',
    phoneNumber: '+919812345678',
    phoneVerifiedAt: null,
    bloodType: 'B+',
    gender: 'male',
    dateOfBirth: '1992-03-04',
    city: 'Jaipur',
    state: 'Rajasthan',
    pincode: '302001',
    available: true,
    lastDonationAt: null,
    nextEligibleAt: null,
    totalDonations: 0,
    language: 'en',
    createdAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

export const STATS: DonorStatsAdmin = {
  total: 1287,
  byStatus: { pending: 14, approved: 1203, rejected: 41, suspended: 29 },
  byBloodType: { 'O+': 400, 'B+': 350 },
  newLast7d: 63,
  availableNow: 512,
};

export const SUMMARY: RequestsSummary = {
  total: 96,
  byStatus: { pending: 3, verified: 5, in_progress: 2, fulfilled: 80, cancelled: 4, expired: 2 },
  byUrgency: { urgent: 70, critical: 26 },
  openCritical: 4,
  fulfilledLast30d: 37,
  medianHoursToFulfil: 5.5,
};

export function makeAnalytics(timeRange: TimeRange): AnalyticsDashboard {
  const days = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 }[timeRange];
  const start = Date.UTC(2026, 0, 1);
  const series = Array.from({ length: days }, (_, index) => ({
    date: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
    registrations: index % 3,
    requests: index % 2,
    donations: index === 2 ? 9 : 1,
  }));
  return {
    timeRange,
    totals: {
      registrations: series.reduce((sum, day) => sum + day.registrations, 0),
      requests: series.reduce((sum, day) => sum + day.requests, 0),
      donations: series.reduce((sum, day) => sum + day.donations, 0),
    },
    series,
    bloodTypeDistribution: { 'O+': 40, 'B+': 35, 'A+': 25 },
  };
}

export const EMAIL_STATUS: EmailStatus = {
  transport: 'outbox',
  configured: false,
  from: 'no-reply@localhost',
  sent24h: 12,
  failed24h: 0,
  queued: 1,
  lastError: null,
};

export function makeFlags(overrides: Partial<AdminFlags['flags']> = {}): AdminFlags {
  return {
    flags: { ...FEATURE_FLAG_DEFAULTS, ...overrides },
    sources: Object.fromEntries(
      FEATURE_FLAG_NAMES.map((name) => [name, 'default']),
    ) as AdminFlags['sources'],
  };
}

/** Every call /admin makes, answered with the data above. */
export function dashboardRoutes(): Record<string, MockRoute> {
  return {
    'GET /auth/me': ok({ user: ADMIN }),
    'GET /admin/donors/stats': ok(STATS),
    'GET /admin/requests/summary': ok(SUMMARY),
    'GET /analytics/dashboard': (request) => {
      const query = (request as { query?: URLSearchParams }).query;
      const range = (query?.get('timeRange') ?? '30d') as TimeRange;
      return ok(makeAnalytics(range));
    },
    'GET /admin/activity/recent': ok({ items: [] }),
    'GET /admin/email/status': ok(EMAIL_STATUS),
    'GET /admin/notifications/settings': ok(NOTIFICATION_SETTINGS_DEFAULTS),
    'GET /admin/hospitals': ok({ items: [], total: 0, page: 1, pageSize: 10 }),
    'GET /admin/flags': ok(makeFlags()),
    'GET /admin/client-logs': ok({ items: [], total: 0, page: 1, pageSize: 20 }),
  };
}

export function makeDetails(
  donor: User = makeDonor(),
  overrides: Partial<DonorDetails> = {},
): DonorDetails {
  return {
    donor,
    documents: [
      {
        id: 'doc-1',
        type: 'id_proof',
        fileName: 'aadhaar-front.jpg',
        mimeType: 'image/jpeg',
        size: 245_760,
        verified: false,
        rejectionReason: null,
        status: 'pending',
        uploadedAt: '2026-11-02T09:00:00.000Z',
      },
    ],
    questionnaire: {
      answers: {
        weightKg: 68,
        firstTimeDonor: true,
        feelsWell: true,
        conditions: [],
      },
      submittedAt: '2026-11-02T09:30:00.000Z',
      eligible: true,
      nextEligibleAt: null,
      deferrals: [],
      review: null,
    },
    donations: [],
    activity: [],
    ...overrides,
  };
}

export function makeRequest(
  overrides: Partial<BloodRequest> = {},
): BloodRequest & { view: 'full' } {
  return {
    view: 'full',
    id: 'r-1',
    trackingCode: 'BR7K2Q',
    status: 'pending',
    urgency: 'critical',
    bloodType: 'O-',
    unitsNeeded: 2,
    patientName: null,
    hospitalName: 'Sawai Man Singh Hospital',
    facilityId: null,
    city: 'Jaipur',
    state: 'Rajasthan',
    address: null,
    pincode: null,
    latitude: null,
    longitude: null,
    contactName: 'Anita Sharma',
    contactPhone: '+919876500000',
    contactEmail: null,
    contactPhoneConfirmed: null,
    requiredBy: null,
    notes: null,
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    history: [
      { status: 'pending', notes: null, by: null, byRole: 'guest', at: '2026-11-20T08:00:00.000Z' },
    ],
    matches: { notified: 0, accepted: 0, declined: 0 },
    expiresAt: '2026-11-23T08:00:00.000Z',
    searchRadiusKm: null,
    locationSource: null,
    ...overrides,
  };
}

/** An entry as `GET /admin/client-logs` returns it. */
export function makeClientLog(overrides: Partial<ClientLog> = {}): ClientLog {
  return {
    id: 'log-1',
    level: 'error',
    message: "TypeError: Cannot read properties of undefined (reading 'name')",
    category: 'error',
    url: '/donor/history',
    stack:
      "TypeError: Cannot read properties of undefined (reading 'name')\n    at History (history.js:12:5)",
    context: null,
    sessionId: 'session-1',
    clientVersion: '0.1.0',
    userAgent: 'Mozilla/5.0 (Linux; Android 13) Chrome/124.0 Mobile Safari/537.36',
    userId: null,
    occurredAt: '2026-11-20T09:15:00.000Z',
    receivedAt: '2026-11-20T09:15:30.000Z',
    ...overrides,
  };
}
