import { CLIENT_LOG_LIMITS, DAY } from '@bdms/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientLogs } from '../../db/schema';
import { bearer, loginAs, seedUser } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { CLIENT_LOGS_RATE_LIMIT } from './client-logs.routes';
import { createClientLogsService, hashLogAddress, pathOnly } from './client-logs.service';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({ database: testDb.database, services: { backgroundJobs: false } });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

const ENTRY = {
  level: 'error',
  message: "TypeError: Cannot read properties of undefined (reading 'map')",
  timestamp: '2026-05-01T10:15:00.000Z',
  category: 'error',
  url: 'https://blood.example.in/reset-password?token=secret-token#top',
  stack: 'TypeError: ...\n    at DonorList (donor-list.tsx:12:5)',
  context: { errorId: 'ERR-7F3K2' },
} as const;

let addressSequence = 0;
/** Every test gets its own address, so the per-address limit of one test does not reach another. */
function nextAddress(): string {
  addressSequence += 1;
  return `198.51.100.${addressSequence}`;
}

function send(
  payload: unknown,
  options: { address?: string; headers?: Record<string, string> } = {},
) {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/client-logs',
    payload: payload as never,
    remoteAddress: options.address ?? nextAddress(),
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 10) Chrome/124', ...options.headers },
  });
}

describe('POST /api/v1/client-logs', () => {
  it('stores an anonymous batch, keeping only the path of the page address', async () => {
    const address = nextAddress();
    const res = await send(
      {
        entries: [ENTRY, { level: 'info', message: 'LCP 1800 ms', timestamp: ENTRY.timestamp }],
        sessionId: 'visit-1',
        clientVersion: '1.2.3',
      },
      { address },
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ success: true, data: { accepted: 2 } });

    const rows = await db().select().from(clientLogs);
    expect(rows).toHaveLength(2);
    const error = rows.find((row) => row.level === 'error')!;
    expect(error).toMatchObject({
      message: ENTRY.message,
      category: 'error',
      url: '/reset-password',
      stack: ENTRY.stack,
      context: { errorId: 'ERR-7F3K2' },
      sessionId: 'visit-1',
      clientVersion: '1.2.3',
      userAgent: 'Mozilla/5.0 (Linux; Android 10) Chrome/124',
      userId: null,
      ipHash: hashLogAddress(address, subject.config.jwtSecret),
    });
    expect(error.occurredAt.toISOString()).toBe(ENTRY.timestamp);
    expect(JSON.stringify(rows)).not.toContain('secret-token');
    expect(JSON.stringify(rows)).not.toContain(address);
  });

  it('attaches the user when a valid access token comes with the batch', async () => {
    const donor = await seedUser(db(), { role: 'donor' });
    const { tokens } = await loginAs(subject.app, donor);
    const res = await send({ entries: [ENTRY] }, { headers: bearer(tokens.accessToken) });
    expect(res.statusCode, res.body).toBe(202);
    const [row] = await db().select().from(clientLogs);
    expect(row?.userId).toBe(donor.row.id);
  });

  it('accepts a batch with a bad token as anonymous', async () => {
    const res = await send({ entries: [ENTRY] }, { headers: bearer('not-a-real-token') });
    expect(res.statusCode, res.body).toBe(202);
    const [row] = await db().select().from(clientLogs);
    expect(row?.userId).toBeNull();
  });

  it.each([
    ['no entries', { entries: [] }, 'body.entries'],
    [
      'too many entries',
      { entries: Array.from({ length: CLIENT_LOG_LIMITS.maxEntries + 1 }, () => ENTRY) },
      'body.entries',
    ],
    ['an unknown level', { entries: [{ ...ENTRY, level: 'fatal' }] }, 'body.entries.0.level'],
    [
      'a message that is too long',
      { entries: [{ ...ENTRY, message: 'x'.repeat(CLIENT_LOG_LIMITS.messageMax + 1) }] },
      'body.entries.0.message',
    ],
    [
      'a stack that is too long',
      { entries: [{ ...ENTRY, stack: 'x'.repeat(CLIENT_LOG_LIMITS.stackMax + 1) }] },
      'body.entries.0.stack',
    ],
    [
      'too much context',
      { entries: [{ ...ENTRY, context: { blob: 'x'.repeat(CLIENT_LOG_LIMITS.contextMaxBytes) } }] },
      'body.entries.0.context',
    ],
    [
      'a bad timestamp',
      { entries: [{ ...ENTRY, timestamp: 'yesterday' }] },
      'body.entries.0.timestamp',
    ],
    ['an unknown field', { entries: [{ ...ENTRY, password: 'x' }] }, 'body.entries.0.password'],
  ])('refuses %s with 400 VALIDATION_ERROR and stores nothing', async (_name, payload, path) => {
    const res = await send(payload);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await db().select().from(clientLogs)).toHaveLength(0);
  });

  it('refuses a body over the size limit with 413', async () => {
    const entries = Array.from({ length: CLIENT_LOG_LIMITS.maxEntries }, () => ({
      ...ENTRY,
      stack: 'x'.repeat(CLIENT_LOG_LIMITS.stackMax),
    }));
    const res = await send({ entries });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses malformed JSON with 400 and text/plain with 415', async () => {
    const malformed = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/client-logs',
      payload: '{"entries": [',
      headers: { 'content-type': 'application/json' },
      remoteAddress: nextAddress(),
    });
    expect(malformed.statusCode).toBe(400);
    const text = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/client-logs',
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
      remoteAddress: nextAddress(),
    });
    expect(text.statusCode).toBe(415);
  });

  it(`allows ${CLIENT_LOGS_RATE_LIMIT.max} batches a minute per address, then 429 with Retry-After`, async () => {
    const address = nextAddress();
    for (let index = 0; index < CLIENT_LOGS_RATE_LIMIT.max; index++) {
      const res = await send({ entries: [ENTRY] }, { address });
      expect(res.statusCode).toBe(202);
    }
    const limited = await send({ entries: [ENTRY] }, { address });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await send({ entries: [ENTRY] })).statusCode).toBe(202);
    expect(await db().select().from(clientLogs)).toHaveLength(CLIENT_LOGS_RATE_LIMIT.max + 1);
  });
});

