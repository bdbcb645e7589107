import { publicStatsSchema } from '@bdms/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { educationContent, facilities } from '../../db/schema';
import { insertDonor, submitQuestionnaire } from '../../test/admin-helpers';
import { requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { SITE_RATE_LIMITS } from './site.routes';
import { STATS_CACHE_MS } from './site.service';

const STATS = '/api/v1/public/stats';

let testDb: TestDatabase;
let subject: TestApp;
let clock: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  clock = Date.parse('2026-03-02T09:00:00.000Z');
  subject = await createTestApp({
    database: testDb.database,
    services: { backgroundJobs: false, now: () => clock },
  });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function stats(headers: Record<string, string> = {}) {
  const res = await subject.app.inject({ url: STATS, headers });
  return res;
}

async function figures() {
  const res = await stats();
  expect(res.statusCode, res.body).toBe(200);
  return publicStatsSchema.strict().parse(res.json().data);
}

async function insertFacility(n: number) {
  await db()
    .insert(facilities)
    .values({
      id: `bb-${n}`,
      srNo: n,
      name: `Blood Bank ${n}`,
      state: 'Telangana',
      search: `blood bank ${n} telangana`,
    });
}

async function insertArticle(slug: string, unpublishedAt: Date | null = null) {
  await db().insert(educationContent).values({
    slug,
    title: slug,
    summary: 'A summary.',
    category: 'donating',
    body: 'Body.',
    sources: [],
    readingMinutes: 2,
    publishedAt: '2026-01-01',
    contentHash: slug,
    unpublishedAt,
  });
}

/** A donor who signed in and answered the questionnaire: an administrator can approve them. */
async function onboardedDonor(): Promise<SignedInUser> {
  const donor = await signIn(subject.app, db());
  await submitQuestionnaire(db(), donor.row.id);
  return donor;
}

describe('GET /api/v1/public/stats', () => {
  it('counts approved live donors, fulfilled requests, listed facilities and published articles', async () => {
    // Only approved, live donor accounts count: not pending, rejected, suspended or erased
    // donors, nor approved administrators and hospital accounts.
    await insertDonor(db(), { status: 'approved' });
    await insertDonor(db(), { status: 'approved' });
    await insertDonor(db(), { status: 'pending' });
    await insertDonor(db(), { status: 'rejected' });
    await insertDonor(db(), { status: 'suspended' });
    await insertDonor(db(), { status: 'approved', deletedAt: new Date(clock) });
    await signIn(subject.app, db(), { role: 'admin' });
    await signIn(subject.app, db(), { role: 'hospital' });
    await insertFacility(1);
    await insertFacility(2);
    await insertFacility(3);
    await insertArticle('who-can-donate');
    await insertArticle('after-care');
    await insertArticle('withdrawn', new Date(clock));

    const res = await stats();
    expect(res.statusCode, res.body).toBe(200);
    expect(publicStatsSchema.strict().parse(res.json().data)).toEqual({
      approvedDonors: 2,
      requestsFulfilled: 0,
      facilitiesListed: 3,
      articles: 2,
      generatedAt: '2026-03-02T09:00:00.000Z',
    });
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    // Counts only: nothing about any person.
    expect(res.body).not.toMatch(/@|Listed Donor|\+91/);
  });

  it('changes when a donor is approved and when a request is fulfilled, at most every 5 minutes', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    await insertDonor(db(), { status: 'approved' });
    const before = await figures();
    expect(before).toMatchObject({ approvedDonors: 1, requestsFulfilled: 0 });

    const donor = await onboardedDonor();
    const approved = await subject.app.inject({
      method: 'POST',
      url: `/api/v1/admin/donors/${donor.row.id}/approve`,
      headers: admin.headers,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    // Still the cached figures a minute later…
    clock += 60_000;
    expect(await figures()).toEqual(before);
    // …and the new ones once 5 minutes have passed.
    clock += STATS_CACHE_MS - 60_000;
    const afterApproval = await figures();
    expect(afterApproval).toMatchObject({ approvedDonors: 2, requestsFulfilled: 0 });
    expect(afterApproval.generatedAt).toBe(new Date(clock).toISOString());

    const created = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/blood-requests',
      payload: requestBody(),
      remoteAddress: '198.51.100.77',
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/v1/blood-requests/${created.json().data.request.id}/status`;
    for (const status of ['verified', 'in_progress', 'fulfilled']) {
      const res = await subject.app.inject({
        method: 'PUT',
        url,
        headers: admin.headers,
        payload: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    clock += STATS_CACHE_MS;
    expect(await figures()).toMatchObject({ approvedDonors: 2, requestsFulfilled: 1 });

    // A suspended donor leaves the count.
    const suspended = await subject.app.inject({
      method: 'POST',
      url: `/api/v1/admin/donors/${donor.row.id}/suspend`,
      headers: admin.headers,
      payload: { reason: 'Reported by a hospital for misuse.' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    clock += STATS_CACHE_MS;
    expect(await figures()).toMatchObject({ approvedDonors: 1, requestsFulfilled: 1 });
  });

  it('answers 304 while the client’s copy is current, 200 once the figures change', async () => {
    const first = await stats();
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await stats({ 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await insertFacility(9);
    clock += STATS_CACHE_MS;
    const changed = await stats({ 'if-none-match': first.headers.etag as string });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.facilitiesListed).toBe(1);
  });

  it('ignores query strings and is rate-limited per address', async () => {
    expect((await subject.app.inject({ url: `${STATS}?x=1` })).statusCode).toBe(200);
    let last = 0;
    for (let i = 0; i <= SITE_RATE_LIMITS.stats.max; i += 1) {
      last = (await subject.app.inject({ url: STATS, remoteAddress: '203.0.113.9' })).statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('OpenAPI', () => {
  it('documents the public stats and the facility facets as extensions', async () => {
    const doc = (await subject.app.inject({ url: '/api/docs/json' })).json();
    const stats = doc.paths['/api/v1/public/stats'].get;
    expect(stats.tags).toEqual(['site']);
    expect(stats.description).toMatch(/^Extension\./);
    expect(Object.keys(stats.responses)).toEqual(expect.arrayContaining(['200', '304', '429']));
    const facets = doc.paths['/api/v1/public/facilities/facets'].get;
    expect(facets.tags).toEqual(['facilities']);
    expect(facets.description).toMatch(/^Extension\./);
    const nearby = doc.paths['/api/v1/public/facilities/nearby'].get;
    expect(nearby.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        'lat',
        'lng',
        'pincode',
        'place',
        'components',
        'apheresis',
        'open24x7',
      ]),
    );
    expect(Object.keys(nearby.responses)).toContain('404');
    expect(nearby.description).toMatch(/radius widens with the confidence/);
    const places = doc.paths['/api/v1/public/places'].get;
    expect(places.description).toMatch(/^Extension\./);
    expect(places.parameters.map((p: { name: string }) => p.name)).toEqual(['q', 'limit']);
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain('site');
  });
});
