import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, type PostgresDatabaseHandle } from './db/client';
import { runMigrations } from './db/migrate';
import {
  ANNOUNCEMENT_STALL_MS,
  announceEverythingChanged,
  createReadCache,
  shareWrites,
} from './db/read-cache';
import { createWriteTracker } from './db/write-tracker';
import { donations, notifications, users } from './db/schema';
import { createPostgresChangeBus, type PostgresChangeBus } from './lib/change-bus';
import { submitQuestionnaire } from './test/admin-helpers';
import { makeDonor, requestBody } from './test/blood-request-helpers';
import { signIn } from './test/donor-helpers';
import type { SignedInUser } from './test/donor-helpers';
import { featureFlags, notificationSettings, pincodes } from './db/schema';
import { countQueries } from './test/query-counter';
import { createTestApp, type TestApp } from './test/test-app';
import {
  createScratchPostgresDatabase,
  createTestDatabase,
  wantsPostgres,
  type TestDatabase,
} from './test/test-database';

/**
 * The signed-in reads' cache (issue #20, db/read-cache.ts): a repeated read costs no statement,
 * and whatever changes what a read shows (a write through the app, a write by hand through the
 * same database, another instance's write on PostgreSQL) is seen on the next call.
 */

const READS = (id: string) => [
  '/api/v1/auth/me',
  `/api/v1/users/${id}/stats`,
  `/api/v1/users/${id}/donations`,
  `/api/v1/users/${id}/availability`,
  '/api/v1/notifications',
];

function get(subject: TestApp, url: string, user: SignedInUser) {
  return subject.app.inject({ method: 'GET', url, headers: user.headers });
}