describe('the shared budget of anonymous reports', () => {
  /** One report of `bytes` (give or take an entry's 1.7 KB). */
  const reportOf = (bytes: number, message: string) => {
    const entry = { ...ENTRY, message, stack: 'x'.repeat(1500) };
    const size = JSON.stringify(entry).length + 1;
    return { entries: Array.from({ length: Math.round(bytes / size) }, () => entry) };
  };

  it(`refuses anonymous reports from any address once ${CLIENT_LOG_LIMITS.anonymousBytesPerMinute / 1024} KB arrived in the minute, in every server process`, async () => {
    let now = Date.parse('2026-05-01T10:00:05Z');
    const clock = { services: { backgroundJobs: false, now: () => now } };
    // Two server processes on one database.
    const first = await createTestApp({ database: testDb.database, ...clock });
    const second = await createTestApp({ database: testDb.database, ...clock });
    try {
      const donor = await seedUser(db(), { role: 'donor' });
      const { tokens } = await loginAs(first.app, donor);
      const post = (app: TestApp['app'], payload: unknown, headers: Record<string, string> = {}) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/client-logs',
          payload: payload as never,
          remoteAddress: nextAddress(),
          headers,
        });
      let accepted = 0;
      let refused: Awaited<ReturnType<typeof post>> | null = null;
      // ~50 KB each from a new address each time, alternating between the processes.
      for (let i = 0; i < 20 && !refused; i += 1) {
        const res = await post(i % 2 ? second.app : first.app, reportOf(50 * 1024, `spam ${i}`));
        if (res.statusCode === 202) accepted += 1;
        else refused = res;
      }
      // 512 KB / ~50 KB: ten fit, the eleventh does not.
      expect(accepted).toBeGreaterThanOrEqual(9);
      expect(accepted).toBeLessThanOrEqual(11);
      expect(refused?.statusCode).toBe(429);
      expect(refused?.json()).toEqual({
        success: false,
        error: { code: 'RATE_LIMITED', message: expect.stringMatching(/try again in 55 seconds/) },
      });
      expect(refused?.headers['retry-after']).toBe('55');
      // Small reports are refused too, by both processes, and nothing refused is stored.
      expect((await post(first.app, { entries: [ENTRY] })).statusCode).toBe(429);
      expect((await post(second.app, { entries: [ENTRY] })).statusCode).toBe(429);
      const perReport = reportOf(50 * 1024, 'spam').entries.length;
      expect(await db().select().from(clientLogs)).toHaveLength(accepted * perReport);
      // A signed-in report is tied to an account: not counted against the anonymous budget.
      const signedIn = await post(first.app, { entries: [ENTRY] }, bearer(tokens.accessToken));
      expect(signedIn.statusCode).toBe(202);
      // The next minute has a new budget.
      now += 60_000;
      expect((await post(second.app, { entries: [ENTRY] })).statusCode).toBe(202);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it(`refuses a report over ${CLIENT_LOG_LIMITS.bodyMaxBytes / 1024} KB with 413 and stores nothing`, async () => {
    const res = await send(reportOf(CLIENT_LOG_LIMITS.bodyMaxBytes + 2048, 'big'));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) },
    });
    expect(await db().select().from(clientLogs)).toHaveLength(0);
    // Just under the cap is fine.
    const fits = await send(reportOf(CLIENT_LOG_LIMITS.bodyMaxBytes - 4096, 'fits'));
    expect(fits.statusCode, fits.body).toBe(202);
  });
});

