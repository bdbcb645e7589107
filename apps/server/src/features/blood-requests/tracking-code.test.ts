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

function create() {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: requestBody({ urgency: 'urgent' }),
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