describe('the read cache on the embedded database', () => {
  let testDb: TestDatabase;
  let subject: TestApp;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  beforeEach(async () => {
    subject = await createTestApp({
      database: testDb.database,
      services: { backgroundJobs: false },
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

  /** A guest's request from its own address, with the statements it sent (the cache warm). */
  const guestRequestCounted = (n: number, overrides: Record<string, unknown>) =>
    countQueries(
      testDb.database,
      () =>
        subject.app.inject({
          method: 'POST',
          url: '/api/v1/blood-requests',
          payload: requestBody(overrides),
          remoteAddress: `192.0.2.${n}`,
        }),
      { warm: true },
    );
  const onPglite = () => testDb.database.driver === 'pglite';

  it.skipIf(wantsPostgres())(
    'answers a repeated read without a statement, with the same body',
    async () => {
      expect(onPglite()).toBe(true);
      const donor = await makeDonor(subject.app, db());
      for (const url of READS(donor.row.id)) {
        const cold = await countQueries(testDb.database, () => get(subject, url, donor));
        expect(cold.result.statusCode, url).toBe(200);
        expect(cold.queries.length, url).toBeGreaterThan(0);
        const warm = await countQueries(testDb.database, () => get(subject, url, donor), {
          warm: true,
        });
        expect(warm.queries, url).toEqual([]);
        expect(warm.result.json(), url).toEqual(cold.result.json());
      }
    },
  );

  it.skipIf(wantsPostgres())('shows a write through the app on the next read', async () => {
    const donor = await makeDonor(subject.app, db());
    const url = `/api/v1/users/${donor.row.id}/availability`;
    expect((await get(subject, url, donor)).json().data.available).toBe(true);
    const changed = await subject.app.inject({
      method: 'PUT',
      url,
      headers: donor.headers,
      payload: { available: false },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await get(subject, url, donor)).json().data.available).toBe(false);
  });

  it.skipIf(wantsPostgres())('shows rows written by hand through the same database', async () => {
    const donor = await makeDonor(subject.app, db());
    const id = donor.row.id;
    const before = {
      stats: (await get(subject, `/api/v1/users/${id}/stats`, donor)).json().data,
      donations: (await get(subject, `/api/v1/users/${id}/donations`, donor)).json().data,
      notes: (await get(subject, '/api/v1/notifications', donor)).json().data,
    };
    await db()
      .insert(donations)
      .values({
        donorId: id,
        donatedAt: new Date(Date.now() - 200 * 86_400_000),
        units: 1,
        place: 'Gandhi Hospital',
        verified: true,
      });
    await db().insert(notifications).values({
      userId: id,
      type: 'system',
      title: 'Welcome',
      message: 'Thank you for registering',
    });
    await submitQuestionnaire(db(), id);
    const stats = (await get(subject, `/api/v1/users/${id}/stats`, donor)).json().data;
    expect(stats.totalDonations).toBe(before.stats.totalDonations + 1);
    const list = (await get(subject, `/api/v1/users/${id}/donations`, donor)).json().data;
    expect(list.total).toBe(before.donations.total + 1);
    expect(list.items[0].place).toBe('Gandhi Hospital');
    const notes = (await get(subject, '/api/v1/notifications', donor)).json().data;
    expect(notes.total).toBe(before.notes.total + 1);
    expect(notes.unread).toBe(before.notes.unread + 1);
    expect(notes.items[0].title).toBe('Welcome');
  });

  it.skipIf(wantsPostgres())('refuses an old token, or a deleted account, at once', async () => {
    const donor = await makeDonor(subject.app, db());
    const other = await makeDonor(subject.app, db(), { fullName: 'Meera Iyer' });
    expect((await get(subject, '/api/v1/auth/me', donor)).statusCode).toBe(200);
    expect((await get(subject, '/api/v1/auth/me', other)).statusCode).toBe(200);
    await db()
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, donor.row.id));
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, other.row.id));
    for (const url of READS(donor.row.id)) {
      expect((await get(subject, url, donor)).statusCode, url).toBe(401);
    }
    expect((await get(subject, '/api/v1/auth/me', other)).statusCode).toBe(401);
  });

  it.skipIf(wantsPostgres())(
    'gives every caller a row no earlier caller could change',
    async () => {
      const donor = await makeDonor(subject.app, db());
      const reads = testDb.database.readCache;
      await get(subject, '/api/v1/auth/me', donor);
      expect(reads.size()).toBeGreaterThan(0);
      const tracker = createWriteTracker();
      const cache = createReadCache({ tracker });
      const read = cache.wrap('t', 'select * from users', async () => ({ user: { name: 'A' } }));
      const first = await read({});
      expect(() => {
        (first.user as { name: string }).name = 'B';
      }).toThrow(TypeError);
      expect((await read({})).user.name).toBe('A');
    },
  );

  it.skipIf(wantsPostgres())(
    'reads settings, flags and the administrators (and how to reach them) inside a write from memory until they change',
    async () => {
      await signIn(subject.app, db(), { role: 'admin' });
      const guestRequest = (n: number) =>
        guestRequestCounted(n, { contactPhone: `+9198765${String(43_210 + n)}` });
      const reads = (queries: string[]) => ({
        settings: queries.filter((q) => q.includes('"notification_settings"')).length,
        flags: queries.filter((q) => q.includes('from "feature_flags"')).length,
        admins: queries.filter((q) => /from "users" where \("users"."role" =/.test(q)).length,
        recipients: queries.filter((q) => q.includes('from push_subscriptions ps')).length,
      });
      testDb.database.readCache.clear();
      const first = await guestRequest(1);
      expect(first.result.statusCode, first.result.body).toBe(201);
      expect(reads(first.queries)).toEqual({ settings: 1, flags: 1, admins: 1, recipients: 1 });
      const second = await guestRequest(2);
      expect(second.result.statusCode, second.result.body).toBe(201);
      expect(reads(second.queries)).toEqual({ settings: 0, flags: 0, admins: 0, recipients: 0 });
      expect(second.queries.length).toBe(first.queries.length - 4);

      // A change to any of them is read again by the next write.
      await db()
        .update(featureFlags)
        .set({ enabled: true })
        .where(eq(featureFlags.key, 'debugMode'));
      await db().update(notificationSettings).set({ settings: {} });
      await signIn(subject.app, db(), { role: 'admin' });
      const third = await guestRequest(3);
      expect(third.result.statusCode, third.result.body).toBe(201);
      expect(reads(third.queries)).toEqual({ settings: 1, flags: 1, admins: 1, recipients: 1 });
    },
  );

  it.skipIf(wantsPostgres())(
    "reads a PIN code's centroid from memory until the reference data changes",
    async () => {
      const place = (latitude: number) => ({
        pincode: '560099',
        state: 'Karnataka',
        latitude,
        longitude: 77.6,
      });
      await db()
        .insert(pincodes)
        .values(place(12.9))
        .onConflictDoUpdate({ target: pincodes.pincode, set: place(12.9) });
      // A family without GPS: only the PIN code places the request.
      const guestRequest = (n: number) =>
        guestRequestCounted(n, {
          latitude: undefined,
          longitude: undefined,
          pincode: '560099',
          city: 'Bengaluru',
          state: 'Karnataka',
          contactPhone: `+9198766${String(43_210 + n)}`,
        });
      const pincodeReads = (queries: string[]) =>
        queries.filter((q) => q.includes('from "pincodes"')).length;
      const placed = (res: { json(): { data: { request: { latitude: number } } } }) =>
        res.json().data.request.latitude;

      testDb.database.readCache.clear();
      const first = await guestRequest(1);
      expect(first.result.statusCode, first.result.body).toBe(201);
      expect({ reads: pincodeReads(first.queries), at: placed(first.result) }).toEqual({
        reads: 1,
        at: 12.9,
      });
      const second = await guestRequest(2);
      expect({ reads: pincodeReads(second.queries), at: placed(second.result) }).toEqual({
        reads: 0,
        at: 12.9,
      });
      // Reference data loaded again with a better centroid: the next request uses it.
      await db().update(pincodes).set({ latitude: 12.95 }).where(eq(pincodes.pincode, '560099'));
      const third = await guestRequest(3);
      expect({ reads: pincodeReads(third.queries), at: placed(third.result) }).toEqual({
        reads: 1,
        at: 12.95,
      });
    },
  );

  it('refuses to cache a statement that depends on the clock', () => {
    const cache = createReadCache({ tracker: createWriteTracker() });
    expect(() =>
      cache.wrap('t', 'select * from users where created_at > now()', async () => 1),
    ).toThrow(/clock/);
  });
});

/**
 * Several instances on one PostgreSQL: each announces the tables its writes changed, and the
 * others drop what they held of them.
 */
describe('announcing this instance’s writes (shareWrites)', () => {
  function announcing() {
    const tracker = createWriteTracker();
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    shareWrites(tracker, {
      publishData: (_topic, data) => {
        sent.push(data);
        return new Promise<void>((resolve) => answers.push(resolve));
      },
      subscribeData: () => () => {},
    });
    const write = (...tables: string[]) => {
      tracker.began(new Set(tables));
      tracker.ended(new Set(tables));
    };
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    return { sent, answers, write, turn };
  }

  it('sends the tables of one turn together, and holds what is written meanwhile for the next', async () => {
    const { sent, answers, write, turn } = announcing();
    write('users');
    write('donations');
    await turn();
    expect(sent).toEqual(['users,donations']);
    // Written while the first is unanswered: nothing goes out, however many turns pass.
    write('notifications');
    await turn();
    write('users');
    await turn();
    expect(sent).toHaveLength(1);
    answers[0]!();
    await turn();
    expect(sent).toEqual(['users,donations', 'notifications,users']);
    answers[1]!();
    await turn();
    expect(sent).toHaveLength(2);
    // Idle again: the next write is announced in its own turn.
    write('donations');
    await turn();
    expect(sent).toEqual(['users,donations', 'notifications,users', 'donations']);
  });

  it('an announcement left unanswered holds the next one back no longer than the stall limit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { sent, write, turn } = announcing();
      write('users');
      await turn();
      write('donations');
      await turn();
      expect(sent).toEqual(['users']);
      vi.setSystemTime(Date.now() + ANNOUNCEMENT_STALL_MS + 1);
      write('notifications');
      await turn();
      expect(sent).toEqual(['users', 'donations,notifications']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.runIf(wantsPostgres())('the read cache across instances on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  const instances: {
    database: PostgresDatabaseHandle;
    bus: PostgresChangeBus;
    subject: TestApp;
  }[] = [];

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!);
    for (let i = 0; i < 2; i += 1) {
      const database = createPostgresDatabase(scratch.url);
      if (i === 0) await runMigrations(database);
      const pool = database.pool;
      const bus = createPostgresChangeBus({
        connectionString: scratch.url,
        reconnectDelayMs: 50,
        notifyVia: (channel, payload) => pool.query('select pg_notify($1, $2)', [channel, payload]),
      });
      await bus.start();
      database.shareWritesThrough(bus);
      const subject = await createTestApp({
        database,
        // The instances of one deployment share the token secret.
        env: { JWT_SECRET: 'read-cache-test-secret-shared-by-both-instances' },
        services: { backgroundJobs: false },
      });
      instances.push({ database, bus, subject });
    }
  });
  afterAll(async () => {
    for (const { subject, bus, database } of instances) {
      await subject.close();
      await bus.close();
      await database.close();
    }
    await scratch?.drop();
  });

  async function eventually(check: () => Promise<boolean>, withinMs = 3_000): Promise<number> {
    const start = Date.now();
    while (!(await check())) {
      if (Date.now() - start > withinMs) throw new Error('not seen in time');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return Date.now() - start;
  }

  it("serves repeated reads from memory and sees another instance's write", async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const donor = await makeDonor(a.subject.app, a.database.db);
    const url = `/api/v1/users/${donor.row.id}/availability`;
    expect((await get(a.subject, url, donor)).json().data.available).toBe(true);
    const warm = await countQueries(a.database, () => get(a.subject, url, donor), { warm: true });
    expect(warm.queries).toEqual([]);
    // Instance B changes it; A sees it once B's announcement arrives (milliseconds).
    const changed = await b.subject.app.inject({
      method: 'PUT',
      url,
      headers: donor.headers,
      payload: { available: false },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await eventually(
      async () => (await get(a.subject, url, donor)).json().data.available === false,
    );

    // A token made old on B is refused on A.
    await b.database.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, donor.row.id));
    await eventually(
      async () => (await get(a.subject, '/api/v1/auth/me', donor)).statusCode === 401,
    );
  });

  it('drops everything when a script announces that it wrote (npm run demo:remove)', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const donor = await makeDonor(a.subject.app, a.database.db);
    await get(a.subject, '/api/v1/auth/me', donor);
    const warm = await countQueries(a.database, () => get(a.subject, '/api/v1/auth/me', donor), {
      warm: true,
    });
    expect(warm.queries).toEqual([]);
    await announceEverythingChanged(b.database.db);
    await eventually(async () => {
      const next = await countQueries(a.database, () => get(a.subject, '/api/v1/auth/me', donor), {
        warm: true,
      });
      return next.queries.length === 1;
    });
  });

  it('caches nothing read while a write to its tables is under way, here', async () => {
    const [a] = instances as [(typeof instances)[0]];
    const donor = await makeDonor(a.subject.app, a.database.db);
    expect((await get(a.subject, '/api/v1/auth/me', donor)).statusCode).toBe(200);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const transaction = a.database.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, donor.row.id));
      written();
      await held;
    });
    await wrote;
    // Not committed: the old token still holds, read from the database, not remembered.
    const during = await countQueries(a.database, () => get(a.subject, '/api/v1/auth/me', donor), {
      warm: true,
    });
    expect(during.result.statusCode).toBe(200);
    expect(during.queries.length).toBe(1);
    release();
    await transaction;
    // Committed: refused on the very next call, no waiting.
    expect((await get(a.subject, '/api/v1/auth/me', donor)).statusCode).toBe(401);
  });

  it('reads from the database while its bus does not listen', async () => {
    const database = createPostgresDatabase(scratch.url);
    try {
      const subject = await createTestApp({ database, services: { backgroundJobs: false } });
      try {
        const donor = await makeDonor(subject.app, database.db);
        await get(subject, '/api/v1/auth/me', donor);
        const again = await countQueries(database, () => get(subject, '/api/v1/auth/me', donor), {
          warm: true,
        });
        expect(again.queries.length).toBe(1);
      } finally {
        await subject.close();
      }
    } finally {
      await database.close();
    }
  });
});