describe('GET /api/v1/admin/client-logs', () => {
  async function seedLogs() {
    await send({
      entries: [
        { ...ENTRY, message: 'first error', timestamp: '2026-05-01T10:00:00.000Z' },
        { level: 'warn', message: 'slow page', timestamp: '2026-05-01T10:01:00.000Z' },
        { level: 'info', message: 'LCP 1800 ms', timestamp: '2026-05-01T10:02:00.000Z' },
      ],
    });
    await send({
      entries: [{ ...ENTRY, message: 'second error', timestamp: '2026-05-01T11:00:00.000Z' }],
    });
  }

  it('is refused without a token (401) and for donors and hospitals (403)', async () => {
    await seedLogs();
    const anonymous = await subject.app.inject({ method: 'GET', url: '/api/v1/admin/client-logs' });
    expect(anonymous.statusCode).toBe(401);
    for (const role of ['donor', 'hospital'] as const) {
      const { tokens } = await loginAs(subject.app, await seedUser(db(), { role }));
      const res = await subject.app.inject({
        method: 'GET',
        url: '/api/v1/admin/client-logs',
        headers: bearer(tokens.accessToken),
      });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('first error');
    }
  });

  it('lists entries newest first for an admin, paginated and filtered by level', async () => {
    await seedLogs();
    const { tokens } = await loginAs(subject.app, await seedUser(db(), { role: 'admin' }));
    const headers = bearer(tokens.accessToken);

    const all = await subject.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client-logs?pageSize=2',
      headers,
    });
    expect(all.statusCode, all.body).toBe(200);
    const page = all.json().data;
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({ level: 'error', message: 'second error' });
    expect(page.items[0]).not.toHaveProperty('ipHash');

    const errors = await subject.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client-logs?level=error',
      headers,
    });
    expect(errors.json().data.total).toBe(2);
    expect(errors.json().data.items.map((item: { message: string }) => item.message)).toEqual([
      'second error',
      'first error',
    ]);

    const bad = await subject.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client-logs?level=fatal',
      headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('client logs retention', () => {
  it(`deletes entries older than ${CLIENT_LOG_LIMITS.retentionDays} days when a batch arrives`, async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const service = createClientLogsService({ db: db(), secret: 'test', now: () => now });
    const sender = { ip: '203.0.113.1', userAgent: null, userId: null, bytes: 100 };
    const entry = { level: 'warn' as const, message: 'old', timestamp: '2025-12-31T23:00:00Z' };
    await service.record({ entries: [entry] }, sender);
    now += CLIENT_LOG_LIMITS.retentionDays * DAY + 1;
    await service.record({ entries: [{ ...entry, message: 'new' }] }, sender);
    const rows = await db().select().from(clientLogs);
    expect(rows.map((row) => row.message)).toEqual(['new']);
  });

  it('keeps only the path of page addresses', () => {
    expect(pathOnly('https://x.example/articles/a?token=1#b')).toBe('/articles/a');
    expect(pathOnly('/blood-banks?state=Goa')).toBe('/blood-banks');
    expect(pathOnly(undefined)).toBeNull();
  });
});
