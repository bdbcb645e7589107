import {
  facilityStockSchema,
  HOUR,
  stockAvailabilitySchema,
  stockHistoryPageSchema,
  type StockLine,
} from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { activityLog, bloodStock, bloodStockUpdates } from '../../db/schema';
import { createMemoryChangeBus } from '../../lib/change-bus';
import { signIn } from '../../test/donor-helpers';
import {
  seedCentreAccount,
  seedFacility,
  seedPincode,
  type CentreAccount,
} from '../../test/stock-helpers';
import { useTestApp } from '../../test/test-app';
import { createBloodStockService } from './blood-stock.service';

// 02:00 IST on 26 Nov 2026 (the Indian date differs from the UTC one).
const START = Date.parse('2026-11-25T20:30:00Z');
let clock = START;
/** Less than an access token's hour, so the signed-in accounts stay signed in. */
const STEP = 40 * 60_000;
const subject = useTestApp({ services: { now: () => clock } });
const db = () => subject.db;

// PIN 110001 (Connaught Place) and centres at known distances north of it (1° latitude ≈ 111.2 km).
const CP = { latitude: 28.6328, longitude: 77.2197 };
const north = (km: number) => ({ latitude: CP.latitude + km / 111.2, longitude: CP.longitude });

let near: string;
let far: string;
let own: CentreAccount;

beforeEach(async () => {
  clock = START;
  await seedPincode(db(), '110001', CP.latitude, CP.longitude);
  near = await seedFacility(db(), { name: 'Near Centre', ...north(2) });
  far = await seedFacility(db(), { name: 'Far Centre', ...north(10) });
  own = await seedCentreAccount(subject.app, db(), near);
});

const put = (facilityId: string, lines: Partial<StockLine>[], headers = own.headers) =>
  subject.app.inject({
    method: 'PUT',
    url: `/api/v1/facilities/${facilityId}/stock`,
    headers,
    payload: { lines },
  });
const confirm = (facilityId: string, headers = own.headers) =>
  subject.app.inject({
    method: 'POST',
    url: `/api/v1/facilities/${facilityId}/stock/confirm`,
    headers,
  });
