import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../app';
import { bearer, loginAs, seedUser } from '../test/auth-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';

let testDb: TestDatabase;
let subject: TestApp;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
beforeEach(async () => {
  subject = await createTestApp({
    database: testDb.database,
    services: { backgroundJobs: false },
    extraRoutes: whoRoute,
  });
});
afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});
afterAll(async () => {
  await testDb?.close();
});
const t = {
  get app() {
    return subject.app;
  },
  get db() {
    return testDb.database.db;
  },
};

/** A badly written public route whose reply depends on the caller, behind the micro-cache. */
function whoRoute(app: App) {
  app.get(
    '/api/v1/test/who',
    { config: { microCache: true }, preHandler: app.identify },
    async (request, reply) =>
      reply
        .header('cache-control', 'public, max-age=60')
        .header('etag', `W/"${request.user?.id ?? 'guest'}"`)
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ success: true, data: { id: request.user?.id ?? null } })),
  );
}

describe('Cache-Control of signed-in replies', () => {
  it('is no-store on signed-in JSON replies of every kind', async () => {
    const donor = await seedUser(t.db, { role: 'donor' });
    const admin = await seedUser(t.db, { role: 'admin' });
    const donorAuth = bearer((await loginAs(t.app, donor)).tokens.accessToken);
    const adminAuth = bearer((await loginAs(t.app, admin, '203.0.113.11')).tokens.accessToken);
    const calls = [
      { url: '/api/v1/auth/me', headers: donorAuth, status: 200 },
      { url: `/api/v1/users/${donor.row.id}`, headers: donorAuth, status: 200 },
      { url: '/api/v1/notifications', headers: donorAuth, status: 200 },
      { url: `/api/v1/users/${donor.row.id}/activity`, headers: donorAuth, status: 200 },
      { url: '/api/v1/admin/donors', headers: adminAuth, status: 200 },
      { url: '/api/v1/admin/requests/summary', headers: adminAuth, status: 200 },
      // Errors too: a 403 and a 404 carry no-store like the 200s.
      { url: '/api/v1/admin/donors', headers: donorAuth, status: 403 },
      {
        url: `/api/v1/users/00000000-0000-4000-8000-000000000000`,
        headers: adminAuth,
        status: 404,
      },
    ];
    for (const { status, ...call } of calls) {
      const res = await t.app.inject(call);
      expect(res.statusCode, `${call.url} ${res.body}`).toBe(status);
      expect(res.headers['content-type'], call.url).toMatch(/^application\/json/);
      expect(res.headers['cache-control'], `${call.url} ${res.statusCode}`).toBe('no-store');
    }
    // A PATCH of the profile, read back: also no-store.
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${donor.row.id}`,
      headers: donorAuth,
      payload: { city: 'Pune' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.headers['cache-control']).toBe('no-store');
  });

  it('is no-store on the sign-in reply that carries the tokens', async () => {
    const donor = await seedUser(t.db, { role: 'donor' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: donor.row.email, password: donor.password },
    });
    expect(res.json().data.tokens.accessToken).toEqual(expect.any(String));
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps the public caching of public reads, signed in or not', async () => {
    const donor = await seedUser(t.db, { role: 'donor' });
    const auth = bearer((await loginAs(t.app, donor)).tokens.accessToken);
    const signedIn = await t.app.inject({ url: '/api/v1/public/stats', headers: auth });
    const anonymous = await t.app.inject({ url: '/api/v1/public/stats' });
    expect(signedIn.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(anonymous.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
  });
});

describe('the micro-cache and signed-in callers', () => {
  it('never serves a signed-in reply to anyone else, nor a kept reply to a signed-in caller', async () => {
    // /api/v1/test/who (wrongly) varies by caller: the cache must keep callers apart anyway.
    const donor = await seedUser(t.db, { role: 'donor' });
    const auth = bearer((await loginAs(t.app, donor)).tokens.accessToken);
    const mine = await t.app.inject({ url: '/api/v1/test/who', headers: auth });
    expect(mine.json().data.id).toBe(donor.row.id);
    const guest = await t.app.inject({ url: '/api/v1/test/who' });
    expect(guest.json().data.id).toBeNull();
    const mineAgain = await t.app.inject({ url: '/api/v1/test/who', headers: auth });
    expect(mineAgain.json().data.id).toBe(donor.row.id);
  });
});
