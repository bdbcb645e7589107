import {
  BLOOD_REQUEST_STATUSES,
  boundingBox,
  FEATURE_FLAG_DEFAULTS,
  INDIAN_STATES,
  URGENCIES,
} from '@bdms/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bloodRequestMatches,
  bloodRequests,
  bloodStock,
  donations,
  notificationDeliveries,
  notifications,
  users,
} from '../../db/schema';
import { bearer, expectUserShape, loginAs, seedUser } from '../../test/auth-helpers';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../../test/test-database';
import { createBloodRequestsRepository } from '../blood-requests/blood-requests.repository';
import { createBloodStockRepository } from '../blood-stock/blood-stock.repository';
import { loadReferenceData } from '../facilities/facilities.loader';
import { isUndeliverableAddress } from '../notifications/mail/mailer';
import { createRequesterMessages } from '../notifications/requester-messages';
import {
  canonicalState,
  DEMO_EMAIL_DOMAIN,
  generateDemoData,
  type DemoReference,
} from './demo-data.generate';
import { createDemoDataRepository, NO_RECORDS } from './demo-data.repository';
import { createDemoDataService, decideDemoSeeding, seedDemoData } from './demo-data.service';

const NOW = Date.parse('2026-11-20T06:30:00Z');

let testDb: TestDatabase;
let reference: DemoReference;
const opened: TestApp[] = [];
const db = () => testDb.database.db;

/** A PostgreSQL test database must be forced, exactly as a real one would. */
const FORCE = wantsPostgres() ? { DEMO_DATA_FORCE: '1' } : {};

async function start(env: Record<string, string> = {}): Promise<TestApp> {
  const testApp = await createTestApp({
    env: { ...FORCE, ...env },
    database: testDb.database,
    services: { backgroundJobs: false, now: () => NOW },
  });
  opened.push(testApp);
  return testApp;
}

function service(options: { driver?: 'pglite' | 'postgres'; force?: boolean } = {}) {
  const warnings: string[] = [];
  const demo = createDemoDataService({
    db: db(),
    driver: options.driver ?? 'pglite',
    force: options.force ?? false,
    now: () => NOW,
    isEnabled: async () => true,
    logger: { info() {}, warn: (_obj, msg) => void warnings.push(msg) },
  });
  return { demo, warnings };
}

async function countWhere(table: 'users' | 'blood_requests' | 'donations' | 'blood_stock') {
  const rows = await db().execute<{ demo: string; real: string }>(
    sql.raw(
      `select count(*) filter (where is_demo) as demo, count(*) filter (where not is_demo) as real from ${table}`,
    ),
  );
  const row = (rows as unknown as { rows: { demo: string; real: string }[] }).rows[0]!;
  return { demo: Number(row.demo), real: Number(row.real) };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  // The real reference data: demo places are real PIN code points and directory centres.
  await loadReferenceData(db());
  reference = await createDemoDataRepository(db()).readReference();
}, 60_000);

afterEach(async () => {
  await Promise.all(opened.splice(0).map((testApp) => testApp.close()));
  // Everything but the reference data (facilities, PIN codes, places).
  await db().execute(
    sql`truncate users, blood_requests, donations, blood_stock, feature_flags, notifications, mail_outbox cascade`,
  );
});

afterAll(async () => {
  await testDb?.close();
});

