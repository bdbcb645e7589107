import type * as NodeCrypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { activityLog, bloodRequestHistory, bloodRequests } from '../../db/schema';
import { requestBody } from '../../test/blood-request-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

/**
 * A tracking code already taken (issue #20): the request, its history step and its audit entry
 * go in one statement, so a collision fails the whole transaction; it is taken again with a new
 * code, and nothing of the failed attempt stays. randomInt is steered to draw a taken code.
 */
const steer = vi.hoisted(() => ({ zeros: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof NodeCrypto>();
  const randomInt = ((...args: unknown[]) => {
    if (steer.zeros > 0 && args.length === 1) {
      steer.zeros -= 1;
      return 0;
    }
    return (crypto.randomInt as (...a: unknown[]) => number)(...args);
  }) as typeof crypto.randomInt;
  return { ...crypto, default: { ...crypto, randomInt }, randomInt };
});

let testDb: TestDatabase;
let subject: TestApp;
beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp({
    database: testDb.database,
    services: { backgroundJobs: false },
  });
});
afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

function create(
  body: Record<string, unknown> = requestBody({ urgency: 'urgent' }),
  headers: Record<string, string> = {},
) {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: body,
    headers,
    remoteAddress: '192.0.2.40',
  });
}

it('a request whose tracking code is taken is made again with another, and keeps one trail', async () => {
  steer.zeros = 8;
  const first = await create();
  expect(first.statusCode, first.body).toBe(201);
  const taken = first.json().data.request.trackingCode as string;
  expect(taken).toBe('22222222');

  // The second request draws the same code first.
  steer.zeros = 8;
  const second = await create();
  expect(second.statusCode, second.body).toBe(201);
  expect(steer.zeros).toBe(0);
  const { id, trackingCode } = second.json().data.request as { id: string; trackingCode: string };
  expect(trackingCode).not.toBe(taken);
  expect(trackingCode).toMatch(/^[2-9A-Z]{8}$/);

  const db = testDb.database.db;
  const rows = await db.select({ id: bloodRequests.id }).from(bloodRequests);
  expect(rows).toHaveLength(2);
  const history = await db
    .select()
    .from(bloodRequestHistory)
    .where(eq(bloodRequestHistory.requestId, id));
  expect(history.map((step) => step.status)).toEqual(['pending']);
  const created = await db
    .select({ targetId: activityLog.targetId, details: activityLog.details })
    .from(activityLog)
    .where(eq(activityLog.action, 'blood_request.created'));
  expect(created.map((entry) => entry.targetId).sort()).toEqual(
    [first.json().data.request.id, id].sort(),
  );
  expect(created.find((entry) => entry.targetId === id)?.details).toMatchObject({ trackingCode });
});

it('with an X-Request-ID, the retry claims the key again, and a replay returns the one request', async () => {
  const db = testDb.database.db;
  // The code every steered draw gives is taken (by the first test, or here).
  const holder = () =>
    db
      .select({ id: bloodRequests.id })
      .from(bloodRequests)
      .where(eq(bloodRequests.trackingCode, '22222222'));
  if ((await holder()).length === 0) {
    steer.zeros = 8;
    expect((await create()).statusCode).toBe(201);
  }
  expect(await holder()).toHaveLength(1);
  const before = (await db.select({ id: bloodRequests.id }).from(bloodRequests)).length;

  const body = requestBody({ urgency: 'critical' });
  const headers = { 'x-request-id': 'collision-retry-1' };
  steer.zeros = 8;
  const first = await create(body, headers);
  expect(first.statusCode, first.body).toBe(201);
  expect(steer.zeros).toBe(0);
  const again = await create(body, headers);
  expect(again.statusCode).toBe(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json().data.request.id).toBe(first.json().data.request.id);
  expect(again.json().data.request.trackingCode).not.toBe('22222222');
  expect(await db.select({ id: bloodRequests.id }).from(bloodRequests)).toHaveLength(before + 1);
});
