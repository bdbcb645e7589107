import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { seedUser } from '../test/auth-helpers';
import { encodeRows, insertJsonRows } from './json-rows';
import { ph, prebuilt } from './prebuilt';
import { notificationDeliveries, notifications, type NewNotificationRow } from './schema';

describe('rows inserted from one JSON parameter', () => {
  let testDb: TestDatabase;
  const db = () => testDb.database.db;
  let userId: string;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  beforeEach(async () => {
    await testDb.truncate();
    userId = (await seedUser(db())).row.id;
  });
  afterAll(async () => {
    await testDb?.close();
  });

  let builds = 0;
  const insertBoth = prebuilt<{ n: string; d: string }, unknown>((handle) => {
    builds += 1;
    return {
      main: insertJsonRows(handle, notifications, ph('n')) as unknown as PromiseLike<unknown>,
      alongside: [insertJsonRows(handle, notificationDeliveries, ph('d'))],
    };
  });

  const notification = (overrides: Partial<NewNotificationRow> = {}): NewNotificationRow => ({
    id: randomUUID(),
    userId,
    type: 'blood_request.critical',
    title: "O- needed: it's urgent",
    message: 'Line one\nline two, "quoted", \\ and ₹ अस्पताल',
    link: null,
    createdAt: new Date('2026-11-25T18:40:00.123Z'),
    ...overrides,
  });

  it('writes each value as Drizzle’s own insert would, and the defaults of what is left out', async () => {
    const viaJson = notification();
    const viaDrizzle = notification({ id: randomUUID() });
    const deliveryJson = {
      notificationId: viaJson.id,
      channel: 'sms' as const,
      destination: '+919300000001',
      payload: { text: 'O- needed', lang: 'hi' },
      critical: true,
      nextAttemptAt: new Date('2026-11-25T18:41:00.456Z'),
    };
    await insertBoth(db(), {
      n: encodeRows(notifications, [viaJson]),
      d: encodeRows(notificationDeliveries, [deliveryJson]),
    });
    await db().insert(notifications).values(viaDrizzle);
    await db()
      .insert(notificationDeliveries)
      .values({ ...deliveryJson, notificationId: viaDrizzle.id });

    const rows = await db().select().from(notifications);
    const json = rows.find((row) => row.id === viaJson.id)!;
    const drizzle = rows.find((row) => row.id === viaDrizzle.id)!;
    expect(json).toEqual({ ...drizzle, id: viaJson.id });
    expect(json.title).toBe(viaJson.title);
    expect(json.message).toBe(viaJson.message);
    expect(json.createdAt.toISOString()).toBe('2026-11-25T18:40:00.123Z');
    expect(json.readAt).toBeNull();

    const deliveries = await db().select().from(notificationDeliveries);
    const deliveredJson = deliveries.find((row) => row.notificationId === viaJson.id)!;
    const deliveredDrizzle = deliveries.find((row) => row.notificationId === viaDrizzle.id)!;
    // The database's defaults: a new id, queued, no attempt, now.
    expect(deliveredJson.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(deliveredJson.id).not.toBe(deliveredDrizzle.id);
    expect(deliveredJson).toMatchObject({
      status: 'queued',
      attempts: 0,
      overBudget: false,
      critical: true,
      payload: { text: 'O- needed', lang: 'hi' },
      lastError: null,
      sentAt: null,
    });
    expect(Math.abs(deliveredJson.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const comparable = (row: typeof deliveredJson) => ({
      ...row,
      id: null,
      notificationId: null,
      createdAt: null,
    });
    expect(comparable(deliveredJson)).toEqual(comparable(deliveredDrizzle));
  });

  it('takes any number of rows, none included, with one build', async () => {
    const before = builds;
    for (const count of [0, 1, 3]) {
      const rows = Array.from({ length: count }, () => notification());
      await insertBoth(db(), {
        n: encodeRows(notifications, rows),
        d: encodeRows(notificationDeliveries, []),
      });
    }
    expect(builds - before).toBeLessThanOrEqual(1);
    const rows = await db().select().from(notifications).orderBy(asc(notifications.createdAt));
    expect(rows).toHaveLength(4);
  });

  it('keeps nothing when one row fails (a delivery pointing at no notification)', async () => {
    const kept = notification();
    await expect(
      insertBoth(db(), {
        n: encodeRows(notifications, [kept]),
        d: encodeRows(notificationDeliveries, [{ notificationId: randomUUID(), channel: 'email' }]),
      }),
    ).rejects.toThrow();
    expect(await db().select().from(notifications).where(eq(notifications.id, kept.id!))).toEqual(
      [],
    );
  });
});