describe('generateDemoData', () => {
  it('gives the same rows, ids included, every time', () => {
    const first = generateDemoData(reference, NOW);
    const second = generateDemoData(reference, NOW);
    expect(second).toEqual(first);
    expect(first.users.length).toBeGreaterThanOrEqual(300);
    expect(first.users[0]).toMatchObject({
      email: `demo.donor.0001@${DEMO_EMAIL_DOMAIN}`,
      phone: '+910000000001',
      role: 'donor',
      isDemo: true,
    });
    expect(first.users[0]!.fullName).toMatch(/^[A-Z][a-z]+ [A-Z][A-Za-z']+$/);
    // A different seed is different data: the seed, not chance, decides.
    expect(generateDemoData(reference, NOW, 7).users.map((u) => u.fullName)).not.toEqual(
      first.users.map((u) => u.fullName),
    );
  });

  it('marks every row demo, with unreachable phones and e-mails', () => {
    const data = generateDemoData(reference, NOW);
    for (const rows of [data.users, data.donations, data.requests, data.stock]) {
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.isDemo === true)).toBe(true);
    }
    // +91 then 0: no Indian subscriber number starts with the trunk prefix.
    for (const user of data.users) {
      expect(user.phone).toMatch(/^\+910\d{9}$/);
      expect(user.email.endsWith('@example.invalid')).toBe(true);
      expect(user.passwordHash.startsWith('$argon2')).toBe(false);
    }
    for (const request of data.requests) expect(request.contactPhone).toMatch(/^\+910\d{9}$/);
    expect(new Set(data.users.map((u) => u.phone)).size).toBe(data.users.length);
  });

  it('puts requests in every state and union territory, in every status and urgency', () => {
    const data = generateDemoData(reference, NOW);
    const states = new Set(data.requests.map((r) => r.state));
    expect([...states].sort()).toEqual(INDIAN_STATES.map((s) => s.name).sort());
    expect(new Set(data.requests.map((r) => r.status))).toEqual(new Set(BLOOD_REQUEST_STATUSES));
    expect(new Set(data.requests.map((r) => r.urgency))).toEqual(new Set(URGENCIES));
    // Donors in many cities, at real PIN code points.
    const pins = new Set(reference.points.map((p) => p.pincode));
    expect(new Set(data.users.map((u) => u.city)).size).toBeGreaterThanOrEqual(25);
    expect(data.users.every((u) => pins.has(u.pincode!))).toBe(true);
    // Open requests have not expired; stock is fresh (under 24 hours).
    for (const r of data.requests.filter((r) => r.status === 'verified')) {
      expect(r.expiresAt.getTime()).toBeGreaterThan(NOW);
    }
    for (const line of data.stock) {
      expect(NOW - line.updatedAt.getTime()).toBeLessThan(24 * 3_600_000);
    }
  });

  it('reads the reference data’s many spellings of a state', () => {
    expect(canonicalState('Jammu & Kashmir')).toBe('Jammu and Kashmir');
    expect(canonicalState('JAMMU AND KASHMIR')).toBe('Jammu and Kashmir');
    expect(canonicalState('The Dadra And Nagar Haveli And Daman And Diu')).toBe(
      'Dadra and Nagar Haveli and Daman and Diu',
    );
    expect(canonicalState('Daman and Diu')).toBe('Dadra and Nagar Haveli and Daman and Diu');
    expect(canonicalState('Atlantis')).toBeNull();
  });
});

describe('decideDemoSeeding', () => {
  const base = {
    enabled: true,
    driver: 'pglite' as const,
    force: false,
    demo: NO_RECORDS,
    real: NO_RECORDS,
  };

  it('seeds an empty embedded database', () => {
    expect(decideDemoSeeding(base)).toEqual({ action: 'seed' });
  });

  it('refuses a real PostgreSQL unless forced', () => {
    const refused = decideDemoSeeding({ ...base, driver: 'postgres' });
    expect(refused).toMatchObject({ action: 'refuse', reason: 'postgres' });
    expect(refused.action === 'refuse' && refused.message).toContain('DEMO_DATA_FORCE=1');
    expect(decideDemoSeeding({ ...base, driver: 'postgres', force: true })).toEqual({
      action: 'seed',
    });
  });

  it('refuses a database with real records, even forced', () => {
    const real = { ...NO_RECORDS, requests: 1 };
    expect(decideDemoSeeding({ ...base, real })).toMatchObject({
      action: 'refuse',
      reason: 'real-records',
    });
    expect(decideDemoSeeding({ ...base, driver: 'postgres', force: true, real })).toMatchObject({
      action: 'refuse',
      reason: 'real-records',
    });
  });

  it('does nothing with the flag off or the data already there', () => {
    expect(decideDemoSeeding({ ...base, enabled: false })).toEqual({
      action: 'skip',
      reason: 'flag-off',
    });
    expect(decideDemoSeeding({ ...base, demo: { ...NO_RECORDS, donors: 3 } })).toEqual({
      action: 'skip',
      reason: 'already-seeded',
    });
  });
});

