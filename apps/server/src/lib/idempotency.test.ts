import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bloodRequests, idempotencyKeys } from '../db/schema';
import { requestBody } from '../test/blood-request-helpers';
import { createTestApp } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { createIdempotency, fingerprint, IDEMPOTENCY_TTL_MS } from './idempotency';

/**
 * Issue #22: the 24-hour idempotency window, at its edges, with a moved clock, and the body's keys
 * in another order. Inverting the pruning arithmetic or the window check fails these.
 */
const SECRET = 'test-secret';
let testDb: TestDatabase;
let clock = Date.UTC(2026, 10, 25, 20, 0, 0); // 01:30 IST on 26 Nov: the next Indian day
const start = clock;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterEach(async () => {
  clock = start;
  await testDb.truncate();
});
afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
const idempotency = () => createIdempotency(db(), () => clock);

/** Runs `key` with a body; the work answers with how many times it has run so far. */
function runner() {
  let runs = 0;
  return {
    get runs() {
      return runs;
    },
    run(key: string, body: unknown) {
      return idempotency().run(
        { key, route: 'POST /things', requestHash: fingerprint(body, SECRET) },
        async () => {
          runs += 1;
          return { statusCode: 201, body: { run: runs } };
        },
      );
    },
  };
}

describe('the idempotency window (24 hours)', () => {
  it('replays the first reply up to the last millisecond of the window, without running again', async () => {
    const work = runner();
    expect(await work.run('k1', { a: 1 })).toEqual({
      statusCode: 201,
      body: { run: 1 },
      replayed: false,
    });
    clock = start + IDEMPOTENCY_TTL_MS - 1;
    expect(await work.run('k1', { a: 1 })).toEqual({
      statusCode: 201,
      body: { run: 1 },
      replayed: true,
    });
    expect(work.runs).toBe(1);
  });

  it('runs afresh once the window has passed, and keeps the new reply', async () => {
    const work = runner();
    await work.run('k1', { a: 1 });
    clock = start + IDEMPOTENCY_TTL_MS + 1;
    expect(await work.run('k1', { a: 1 })).toMatchObject({ body: { run: 2 }, replayed: false });
    const rows = await db().select().from(idempotencyKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.createdAt.getTime()).toBe(clock);
    // …and that new reply is what a retry within the new window gets.
    clock += 1000;
    expect(await work.run('k1', { a: 1 })).toMatchObject({ body: { run: 2 }, replayed: true });
  });

  it('prunes keys older than the window and keeps the younger ones', async () => {
    const work = runner();
    await work.run('old', {});
    clock = start + 2 * 3_600_000;
    await work.run('young', {});
    clock = start + IDEMPOTENCY_TTL_MS + 1; // `old` is past the window, `young` is 2 hours inside
    await work.run('trigger', {});
    const keys = (await db().select().from(idempotencyKeys)).map((row) => row.key).sort();
    expect(keys).toEqual(['trigger', 'young']);
  });

  it('treats the same body with its keys in another order as the same request', async () => {
    const work = runner();
    await work.run('k1', { a: 1, b: { c: 2, d: [1, { e: 3, f: 4 }] } });
    const again = await work.run('k1', { b: { d: [1, { f: 4, e: 3 }], c: 2 }, a: 1 });
    expect(again).toMatchObject({ body: { run: 1 }, replayed: true });
    // A different value is a different request: the key may not be reused for it.
    await expect(work.run('k1', { a: 2, b: { c: 2, d: [1, { e: 3, f: 4 }] } })).rejects.toThrow(
      /already used for a different request/,
    );
    // Array order is meaningful.
    await expect(work.run('k1', { a: 1, b: { c: 2, d: [{ e: 3, f: 4 }, 1] } })).rejects.toThrow(
      /already used/,
    );
  });
});

describe('a retried blood request with its JSON keys reordered', () => {
  it('creates one request and replays the first reply', async () => {
    const app = await createTestApp({
      database: testDb.database,
      services: { backgroundJobs: false },
    });
    try {
      const body = requestBody();
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
      const send = (payload: object) =>
        app.app.inject({
          method: 'POST',
          url: '/api/v1/blood-requests',
          headers: { 'x-request-id': 'retry-reordered-1', 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
          remoteAddress: '192.0.2.77',
        });
      const first = await send(body);
      expect(first.statusCode, first.body).toBe(201);
      const retry = await send(reordered);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.json().data.request.id).toBe(first.json().data.request.id);
      expect(await db().select().from(bloodRequests)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
