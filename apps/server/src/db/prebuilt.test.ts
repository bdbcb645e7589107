import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countQueries } from '../test/query-counter';
import { onTheWire } from '../test/pg-wire';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../test/test-database';
import { placeholdersFor, ph, prebuilt, prebuiltByShape, renumberParameters } from './prebuilt';
import { activityLog, bloodRequestHistory, bloodRequests, type NewBloodRequestRow } from './schema';

describe('renumberParameters', () => {
  it('moves every parameter by the offset, and nothing inside quotes', () => {
    expect(renumberParameters(`insert into "t$1" ("a") values ($1, $2, '$3', $10)`, 5)).toBe(
      `insert into "t$1" ("a") values ($6, $7, '$3', $15)`,
    );
  });
});

describe('prebuilt statements', () => {
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

  function requestRow(overrides: Partial<NewBloodRequestRow> = {}) {
    const at = new Date('2026-11-25T19:00:00.123Z');
    return {
      id: crypto.randomUUID(),
      trackingCode: `T${Math.random().toString(36).slice(2, 9).toUpperCase()}`,
      status: 'pending' as const,
      urgency: 'critical' as const,
      bloodType: 'O-' as const,
      unitsNeeded: 2,
      hospitalName: 'Gandhi Hospital',
      hospitalNameKey: 'gandhi hospital',
      city: 'Secunderabad',
      state: 'Telangana',
      contactName: 'Ravi Kumar',
      contactPhone: '9300000001',
      notes: null,
      expiresAt: new Date(at.getTime() + 86_400_000),
      createdByRole: 'guest' as const,
      createdAt: at,
      updatedAt: at,
      ...overrides,
    };
  }

  let builds = 0;
  const insertWithTrail = prebuiltByShape(
    (values: Record<string, unknown>) => Object.keys(values.r as object).join(','),
    (handle, values) => {
      builds += 1;
      const row = values.r as NewBloodRequestRow;
      return {
        main: handle
          .insert(bloodRequests)
          .values(placeholdersFor(row, 'r') as unknown as NewBloodRequestRow)
          .returning(),
        alongside: [
          handle.insert(bloodRequestHistory).values({
            requestId: ph('h.requestId'),
            status: ph('h.status'),
            byRole: 'guest',
            at: ph('h.at'),
          } as never),
          handle.insert(activityLog).values({
            action: 'test.created',
            targetId: ph('h.requestId'),
            details: ph('details'),
          } as never),
        ],
      };
    },
  );

  it('builds once, runs with each call’s values, and keeps nulls, dates and JSON exact', async () => {
    builds = 0;
    const first = requestRow();
    const second = requestRow({ notes: 'Surgery at 6', contactPhone: '9300000002' });
    for (const row of [first, second]) {
      const { result, queries } = await countQueries(testDb.database, () =>
        insertWithTrail(db(), {
          r: row,
          h: { requestId: row.id, status: 'pending', at: row.createdAt },
          details: row.notes === null ? {} : { notes: row.notes },
        }),
      );
      // The request, its history step and its audit entry: one statement.
      expect(queries).toHaveLength(1);
      expect((result as { id: string }[])[0]).toMatchObject({
        id: row.id,
        notes: row.notes,
        createdAt: row.createdAt,
      });
    }
    expect(builds).toBe(1);

    const stored = await db().select().from(bloodRequests).orderBy(bloodRequests.contactPhone);
    expect(stored.map((r) => [r.id, r.contactPhone, r.notes, r.createdAt.toISOString()])).toEqual([
      [first.id, '9300000001', null, '2026-11-25T19:00:00.123Z'],
      [second.id, '9300000002', 'Surgery at 6', '2026-11-25T19:00:00.123Z'],
    ]);
    const history = await db().select().from(bloodRequestHistory);
    expect(history.map((h) => h.requestId).sort()).toEqual([first.id, second.id].sort());
    const entries = await db()
      .select({
        targetId: activityLog.targetId,
        details: activityLog.details,
      })
      .from(activityLog)
      .where(eq(activityLog.action, 'test.created'));
    expect(entries).toHaveLength(2);
    expect(entries.find((e) => e.targetId === second.id)?.details).toEqual({
      notes: 'Surgery at 6',
    });
  });

  it('a failing part fails the whole statement and keeps nothing', async () => {
    const row = requestRow();
    // The history step points at a request that does not exist: a foreign-key violation.
    await expect(
      insertWithTrail(db(), {
        r: row,
        h: { requestId: crypto.randomUUID(), status: 'pending', at: row.createdAt },
        details: {},
      }),
    ).rejects.toThrow();
    expect(await db().select().from(bloodRequests)).toEqual([]);
    expect(await db().select().from(bloodRequestHistory)).toEqual([]);
  });

  it('runs in a transaction and sees its writes; a missing value is refused before sending', async () => {
    const find = prebuilt((handle) => ({
      main: handle
        .select()
        .from(bloodRequests)
        .where(eq(bloodRequests.id, ph('id'))),
    }));
    const row = requestRow();
    await db().transaction(async (tx) => {
      await insertWithTrail(tx, {
        r: row,
        h: { requestId: row.id, status: 'pending', at: row.createdAt },
        details: {},
      });
      expect(await find(tx, { id: row.id })).toHaveLength(1);
    });
    expect(await find(db(), { id: crypto.randomUUID() })).toEqual([]);
    await expect(find(db(), {})).rejects.toThrow('no value for "id"');
  });

  describe('after a leading statement', () => {
    const echo = prebuilt((handle) => ({
      main: handle
        .select({
          text: sql<string>`${ph('text')}::text`,
          at: sql<string>`(${ph('at')}::timestamptz at time zone 'UTC')::text`,
          n: sql<number>`${ph('n')}::int`,
          nothing: sql<string | null>`${ph('nothing')}::text`,
          row: bloodRequests.trackingCode,
        })
        .from(sql`(select 1) as one`)
        .leftJoin(bloodRequests, eq(bloodRequests.trackingCode, ph('text'))),
    }));
    const values = {
      text: 'it\'s a \\ back\\slash, "quoted", ₹ अस्पताल; select 1 --',
      at: new Date('2026-11-25T18:30:00.123Z').toISOString(),
      n: 42,
      nothing: null,
    };
    const expected = [
      { text: values.text, at: '2026-11-25 18:30:00.123', n: 42, nothing: null, row: null },
    ];

    it('answers as the statement alone does, with the leading statement run first', async () => {
      expect(await echo(db(), values)).toEqual(expected);
      const answers = await db().transaction(async (tx) => [
        await echo.after(tx, "select set_config('bdms.test', 'led', true)", values),
        await tx.execute(sql`select current_setting('bdms.test', true) as led`),
      ]);
      expect(answers[0]).toEqual(expected);
      expect((answers[1] as { rows: unknown[] }).rows).toEqual([{ led: 'led' }]);
    });

    it.runIf(wantsPostgres())(
      'goes in one message on a connection that has the statement prepared, with its values as literals',
      async () => {
        // One connection at a time: the pool hands back the one just released.
        await db().transaction((tx) => echo(tx, values));
        const { texts } = await onTheWire(async () => {
          const answer = await db().transaction((tx) => echo.after(tx, 'select 1', values));
          expect(answer).toEqual(expected);
        });
        expect(texts).toHaveLength(2);
        expect(texts[0]).toMatch(
          /^begin; \/\* last result \*\/ select 1; execute bdms_[0-9a-f]+\(/,
        );
        expect(texts[0]).toContain(pg.escapeLiteral(values.text));
        expect(texts[1]).toBe('commit');
      },
    );

    it.runIf(wantsPostgres())(
      'opens a transaction in one message when its first statement is prepared on the connection',
      async () => {
        await db().transaction((tx) => echo(tx, values));
        const { texts } = await onTheWire(async () => {
          const answers = await db().transaction(async (tx) => [
            await echo(tx, values),
            // Nothing waits any more: the next goes by its name, with parameters.
            await echo(tx, { ...values, n: 7 }),
          ]);
          expect(answers).toEqual([expected, [{ ...expected[0], n: 7 }]]);
        });
        expect(texts).toHaveLength(3);
        expect(texts[0]).toMatch(/^begin; execute bdms_[0-9a-f]+\(/);
        expect(texts[1]).toMatch(/^select/);
        expect(texts[2]).toBe('commit');
      },
    );

    it.runIf(wantsPostgres())(
      'sends a value it cannot write as a literal (an array) as a parameter, one message after the other',
      async () => {
        const count = prebuilt((handle) => ({
          main: handle
            .select({ n: sql<number>`cardinality(${ph('ids')}::int[])` })
            .from(sql`(select 1) as one`),
        }));
        await db().transaction((tx) => count(tx, { ids: [1] }));
        const { result, texts } = await onTheWire(() =>
          db().transaction((tx) => count.after(tx, 'select 1', { ids: [4, 5, 6] })),
        );
        expect(result).toEqual([{ n: 3 }]);
        expect(texts).toEqual([
          'begin; select 1',
          expect.stringMatching(/^select cardinality/),
          'commit',
        ]);
      },
    );
  });
});