describe('seeding', () => {
  it('writes the generated rows, all marked, and a second run adds nothing', async () => {
    const expected = generateDemoData(reference, NOW);
    const { demo } = service({ force: wantsPostgres() });
    const first = await demo.seedAtStart();
    expect(first.decision).toEqual({ action: 'seed' });
    expect(first.inserted).toEqual({
      donors: expected.users.length,
      requests: expected.requests.length,
      donations: expected.donations.length,
      stock: expected.stock.length,
    });
    expect(await countWhere('users')).toEqual({ demo: expected.users.length, real: 0 });
    expect(await countWhere('blood_requests')).toEqual({
      demo: expected.requests.length,
      real: 0,
    });
    expect(await countWhere('donations')).toEqual({ demo: expected.donations.length, real: 0 });
    expect(await countWhere('blood_stock')).toEqual({ demo: expected.stock.length, real: 0 });
    const [firstDonor] = await db()
      .select()
      .from(users)
      .where(eq(users.email, expected.users[0]!.email));
    expect(firstDonor).toMatchObject({
      id: expected.users[0]!.id,
      fullName: expected.users[0]!.fullName,
      pincode: expected.users[0]!.pincode,
      isDemo: true,
    });
    expect(await demo.isPresent()).toBe(true);

    const second = await demo.seedAtStart();
    expect(second.decision).toEqual({ action: 'skip', reason: 'already-seeded' });
    expect(second.inserted).toEqual(NO_RECORDS);
    // Even written again row by row, the same ids collide and nothing is added.
    expect(await seedDemoData(db(), NOW)).toEqual(NO_RECORDS);
    expect((await countWhere('users')).demo).toBe(expected.users.length);
  });

  it('refuses a database that holds a real donor, and says why', async () => {
    await seedUser(db(), { role: 'donor' });
    const { demo, warnings } = service({ force: true });
    const result = await demo.seedAtStart();
    expect(result.decision).toMatchObject({ action: 'refuse', reason: 'real-records' });
    expect(warnings[0]).toContain('never mixed');
    expect(await countWhere('users')).toEqual({ demo: 0, real: 1 });
    expect(await demo.isPresent()).toBe(false);
  });

  it('refuses PostgreSQL without DEMO_DATA_FORCE and logs the way to force it', async () => {
    const { demo, warnings } = service({ driver: 'postgres' });
    const result = await demo.seedAtStart();
    expect(result.decision).toMatchObject({ action: 'refuse', reason: 'postgres' });
    expect(warnings).toEqual([expect.stringContaining('DEMO_DATA_FORCE=1')]);
    expect((await countWhere('users')).demo).toBe(0);
  });
});

describe('npm run demo:remove (removeAll)', () => {
  it('deletes exactly the demo records and keeps the real ones', async () => {
    const { demo } = service({ force: wantsPostgres() });
    const { inserted } = await demo.seedAtStart();
    // Real records made while the demo data is there (a newcomer trying the app).
    const real = await seedUser(db(), { role: 'donor' });
    const [stockCentre] = await db()
      .select({ facilityId: bloodStock.facilityId })
      .from(bloodStock)
      .orderBy(asc(bloodStock.facilityId))
      .limit(1);
    // A centre's own figure takes over a demo line and is real from then on.
    await createBloodStockRepository(db()).upsertLines([
      {
        facilityId: stockCentre!.facilityId,
        bloodType: 'O+',
        component: 'whole_blood',
        units: 4,
        expiringUnits: null,
        updatedAt: new Date(NOW),
        updatedBy: real.row.id,
      },
    ]);

    const removed = await demo.removeAll();
    expect(removed).toEqual({ ...inserted, stock: inserted.stock - 1 });
    expect(await countWhere('users')).toEqual({ demo: 0, real: 1 });
    expect(await countWhere('blood_requests')).toEqual({ demo: 0, real: 0 });
    expect(await countWhere('donations')).toEqual({ demo: 0, real: 0 });
    expect(await countWhere('blood_stock')).toEqual({ demo: 0, real: 1 });
    expect(await db().select().from(bloodRequestMatches)).toEqual([]);
    const [kept] = await db().select().from(users);
    expect(kept!.id).toBe(real.row.id);
    expect(await demo.isPresent()).toBe(false);
  });
});

