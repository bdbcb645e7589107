import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog, users } from '../../db/schema';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

let testDb: TestDatabase;
let subject: TestApp;
let donor: SignedInUser;
let hospital: SignedInUser;
let admin: SignedInUser;

const id = randomUUID();

/** Every administrators' route, with a body that would be valid for an administrator. */
const ADMIN_ROUTES: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object }[] = [
  { method: 'GET', url: '/api/v1/admin/donors' },
  { method: 'GET', url: '/api/v1/admin/donors/pending' },
  { method: 'GET', url: '/api/v1/admin/donors/stats' },
  { method: 'GET', url: `/api/v1/admin/donors/${id}/details` },
  { method: 'POST', url: `/api/v1/admin/donors/${id}/approve` },
  { method: 'POST', url: `/api/v1/admin/donors/${id}/reject`, payload: { reason: 'Not eligible' } },
  {
    method: 'POST',
    url: `/api/v1/admin/donors/${id}/suspend`,
    payload: { reason: 'Not eligible' },
  },
  { method: 'POST', url: `/api/v1/admin/donors/${id}/reactivate` },
  {
    method: 'PUT',
    url: `/api/v1/admin/donors/${id}/questionnaire/review`,
    payload: { decision: 'accepted' },
  },
  { method: 'POST', url: '/api/v1/admin/export/donors', payload: {} },
  { method: 'GET', url: '/api/v1/admin/activity/recent' },
  { method: 'GET', url: '/api/v1/admin/requests/summary' },
  { method: 'GET', url: '/api/v1/analytics/dashboard' },
  { method: 'GET', url: '/api/v1/admin/email/status' },
  { method: 'POST', url: '/api/v1/admin/email/test', payload: { email: 'ops@example.org' } },
  { method: 'GET', url: '/api/v1/admin/notifications/settings' },
  { method: 'PUT', url: '/api/v1/admin/notifications/settings', payload: { matchRadiusKm: 30 } },
  { method: 'GET', url: '/api/v1/admin/hospitals' },
  {
    method: 'POST',
    url: '/api/v1/admin/hospitals',
    payload: {
      name: 'City Hospital',
      email: 'city@example.org',
      phone: '9876500000',
      city: 'Pune',
      state: 'Maharashtra',
    },
  },
  { method: 'GET', url: `/api/v1/admin/hospitals/${id}` },
  { method: 'POST', url: `/api/v1/admin/hospitals/${id}/disable` },
  { method: 'POST', url: `/api/v1/admin/hospitals/${id}/enable` },
  { method: 'POST', url: `/api/v1/admin/hospitals/${id}/verify` },
  {
    method: 'POST',
    url: `/api/v1/admin/hospitals/${id}/reject`,
    payload: { reason: 'The licence does not match.' },
  },
  { method: 'GET', url: '/api/v1/admin/flags' },
  { method: 'PUT', url: '/api/v1/admin/flags', payload: { bloodRequests: true } },
  { method: 'GET', url: '/api/v1/admin/client-logs' },
  { method: 'GET', url: '/api/v1/admin/debug' },
  { method: 'GET', url: '/api/v1/admin/notifications/channels' },
  { method: 'GET', url: '/api/v1/admin/referrals' },
  { method: 'GET', url: '/api/v1/admin/stock/summary' },
  { method: 'GET', url: '/api/v1/admin/stock/summary.csv' },
];

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp({ database: testDb.database, services: { backgroundJobs: false } });
  donor = await signIn(subject.app, testDb.database.db);
  hospital = await signIn(subject.app, testDb.database.db, { role: 'hospital' });
  admin = await signIn(subject.app, testDb.database.db, { role: 'admin' });
});

afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

const call = (route: (typeof ADMIN_ROUTES)[number], headers: Record<string, string> = {}) =>
  subject.app.inject({
    method: route.method,
    url: route.url,
    headers,
    ...(route.payload ? { payload: route.payload } : {}),
  });

describe('administrators’ routes', () => {
  it.each(ADMIN_ROUTES)('$method $url is 403 for a donor and a hospital', async (route) => {
    for (const caller of [donor, hospital]) {
      const res = await call(route, caller.headers);
      expect(res.statusCode, `${caller.row.role}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    }
  });

  it.each(ADMIN_ROUTES)('$method $url is 401 without a token', async (route) => {
    const res = await call(route);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('checks the role before the body: a donor sending nonsense still gets 403', async () => {
    const res = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/admin/donors/not-a-uuid/reject',
      headers: donor.headers,
      payload: { nonsense: true },
    });
    expect(res.statusCode).toBe(403);
  });

  it('changed nothing and logged nothing for the refused calls', async () => {
    const actions = (await testDb.database.db.select().from(activityLog)).map((row) => row.action);
    expect(actions.every((action) => action === 'user.signed_in')).toBe(true);
    expect(await testDb.database.db.select().from(users)).toHaveLength(3);
  });

  it('covers every administrators’ route of the OpenAPI document, which describes the decisions', async () => {
    const spec = subject.app.swagger() as {
      paths: Record<string, Record<string, unknown>>;
      info: { description: string };
    };
    const documented = Object.entries(spec.paths)
      .filter(
        ([path]) => path.startsWith('/api/v1/admin/') || path.startsWith('/api/v1/analytics/'),
      )
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    const tested = ADMIN_ROUTES.map(
      (route) => `${route.method} ${route.url.replace(id, '{id}')}`,
    ).sort();
    expect(tested).toEqual(documented);
    expect(spec.info.description).toContain('ONBOARDING_INCOMPLETE');
    expect(spec.info.description).toContain('ACCOUNT_DISABLED');
  });

  it('lets an administrator through (spot check)', async () => {
    const res = await call(ADMIN_ROUTES[2]!, admin.headers);
    expect(res.statusCode).toBe(200);
  });
});
