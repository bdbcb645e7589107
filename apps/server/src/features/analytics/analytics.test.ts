import { analyticsDashboardSchema } from '@bdms/shared';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { donations } from '../../db/schema';
import { insertDonor } from '../../test/admin-helpers';
import { signIn } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { createAnalyticsService } from './analytics.service';

const DAY = 86_400_000;
// A fixed "now" late in a UTC day, so "today" and the day boundaries are deterministic.
const NOW = Date.parse('2026-03-15T22:30:00.000Z');

let testDb: TestDatabase;
const opened: TestApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((testApp) => testApp.close()));
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start() {
  const testApp = await createTestApp({
    database: testDb.database,
    services: { backgroundJobs: false, now: () => NOW },
  });
  opened.push(testApp);
  // Signed in with the real clock's tokens: the fake clock only moves the dashboard's today.
  const admin = await signIn(testApp.app, db(), { role: 'admin' });
  const dashboard = (query = '') =>
    testApp.app.inject({ url: `/api/v1/analytics/dashboard${query}`, headers: admin.headers });
  return { testApp, dashboard };
}

describe('GET /api/v1/analytics/dashboard', () => {
  it('gives 7 zero-filled UTC days, oldest first, today included, counts on the right day', async () => {
    // Created with the fake clock's frame of reference.
    await insertDonor(db(), { createdAt: new Date('2026-03-15T00:00:00.000Z') });
    await insertDonor(db(), { createdAt: new Date('2026-03-15T21:00:00.000Z') });
    await insertDonor(db(), {
      createdAt: new Date('2026-03-12T23:59:59.999Z'),
      status: 'approved',
      bloodType: 'O-',
    });
    await insertDonor(db(), {
      createdAt: new Date('2026-03-09T00:00:00.000Z'),
      status: 'approved',
      bloodType: 'O-',
    });
    // Outside the range: the day before the first day.
    await insertDonor(db(), {
      createdAt: new Date('2026-03-08T23:59:59.000Z'),
      status: 'approved',
      bloodType: 'B+',
    });
    await insertDonor(db(), {
      createdAt: new Date('2026-03-13T10:00:00.000Z'),
      deletedAt: new Date(),
    });
    await db()
      .insert(donations)
      .values([
        { donatedAt: new Date('2026-03-13T08:00:00.000Z'), place: 'A' },
        { donatedAt: new Date('2026-03-13T20:00:00.000Z'), place: 'B', units: 2 },
        { donatedAt: new Date('2026-03-01T08:00:00.000Z'), place: 'C' },
      ]);

    const { dashboard } = await start();
    const res = await dashboard('?timeRange=7d');
    expect(res.statusCode, res.body).toBe(200);
    const data = analyticsDashboardSchema.strict().parse(res.json().data);
    expect(data.timeRange).toBe('7d');
    expect(data.series).toEqual([
      { date: '2026-03-09', registrations: 1, requests: 0, donations: 0 },
      { date: '2026-03-10', registrations: 0, requests: 0, donations: 0 },
      { date: '2026-03-11', registrations: 0, requests: 0, donations: 0 },
      { date: '2026-03-12', registrations: 1, requests: 0, donations: 0 },
      { date: '2026-03-13', registrations: 1, requests: 0, donations: 2 },
      { date: '2026-03-14', registrations: 0, requests: 0, donations: 0 },
      { date: '2026-03-15', registrations: 2, requests: 0, donations: 0 },
    ]);
    expect(data.totals).toEqual({ registrations: 5, requests: 0, donations: 2 });
    expect(data.bloodTypeDistribution).toEqual({
      'A+': 0,
      'A-': 0,
      'B+': 1,
      'B-': 0,
      'AB+': 0,
      'AB-': 0,
      'O+': 0,
      'O-': 2,
    });
  });

  it('defaults to 30 days and gives 90 and 365 days for 90d and 1y', async () => {
    const { dashboard } = await start();
    const month = (await dashboard()).json().data;
    expect(month.timeRange).toBe('30d');
    expect(month.series).toHaveLength(30);
    expect(month.series[0].date).toBe('2026-02-14');
    expect(month.series.at(-1).date).toBe('2026-03-15');
    expect((await dashboard('?timeRange=90d')).json().data.series).toHaveLength(90);
    const year = (await dashboard('?timeRange=1y')).json().data.series;
    expect(year).toHaveLength(365);
    expect(year[0].date).toBe(new Date(NOW - 364 * DAY).toISOString().slice(0, 10));
    expect((await dashboard('?timeRange=2w')).statusCode).toBe(400);
  });

  it('counts a plugged-in requests series the same way', async () => {
    await insertDonor(db(), { createdAt: new Date('2026-03-14T12:00:00.000Z') });
    const service = createAnalyticsService({
      db: db(),
      now: () => NOW,
      sources: {
        registrations: null,
        // What the blood requests feature will plug in: one timestamp per request.
        requests: sql`select created_at as at from users where role = 'donor'`,
        donations: null,
      },
    });
    const data = await service.dashboard('7d');
    expect(data.series.map((day) => day.requests)).toEqual([0, 0, 0, 0, 0, 1, 0]);
    expect(data.totals).toEqual({ registrations: 0, requests: 1, donations: 0 });
  });
});