describe('demo records are never reached', () => {
  it('queues no delivery of any kind for a demo donor, while a real one gets e-mail', async () => {
    const testApp = await start({ FEATURE_FLAGS: 'mockData,emailNotifications' });
    const [demoDonor] = await db()
      .select()
      .from(users)
      .where(eq(users.isDemo, true))
      .orderBy(asc(users.email))
      .limit(1);
    expect(demoDonor).toBeDefined();
    // Added after seeding: seeding refuses a database that already holds real donors.
    const real = await seedUser(db(), { role: 'donor', status: 'approved' });
    const { notifier } = testApp.app.services;
    for (const userId of [demoDonor!.id, real.row.id]) {
      await notifier.notify(db(), userId, { type: 'donor.approved', reachOut: true });
    }
    const rows = await db()
      .select({ userId: notifications.userId, channel: notificationDeliveries.channel })
      .from(notifications)
      .leftJoin(
        notificationDeliveries,
        eq(notificationDeliveries.notificationId, notifications.id),
      );
    expect(rows).toEqual(
      expect.arrayContaining([
        { userId: demoDonor!.id, channel: null },
        { userId: real.row.id, channel: 'email' },
      ]),
    );
    expect(rows.filter((row) => row.userId === demoDonor!.id)).toHaveLength(1);
  });

  it('never finds a demo donor as a matching candidate', async () => {
    await service({ force: true }).demo.seedAtStart();
    const donor = (
      await db()
        .select()
        .from(users)
        .where(sql`${users.isDemo} and ${users.status} = 'approved' and ${users.available}`)
        .limit(1)
    )[0]!;
    const point = { latitude: donor.latitude!, longitude: donor.longitude! };
    const query = {
      requestId: '00000000-0000-4000-8000-000000000000',
      ...point,
      radiusKm: 200,
      box: boundingBox(point, 200),
      donorTypes: [donor.bloodType as 'A+'],
      lastDonationBy: new Date(NOW + 365 * 86_400_000),
      alertsSince: new Date(NOW - 7 * 86_400_000),
    };
    const repo = createBloodRequestsRepository(db());
    expect(await repo.findCandidates(query)).toEqual([]);
    // The same donor, made real, is found: the query itself would have found them.
    await db().update(users).set({ isDemo: false }).where(eq(users.id, donor.id));
    const found = await repo.findCandidates(query);
    expect(found.map((c) => c.id)).toContain(donor.id);
  });

  it('never runs matching for a demo request, while a real one beside it alerts the real donor', async () => {
    const testApp = await start({ FEATURE_FLAGS: 'mockData,bloodRequests' });
    const [demoRequest] = await db()
      .select()
      .from(bloodRequests)
      .where(sql`${bloodRequests.isDemo} and ${bloodRequests.status} = 'pending'`)
      .orderBy(asc(bloodRequests.trackingCode))
      .limit(1);
    // A real, eligible donor of the type, right where the demo request is.
    const donor = await makeDonor(testApp.app, db(), {
      bloodType: demoRequest!.bloodType,
      now: NOW,
    });
    await db()
      .update(users)
      .set({ latitude: demoRequest!.latitude, longitude: demoRequest!.longitude })
      .where(eq(users.id, donor.row.id));
    const admin = await signIn(testApp.app, db(), { role: 'admin' });
    const verify = (id: string) =>
      testApp.app.inject({
        method: 'PUT',
        url: `/api/v1/blood-requests/${id}/status`,
        headers: admin.headers,
        payload: { status: 'verified', notes: 'Checked' },
      });
    expect((await verify(demoRequest!.id)).statusCode).toBe(200);
    expect(
      await db()
        .select()
        .from(bloodRequestMatches)
        .where(eq(bloodRequestMatches.requestId, demoRequest!.id)),
    ).toEqual([]);
    expect(
      await db().select().from(notifications).where(eq(notifications.userId, donor.row.id)),
    ).toEqual([]);

    // The same place and type, a real request: the donor is found, so the demo one was skipped.
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/blood-requests',
      payload: requestBody({
        bloodType: demoRequest!.bloodType,
        latitude: demoRequest!.latitude,
        longitude: demoRequest!.longitude,
      }),
      remoteAddress: '192.0.2.77',
    });
    expect(created.statusCode, created.body).toBe(201);
    const realId = created.json().data.request.id as string;
    expect((await verify(realId)).statusCode).toBe(200);
    const matched = await db()
      .select({ donorId: bloodRequestMatches.donorId })
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.requestId, realId));
    expect(matched.map((m) => m.donorId)).toEqual([donor.row.id]);
  });

  it("never messages a demo request's contact, even one with a real-looking phone", async () => {
    await start({ FEATURE_FLAGS: 'mockData,bloodRequests' });
    const [demoRequest] = await db()
      .select()
      .from(bloodRequests)
      .where(sql`${bloodRequests.isDemo} and ${bloodRequests.status} = 'pending'`)
      .orderBy(asc(bloodRequests.trackingCode))
      .limit(1);
    const sent: string[] = [];
    const messages = createRequesterMessages({
      notifier: {
        messageRequester: async (_tx, message) => {
          sent.push(message.bloodRequestId);
          return 'sms';
        },
      },
      publicUrl: 'https://rakt.example.in',
      now: () => NOW,
    });
    // As a guest's request waiting for review, with a number SMS could reach.
    const asGuest = {
      ...demoRequest!,
      createdBy: null,
      createdByRole: 'guest' as const,
      contactPhone: '+919812345678',
    };
    expect(await messages.requestReceived(db(), asGuest)).toBeNull();
    expect(sent).toEqual([]);
    // The same request, not demo, is messaged: the demo mark alone kept it quiet.
    expect(await messages.requestReceived(db(), { ...asGuest, isDemo: false })).toBe('sms');
    expect(sent).toEqual([demoRequest!.id]);
  });

  it('keeps mail to the demo domain in the outbox', () => {
    expect(isUndeliverableAddress('demo.donor.0001@example.invalid')).toBe(true);
    expect(isUndeliverableAddress('someone@gmail.com')).toBe(false);
    expect(isUndeliverableAddress('help@invalid.example')).toBe(false);
  });
});

