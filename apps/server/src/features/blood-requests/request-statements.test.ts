import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  bloodRequestHistory,
  bloodRequests,
  notificationDeliveries,
  notifications,
} from '../../db/schema';
import { seedUser } from '../../test/auth-helpers';
import { countQueries } from '../../test/query-counter';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../../test/test-database';
import { insertRequest } from './request-statements';

/** A request's first history step, by a guest. */
const history = (id: string, at: Date) => ({
  requestId: id,
  status: 'pending' as const,
  notes: null,
  by: null,
  byRole: 'guest' as const,
  at,
});

describe('a new request in one statement (request-statements.ts)', () => {
  let testDb: TestDatabase;
  const db = () => testDb.database.db;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  beforeEach(async () => {
    await testDb.truncate();
  });
  afterAll(async () => {
    await testDb?.close();
  });

  function row() {
    const at = new Date('2026-11-25T19:04:05.678Z');
    return {
      id: randomUUID(),
      trackingCode: 'K7M2Q9XP',
      status: 'pending' as const,
      urgency: 'critical' as const,
      bloodType: 'AB-' as const,
      unitsNeeded: 3,
      patientName: null,
      hospitalName: 'Nizam’s Institute',
      hospitalNameKey: 'nizams institute',
      facilityId: null,
      hospitalId: null,
      city: 'Hyderabad',
      state: 'Telangana',
      address: null,
      pincode: '500082',
      latitude: 17.423456789012345,
      longitude: 78.45,
      locationSource: 'pincode' as const,
      contactName: 'Lakshmi',
      contactPhone: '+919300000007',
      contactEmail: null,
      requiredBy: null,
      expiresAt: new Date(at.getTime() + 86_400_000),
      notes: 'Ward 4, "B" block',
      language: 'hi',
      createdBy: null,
      createdByRole: 'guest' as const,
      requesterIpHash: 'abc',
      createdAt: at,
      updatedAt: at,
    };
  }

  it('returns the row exactly as the database holds it, though it reads back only the defaults', async () => {
    const given = row();
    const returned = await insertRequest(db(), given, {
      history: history(given.id, given.createdAt),
    });
    const [stored] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, given.id));
    expect(returned).toEqual(stored);
    expect(Object.keys(returned).sort()).toEqual(Object.keys(stored!).sort());
    expect(returned).toMatchObject({ matchRound: 0, verifiedAt: null, isDemo: false });
  });

  it('writes the notifications it is given in the same statement as the request and its trail', async () => {
    const admin = await seedUser(db(), { role: 'admin' });
    const given = row();
    const notificationId = randomUUID();
    const { queries } = await countQueries(testDb.database, () =>
      insertRequest(
        db(),
        given,
        {
          history: history(given.id, given.createdAt),
          activity: [
            {
              action: 'blood_request.created',
              actorId: null,
              actorRole: null,
              targetType: 'blood_request',
              targetId: given.id,
              details: { trackingCode: given.trackingCode },
              requestId: null,
            },
          ],
        },
        {
          ids: [notificationId],
          notifications: [
            {
              id: notificationId,
              userId: admin.row.id,
              type: 'blood_request.critical',
              title: 'Critical request',
              message: '3 unit(s) of AB- at Nizam’s Institute',
              link: '/admin/requests',
              createdAt: given.createdAt,
            },
          ],
          deliveries: [{ notificationId, channel: 'email', critical: true }],
        },
      ),
    );
    expect(queries).toHaveLength(1);
    expect(await db().select().from(bloodRequestHistory)).toHaveLength(1);
    expect(
      await db().select().from(activityLog).where(eq(activityLog.targetId, given.id)),
    ).toHaveLength(1);
    const [told] = await db().select().from(notifications);
    expect(told).toMatchObject({
      id: notificationId,
      userId: admin.row.id,
      type: 'blood_request.critical',
    });
    const [delivery] = await db().select().from(notificationDeliveries);
    expect(delivery).toMatchObject({
      notificationId,
      channel: 'email',
      status: 'queued',
      critical: true,
    });
  });

  it.runIf(wantsPostgres())(
    'held for the commit on a connection that has it prepared: the same row, and a failure fails the commit',
    async () => {
      // The first prepares it on the connection; the pool hands the same one back next.
      const first = row();
      await db().transaction((tx) =>
        insertRequest(tx, first, { history: history(first.id, first.createdAt) }),
      );
      const given = { ...row(), trackingCode: 'H3LDK7QZ' };
      const { result: answer, queries } = await countQueries(testDb.database, () =>
        db().transaction((tx) =>
          insertRequest(tx, given, { history: history(given.id, given.createdAt) }),
        ),
      );
      expect(queries).toEqual([expect.stringMatching(/^\/\* with next \*\/ execute bdms_/)]);
      const stored = await db().select().from(bloodRequests).where(eq(bloodRequests.id, given.id));
      expect(answer).toEqual(stored[0]);
      const again = { ...row(), trackingCode: 'H3LDK7QZ' };
      const held = db().transaction(async (tx) => {
        const answer = await insertRequest(tx, again, {
          history: history(again.id, again.createdAt),
        });
        // Held: nothing has failed yet, and the row as it would be is returned.
        expect(answer).toMatchObject({ id: again.id, matchRound: 0, isDemo: false });
      });
      await expect(held).rejects.toMatchObject({ cause: { code: '23505' } });
      expect(await db().select().from(bloodRequests).where(eq(bloodRequests.id, again.id))).toEqual(
        [],
      );
      expect(
        await db()
          .select()
          .from(bloodRequestHistory)
          .where(eq(bloodRequestHistory.requestId, again.id)),
      ).toEqual([]);
    },
  );
});