const publicStock = async (facilityId: string) => {
  const res = await subject.app.inject({ url: `/api/v1/public/facilities/${facilityId}/stock` });
  expect(res.statusCode, res.body).toBe(200);
  return facilityStockSchema.parse(res.json().data);
};
const availability = async (query: string) => {
  const res = await subject.app.inject({ url: `/api/v1/public/stock/availability?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return stockAvailabilitySchema.parse(res.json().data);
};

describe('PUT /api/v1/facilities/:id/stock', () => {
  it('stores the figures with the time, and keeps each change with who and when', async () => {
    const first = await put(near, [
      { bloodType: 'O-', component: 'prbc', units: 4, expiringUnits: 1 },
      { bloodType: 'A+', component: 'platelets', units: 2 },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.items).toEqual([
      {
        bloodType: 'O-',
        component: 'prbc',
        units: 4,
        expiringUnits: 1,
        updatedAt: new Date(START).toISOString(),
        stale: false,
      },
      {
        bloodType: 'A+',
        component: 'platelets',
        units: 2,
        expiringUnits: null,
        updatedAt: new Date(START).toISOString(),
        stale: false,
      },
    ]);

    clock += STEP;
    const second = await put(near, [
      { bloodType: 'O-', component: 'prbc', units: 3, expiringUnits: 1 },
    ]);
    expect(second.statusCode, second.body).toBe(200);
    // The line not sent keeps its figure and is confirmed as of now (the whole screen was seen).
    const rows = await db().select().from(bloodStock).where(eq(bloodStock.facilityId, near));
    expect(
      rows.map((row) => [row.bloodType, row.component, row.units, row.updatedAt.getTime()]),
    ).toEqual(
      expect.arrayContaining([
        ['O-', 'prbc', 3, START + STEP],
        ['A+', 'platelets', 2, START + STEP],
      ]),
    );

    const history = await db()
      .select()
      .from(bloodStockUpdates)
      .where(eq(bloodStockUpdates.facilityId, near))
      .orderBy(bloodStockUpdates.at);
    expect(history.map((row) => [row.kind, row.userId, row.at.getTime()])).toEqual([
      ['updated', own.userId, START],
      ['updated', own.userId, START + STEP],
    ]);
    expect(history[1]!.changes).toEqual([
      {
        bloodType: 'O-',
        component: 'prbc',
        unitsBefore: 4,
        units: 3,
        expiringBefore: 1,
        expiringUnits: 1,
      },
    ]);
    const logged = await db().select().from(activityLog).where(eq(activityLog.targetId, near));
    expect(logged.map((row) => row.action)).toEqual(['stock.updated', 'stock.updated']);
  });

  it('keeps the expiring figure when a line omits it (capped at the units), and clears it on null', async () => {
    await put(near, [{ bloodType: 'O+', component: 'prbc', units: 5, expiringUnits: 3 }]);
    const stepped = await put(near, [{ bloodType: 'O+', component: 'prbc', units: 2 }]);
    expect(stepped.json().data.items[0]).toMatchObject({ units: 2, expiringUnits: 2 });
    const cleared = await put(near, [
      { bloodType: 'O+', component: 'prbc', units: 2, expiringUnits: null },
    ]);
    expect(cleared.json().data.items[0]).toMatchObject({ units: 2, expiringUnits: null });
  });

  it('records the same figures again as a confirmation', async () => {
    await put(near, [{ bloodType: 'B+', component: 'ffp', units: 6 }]);
    await put(near, [{ bloodType: 'B+', component: 'ffp', units: 6 }]);
    const history = await db()
      .select()
      .from(bloodStockUpdates)
      .where(eq(bloodStockUpdates.facilityId, near))
      .orderBy(bloodStockUpdates.at, bloodStockUpdates.kind);
    expect(history.map((row) => [row.kind, row.changes.length])).toEqual(
      expect.arrayContaining([
        ['updated', 1],
        ['confirmed', 0],
      ]),
    );
  });

  it('refuses every account but the centre’s own verified, enabled ones, and changes nothing', async () => {
    await put(near, [{ bloodType: 'O-', component: 'prbc', units: 4 }]);
    const otherCentre = await seedCentreAccount(subject.app, db(), far);
    const pending = await seedCentreAccount(subject.app, db(), near, {
      verificationStatus: 'pending',
    });
    const rejected = await seedCentreAccount(subject.app, db(), near, {
      verificationStatus: 'rejected',
    });
    const disabled = await seedCentreAccount(subject.app, db(), near, { disabled: true });
    const unlinked = await seedCentreAccount(subject.app, db(), null);
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await signIn(subject.app, db(), { role: 'donor', status: 'approved' });
    for (const caller of [otherCentre, unlinked, admin, donor]) {
      const res = await put(
        near,
        [{ bloodType: 'O-', component: 'prbc', units: 99 }],
        caller.headers,
      );
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    // Issue #17: an account whose hospital is not verified is refused before any handler.
    for (const caller of [pending, rejected]) {
      const res = await put(
        near,
        [{ bloodType: 'O-', component: 'prbc', units: 99 }],
        caller.headers,
      );
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('HOSPITAL_NOT_VERIFIED');
    }
    const res = await put(
      near,
      [{ bloodType: 'O-', component: 'prbc', units: 99 }],
      disabled.headers,
    );
    expect([401, 403]).toContain(res.statusCode);
    const anonymous = await put(near, [{ bloodType: 'O-', component: 'prbc', units: 99 }], {});
    expect(anonymous.statusCode).toBe(401);
    const rows = await db().select().from(bloodStock).where(eq(bloodStock.facilityId, near));
    expect(rows.map((row) => row.units)).toEqual([4]);
    // A centre's account cannot write another centre's stock either.
    const cross = await put(far, [{ bloodType: 'O-', component: 'prbc', units: 5 }]);
    expect(cross.statusCode).toBe(403);
    expect(await db().select().from(bloodStock).where(eq(bloodStock.facilityId, far))).toEqual([]);
  });

  it.each([
    [[{ bloodType: 'O-', component: 'prbc', units: 2, expiringUnits: 3 }], 'expiringUnits'],
    [[{ bloodType: 'O-', component: 'prbc', units: -1 }], 'units'],
    [[{ bloodType: 'O-', component: 'prbc', units: 10000 }], 'units'],
    [[{ bloodType: 'O-', component: 'prbc', units: 1.5 }], 'units'],
    [[{ bloodType: 'O0', component: 'prbc', units: 1 }], 'bloodType'],
    [[{ bloodType: 'O-', component: 'plasma', units: 1 }], 'component'],
    [
      [
        { bloodType: 'O-', component: 'prbc', units: 1 },
        { bloodType: 'O-', component: 'prbc', units: 2 },
      ],
      'lines',
    ],
    [[], 'lines'],
  ])('rejects %j with a validation error naming %s', async (lines, field) => {
    const res = await put(near, lines as Partial<StockLine>[]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json().error.details)).toContain(field);
    expect(await db().select().from(bloodStock)).toEqual([]);
  });

  it('answers 404 for an unknown facility and 400 for a malformed id', async () => {
    expect(
      (await put('bb-999999', [{ bloodType: 'O-', component: 'prbc', units: 1 }])).statusCode,
    ).toBe(404);
    expect((await put('x1', [{ bloodType: 'O-', component: 'prbc', units: 1 }])).statusCode).toBe(
      400,
    );
  });
});

describe('POST /api/v1/facilities/:id/stock/confirm', () => {
  it('is refused before any stock is published, then refreshes every line’s time', async () => {
    const early = await confirm(near);
    expect(early.statusCode).toBe(409);
    await put(near, [
      { bloodType: 'O-', component: 'prbc', units: 4 },
      { bloodType: 'AB+', component: 'cryo', units: 1 },
    ]);
    clock += STEP;
    const res = await confirm(near);
    expect(res.statusCode, res.body).toBe(200);
    const stock = facilityStockSchema.parse(res.json().data);
    expect(stock.updatedAt).toBe(new Date(START + STEP).toISOString());
    expect(stock.items.map((item) => [item.bloodType, item.units, item.updatedAt])).toEqual([
      ['O-', 4, new Date(START + STEP).toISOString()],
      ['AB+', 1, new Date(START + STEP).toISOString()],
    ]);
    const other = await seedCentreAccount(subject.app, db(), far);
    expect((await confirm(near, other.headers)).statusCode).toBe(403);
  });
});

describe('GET /api/v1/public/facilities/:id/stock', () => {
  it('shows the table, drops its cached copy on a change, and turns stale after 24 hours', async () => {
    expect(await publicStock(near)).toEqual({
      facilityId: near,
      updatedAt: null,
      stale: true,
      items: [],
    });
    await put(near, [{ bloodType: 'O-', component: 'prbc', units: 4 }]);
    const fresh = await publicStock(near);
    expect(fresh.items).toEqual([
      expect.objectContaining({ bloodType: 'O-', units: 4, stale: false }),
    ]);
    expect(fresh.stale).toBe(false);

    clock += 24 * HOUR + 60_000;
    const stale = await publicStock(near);
    expect(stale.stale).toBe(true);
    expect(stale.items[0]).toMatchObject({ units: 4, stale: true });
    // Stale stock is never counted as available.
    expect((await availability('bloodType=O-&pincode=110001')).items).toEqual([]);
  });

  it('drops the cached copy on every instance that shares the change bus', async () => {
    // Two server processes on one database: the bus (LISTEN/NOTIFY on PostgreSQL) joins them.
    const bus = createMemoryChangeBus();
    const instance = () =>
      createBloodStockService({
        db: db(),
        resolveOrigin: () => Promise.reject(new Error('not used here')),
        now: () => clock,
        bus,
      });
    const [writer, reader] = [instance(), instance()];
    expect((await reader.cached.read(near)).data.items).toEqual([]);
    const caller = { id: own.userId, role: 'hospital' as const, status: 'approved' as const };
    const meta = { ip: '127.0.0.1', userAgent: null, requestId: 'bus-test', idempotencyKey: null };
    await writer.update(
      caller,
      near,
      { lines: [{ bloodType: 'O-', component: 'prbc', units: 3 }] },
      meta,
    );
    expect((await reader.cached.read(near)).data.items).toEqual([
      expect.objectContaining({ bloodType: 'O-', units: 3 }),
    ]);
  });

  it('is 404 for an unknown facility', async () => {
    const res = await subject.app.inject({ url: '/api/v1/public/facilities/bb-999999/stock' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});

describe('GET /api/v1/public/stock/availability', () => {
  it('lists centres holding the group nearest first, compatible ones apart, with the rule', async () => {
    const nearest = await seedFacility(db(), { name: 'Nearest Centre', ...north(1) });
    const outside = await seedFacility(db(), { name: 'Outside Centre', ...north(40) });
    const nearestAccount = await seedCentreAccount(subject.app, db(), nearest);
    const farAccount = await seedCentreAccount(subject.app, db(), far);
    const outsideAccount = await seedCentreAccount(subject.app, db(), outside);

    await put(far, [{ bloodType: 'O-', component: 'prbc', units: 7 }], farAccount.headers);
    await put(near, [{ bloodType: 'O-', component: 'prbc', units: 2 }]);
    // The nearest holds only O+ PRBC (compatible for A+, not for O-) and zero O-.
    await put(
      nearest,
      [
        { bloodType: 'O+', component: 'prbc', units: 3 },
        { bloodType: 'O-', component: 'prbc', units: 0 },
        { bloodType: 'O-', component: 'ffp', units: 9 },
      ],
      nearestAccount.headers,
    );
    await put(outside, [{ bloodType: 'O-', component: 'prbc', units: 50 }], outsideAccount.headers);

    const oNeg = await availability('bloodType=O-&component=prbc&pincode=110001&radiusKm=25');
    expect(oNeg.items.map((item) => [item.name, item.distanceKm, item.stock])).toEqual([
      [
        'Near Centre',
        2,
        [
          {
            bloodType: 'O-',
            units: 2,
            expiringUnits: null,
            updatedAt: new Date(START).toISOString(),
          },
        ],
      ],
      [
        'Far Centre',
        10,
        [
          {
            bloodType: 'O-',
            units: 7,
            expiringUnits: null,
            updatedAt: new Date(START).toISOString(),
          },
        ],
      ],
    ]);
    // Each centre is a directory facility (the directory's cards show it): every field, no search text.
    expect(oNeg.items[0]).toMatchObject({
      id: near,
      category: null,
      pincode: null,
      email: null,
      website: null,
      components: null,
      apheresis: null,
      serviceTime: null,
      is24x7: false,
      phone: '011-23456789',
      city: 'New Delhi',
    });
    expect(oNeg.items[0]).not.toHaveProperty('search');
    expect(oNeg.compatible).toEqual([]);
    expect(oNeg.compatibleTypes).toEqual([]);
    expect(oNeg.rule).toBe('red_cells');

    const aPos = await availability('bloodType=A%2B&pincode=110001');
    expect(aPos.items).toEqual([]);
    expect(aPos.compatibleTypes).toEqual(['A-', 'O+', 'O-']);
    expect(aPos.compatible.map((item) => [item.name, item.stock.map((s) => s.bloodType)])).toEqual([
      ['Nearest Centre', ['O+']],
      ['Near Centre', ['O-']],
      ['Far Centre', ['O-']],
    ]);

    // Plasma follows the reverse rule: O- FFP is for O recipients only, so not for A+.
    const ffp = await availability('bloodType=A%2B&component=ffp&lat=28.6328&lng=77.2197');
    expect(ffp.rule).toBe('plasma');
    expect(ffp.items).toEqual([]);
    expect(ffp.compatible).toEqual([]);
    const ffpO = await availability('bloodType=O%2B&component=ffp&lat=28.6328&lng=77.2197');
    expect(ffpO.compatible.map((item) => item.name)).toEqual(['Nearest Centre']);
  });

  it('shows a change at once (the cached reply is dropped on a write)', async () => {
    expect((await availability('bloodType=O-&pincode=110001')).items).toEqual([]);
    await put(near, [{ bloodType: 'O-', component: 'prbc', units: 1 }]);
    expect((await availability('bloodType=O-&pincode=110001')).items.map((i) => i.id)).toEqual([
      near,
    ]);
  });

  it('rejects a missing group or place and an unknown PIN code in the envelope', async () => {
    const noType = await subject.app.inject({
      url: '/api/v1/public/stock/availability?pincode=110001',
    });
    expect(noType.statusCode).toBe(400);
    expect(noType.json().error.code).toBe('VALIDATION_ERROR');
    const noPlace = await subject.app.inject({
      url: '/api/v1/public/stock/availability?bloodType=O-',
    });
    expect(noPlace.statusCode).toBe(400);
    const unknown = await subject.app.inject({
      url: '/api/v1/public/stock/availability?bloodType=O-&pincode=999999',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /api/v1/facilities/:id/stock/history', () => {
  it('lists submissions with who and when for the centre’s own accounts and administrators only', async () => {
    await put(near, [{ bloodType: 'O-', component: 'prbc', units: 4 }]);
    clock += STEP;
    await confirm(near);
    const res = await subject.app.inject({
      url: `/api/v1/facilities/${near}/stock/history`,
      headers: own.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = stockHistoryPageSchema.parse(res.json().data);
    expect(page.total).toBe(2);
    expect(page.items.map((item) => [item.kind, item.at, item.by.id])).toEqual([
      ['confirmed', new Date(START + STEP).toISOString(), own.userId],
      ['updated', new Date(START).toISOString(), own.userId],
    ]);
    expect(page.items[0]!.by.name).toMatch(/^hospital \d+$/);

    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const asAdmin = await subject.app.inject({
      url: `/api/v1/facilities/${near}/stock/history`,
      headers: admin.headers,
    });
    expect(asAdmin.json().data.total).toBe(2);
    const other = await seedCentreAccount(subject.app, db(), far);
    const asOther = await subject.app.inject({
      url: `/api/v1/facilities/${near}/stock/history`,
      headers: other.headers,
    });
    expect(asOther.statusCode).toBe(403);
    expect(asOther.json().data).toBeUndefined();
  });
});

describe('GET /api/v1/hospital/stock', () => {
  it('gives a centre its own facility and stock, and refuses donors', async () => {
    await put(near, [{ bloodType: 'O-', component: 'prbc', units: 4 }]);
    const res = await subject.app.inject({ url: '/api/v1/hospital/stock', headers: own.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      facility: { id: near, name: 'Near Centre' },
      verificationStatus: 'verified',
      canUpdate: true,
      stock: { items: [expect.objectContaining({ units: 4 })] },
    });
    const donor = await signIn(subject.app, db(), { role: 'donor', status: 'approved' });
    const refused = await subject.app.inject({
      url: '/api/v1/hospital/stock',
      headers: donor.headers,
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('GET /api/v1/admin/stock/summary (and .csv)', () => {
  it('adds fresh units per state and group, lists silent centres, and exports the table', async () => {
    const mumbai = await seedFacility(db(), {
      name: 'Mumbai Centre',
      state: 'Maharashtra',
      latitude: 19.07,
      longitude: 72.87,
    });
    const mumbaiAccount = await seedCentreAccount(subject.app, db(), mumbai);
    await put(near, [
      { bloodType: 'O-', component: 'prbc', units: 2 },
      { bloodType: 'A+', component: 'prbc', units: 5 },
    ]);
    await put(
      mumbai,
      [
        { bloodType: 'O-', component: 'prbc', units: 4 },
        { bloodType: 'O-', component: 'ffp', units: 9 },
      ],
      mumbaiAccount.headers,
    );
    const farAccount = await seedCentreAccount(subject.app, db(), far);
    await put(far, [{ bloodType: 'O-', component: 'prbc', units: 7 }], farAccount.headers);
    // The Delhi centres go quiet: their figures are stale, so not counted. The far one has not
    // updated for 4 days: it stopped updating (3 days), the near one (30 hours) not yet.
    await db()
      .update(bloodStock)
      .set({ updatedAt: new Date(START - 30 * HOUR) })
      .where(eq(bloodStock.facilityId, near));
    await db()
      .update(bloodStock)
      .set({ updatedAt: new Date(START - 96 * HOUR) })
      .where(eq(bloodStock.facilityId, far));
    const admin = await signIn(subject.app, db(), { role: 'admin' });

    const res = await subject.app.inject({
      url: '/api/v1/admin/stock/summary?component=prbc',
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json().data;
    expect(summary).toMatchObject({ component: 'prbc', reportingCentres: 3, freshCentres: 1 });
    expect(summary.national.find((g: { bloodType: string }) => g.bloodType === 'O-')).toEqual({
      bloodType: 'O-',
      units: 4,
      centres: 1,
    });
    expect(summary.national.find((g: { bloodType: string }) => g.bloodType === 'A+')).toEqual({
      bloodType: 'A+',
      units: 0,
      centres: 0,
    });
    expect(summary.states.map((s: { state: string }) => s.state)).toEqual(['Maharashtra']);
    const quietFar = {
      facilityId: far,
      name: 'Far Centre',
      state: 'Delhi',
      district: 'New Delhi',
      updatedAt: new Date(START - 96 * HOUR).toISOString(),
    };
    expect(summary.staleCentres).toEqual([
      quietFar,
      {
        facilityId: near,
        name: 'Near Centre',
        state: 'Delhi',
        district: 'New Delhi',
        updatedAt: new Date(START - 30 * HOUR).toISOString(),
      },
    ]);
    expect(summary.quietCentres).toEqual([quietFar]);

    const csv = await subject.app.inject({
      url: '/api/v1/admin/stock/summary.csv?component=prbc',
      headers: admin.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain('blood-stock-prbc-2026-11-25.csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('area,component,bloodType,units,centres');
    expect(lines).toContain('India,prbc,O-,4,1');
    expect(lines).toContain('Maharashtra,prbc,O-,4,1');
    expect(lines).toHaveLength(1 + 8 * 2);

    for (const url of ['/api/v1/admin/stock/summary', '/api/v1/admin/stock/summary.csv']) {
      const refused = await subject.app.inject({ url, headers: own.headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain('Near Centre');
    }
    const bad = await subject.app.inject({
      url: '/api/v1/admin/stock/summary?component=blood',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});