describe('GET /api/v1/config', () => {
  it('says demo data is present after a start with mockData, and not otherwise', async () => {
    const plain = await start();
    const before = (await plain.app.inject({ url: '/api/v1/config' })).json().data;
    expect(before.demoData).toBe(false);
    expect(before.flags).toEqual(FEATURE_FLAG_DEFAULTS);

    const demo = await start({ FEATURE_FLAGS: '+mockData' });
    const after = (await demo.app.inject({ url: '/api/v1/config' })).json().data;
    expect(after).toMatchObject({ demoData: true, flags: { mockData: true } });
    expect((await countWhere('blood_requests')).demo).toBeGreaterThanOrEqual(INDIAN_STATES.length);
    const [aDonation] = await db().select().from(donations).limit(1);
    expect(aDonation!.isDemo).toBe(true);
    const [aRequest] = await db().select().from(bloodRequests).limit(1);
    expect(aRequest!.isDemo).toBe(true);
  });
});

describe('administrators see which records are demo', () => {
  it('tags demo donors and requests in the admin lists, and no real one', async () => {
    const testApp = await start({ FEATURE_FLAGS: 'mockData,adminPanel,bloodRequests' });
    const admin = await seedUser(db(), { role: 'admin' });
    const realDonor = await seedUser(db(), { role: 'donor' });
    const headers = bearer((await loginAs(testApp.app, admin)).tokens.accessToken);

    const donors = (
      await testApp.app.inject({ url: '/api/v1/admin/donors?pageSize=100', headers })
    ).json().data;
    const demoDonor = donors.items.find((u: { isDemo?: boolean }) => u.isDemo);
    expect(demoDonor.email).toMatch(/@example\.invalid$/);
    expectUserShape(demoDonor);
    const real = await testApp.app.inject({
      url: `/api/v1/admin/donors?q=${encodeURIComponent(realDonor.row.email)}`,
      headers,
    });
    const realItem = real.json().data.items.find((u: { id: string }) => u.id === realDonor.row.id);
    expect(realItem).toBeDefined();
    expect(realItem).not.toHaveProperty('isDemo');

    const requests = (
      await testApp.app.inject({ url: '/api/v1/blood-requests?pageSize=50', headers })
    ).json().data;
    expect(requests.items.length).toBeGreaterThan(0);
    expect(requests.items.every((r: { isDemo?: boolean }) => r.isDemo === true)).toBe(true);
  });
});
