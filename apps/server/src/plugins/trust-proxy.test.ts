import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app';
import { createTestApp, type TestApp } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';

const ALLOWED = '203.0.113.7';

function addressRoutes(app: App) {
  app.get(
    '/api/v1/test/address',
    { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } },
    async (request) => ({ success: true, data: { ip: request.ip, protocol: request.protocol } }),
  );
}

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
// On PostgreSQL the limits live in the database (issue #19), shared by every app of this file
// as by every instance of a deployment: each test starts with none counted.
afterEach(async () => {
  await testDb.truncate();
});
afterAll(async () => {
  await testDb?.close();
});

async function withApp(env: Record<string, string>, run: (subject: TestApp) => Promise<void>) {
  const subject = await createTestApp({
    env: { RATE_LIMIT_ALLOWLIST: ALLOWED, ...env },
    database: testDb.database,
    services: { backgroundJobs: false },
    extraRoutes: addressRoutes,
  });
  try {
    await run(subject);
  } finally {
    await subject.close();
  }
}

/** A request as the proxy at 10.0.0.2 forwards it: the proxy appends the peer it saw. */
const viaProxy = (app: App, forwardedFor: string) =>
  app.inject({
    url: '/api/v1/test/address',
    remoteAddress: '10.0.0.2',
    headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
  });

describe('TRUST_PROXY', () => {
  it('with one hop, a client-written X-Forwarded-For entry neither picks request.ip nor claims the allow list', async () => {
    await withApp({ TRUST_PROXY: '1' }, async ({ app }) => {
      // The client sent "X-Forwarded-For: 203.0.113.7"; the proxy appended the real peer.
      const first = await viaProxy(app, `${ALLOWED}, 198.51.100.20`);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toEqual({ ip: '198.51.100.20', protocol: 'https' });
      // Limited like any other address (max 1 a minute): the allow list was not claimed.
      const second = await viaProxy(app, `${ALLOWED}, 198.51.100.20`);
      expect(second.statusCode).toBe(429);
      expect(second.json().error.code).toBe('RATE_LIMITED');
      // Changing the forged part does not give a new identity either.
      const third = await viaProxy(app, `192.0.2.99, 198.51.100.20`);
      expect(third.statusCode).toBe(429);
    });
  });

  it('with one hop, the address the proxy saw is the client, allow-listed when it is on the list', async () => {
    await withApp({ TRUST_PROXY: '1' }, async ({ app }) => {
      for (let i = 0; i < 3; i += 1) {
        const res = await viaProxy(app, ALLOWED);
        expect(res.statusCode).toBe(200);
        expect(res.json().data.ip).toBe(ALLOWED);
      }
    });
  });

  it('with address ranges, only hops from those ranges are skipped', async () => {
    await withApp({ TRUST_PROXY: '10.0.0.0/8' }, async ({ app }) => {
      // 10.1.1.1 is an inner proxy in the range; 198.51.100.20 is the first untrusted hop.
      const res = await viaProxy(app, `${ALLOWED}, 198.51.100.20, 10.1.1.1`);
      expect(res.json().data.ip).toBe('198.51.100.20');
      // A peer outside the range is the client itself, whatever it claims.
      const direct = await app.inject({
        url: '/api/v1/test/address',
        remoteAddress: '192.0.2.50',
        headers: { 'x-forwarded-for': ALLOWED, 'x-forwarded-proto': 'https' },
      });
      expect(direct.json().data).toEqual({ ip: '192.0.2.50', protocol: 'http' });
    });
  });

  it('off, X-Forwarded-For is ignored', async () => {
    await withApp({}, async ({ app }) => {
      const res = await viaProxy(app, ALLOWED);
      expect(res.json().data).toEqual({ ip: '10.0.0.2', protocol: 'http' });
    });
  });
});
