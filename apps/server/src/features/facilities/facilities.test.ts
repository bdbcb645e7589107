import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { facilitySchema } from '@bdms/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataImports, facilities, pincodes } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { loadReferenceData } from './facilities.loader';

const FIXTURES = path.join(import.meta.dirname, '../../test/fixtures');
const SAMPLE = {
  facilities: path.join(FIXTURES, 'blood-banks-sample.csv'),
  pincodes: path.join(FIXTURES, 'pincode-sample.csv'),
};

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
const total = async (table: typeof facilities | typeof pincodes) =>
  Number((await db().select({ n: count() }).from(table))[0]!.n);

describe('loadReferenceData', () => {
  it('loads the files with the cleaning rules, then skips them while unchanged', async () => {
    const first = await loadReferenceData(db(), { files: SAMPLE });
    expect(first.map((r) => [r.name, r.skipped, r.rows])).toEqual([
      ['facilities', false, 8],
      ['pincodes', false, 5],
    ]);
    const [gandhi] = await db().select().from(facilities).where(eq(facilities.id, 'bb-2292'));
    expect(gandhi).toMatchObject({
      name: 'Gandhi Hospital Blood Bank',
      is24x7: true,
      pincode: '500003',
    });
    // Placeholders are dropped: the shared district-hospital point, and row 638 (Patna for Panipat).
    for (const id of ['bb-151', 'bb-638']) {
      const [row] = await db().select().from(facilities).where(eq(facilities.id, id));
      expect(row).toMatchObject({ latitude: null, longitude: null });
    }

    const second = await loadReferenceData(db(), { files: SAMPLE });
    expect(second.map((r) => [r.name, r.skipped, r.rows])).toEqual([
      ['facilities', true, 8],
      ['pincodes', true, 5],
    ]);
    expect(second.every((r) => r.ms < 1000)).toBe(true);
  });

  it('reloads a changed file: updates rows and removes those that left it', async () => {
    await loadReferenceData(db(), { files: SAMPLE });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-facilities-'));
    try {
      const text = await fs.readFile(SAMPLE.facilities, 'utf8');
      const changed = text
        .replace('Gandhi Hospital Blood Bank', 'Gandhi Hospital Blood Centre')
        .split('\n')
        .filter((line) => !line.startsWith('700,'))
        .join('\n');
      const file = path.join(dir, 'banks.csv');
      await fs.writeFile(file, changed);
      const result = await loadReferenceData(db(), {
        files: { ...SAMPLE, facilities: file },
      });
      expect(result[0]).toMatchObject({ skipped: false, rows: 7 });
      expect(result[1]).toMatchObject({ skipped: true });
      const [gandhi] = await db().select().from(facilities).where(eq(facilities.id, 'bb-2292'));
      expect(gandhi!.name).toBe('Gandhi Hospital Blood Centre');
      expect(await total(facilities)).toBe(7);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('loads again when a table lost rows, even with the same file', async () => {
    await loadReferenceData(db(), { files: SAMPLE });
    await db().delete(pincodes).where(eq(pincodes.pincode, '110001'));
    const result = await loadReferenceData(db(), { files: SAMPLE });
    expect(result[1]).toMatchObject({
      name: 'pincodes',
      skipped: false,
      rows: 5,
    });
    expect(await total(pincodes)).toBe(5);
  });

  it('loads the real files in a few seconds, and skips them at once afterwards', async () => {
    const first = await loadReferenceData(db());
    expect(first.map((r) => [r.name, r.rows])).toEqual([
      ['facilities', 2823],
      ['pincodes', 19277],
    ]);
    const withPoint = await db()
      .select({ n: count() })
      .from(facilities)
      .where(eq(facilities.is24x7, true));
    expect(Number(withPoint[0]!.n)).toBe(2345);
    const [usable] = await db()
      .select({ n: count(facilities.latitude) })
      .from(facilities);
    expect(Number(usable!.n)).toBe(2714);
    const second = await loadReferenceData(db());
    expect(second.every((r) => r.skipped)).toBe(true);
    const [stored] = await db()
      .select()
      .from(dataImports)
      .where(eq(dataImports.name, 'facilities'));
    expect(stored!.rowCount).toBe(2823);
    // Reported for the record (see the README of apps/server/data).
    console.info(
      `reference data: first load ${first.map((r) => `${r.name} ${Math.round(r.ms)} ms`).join(', ')}; ` +
        `second ${second.map((r) => `${r.name} ${Math.round(r.ms)} ms`).join(', ')}`,
    );

    const search = await subject.app.inject({
      url: '/api/v1/public/facilities/search?q=Gandhi%20hospital%20hyderbad',
    });
    expect(search.json().data.items[0]).toMatchObject({
      id: 'bb-2292',
      city: 'Secunderabad',
    });
  });
});

describe('GET /api/v1/public/facilities/search', () => {
  beforeEach(async () => {
    await loadReferenceData(db(), { files: SAMPLE });
  });

  it('finds Gandhi Hospital in Hyderabad despite the misspelling, best match first', async () => {
    const res = await subject.app.inject({
      url: '/api/v1/public/facilities/search?q=Gandhi%20hospital%20hyderbad',
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data.items;
    expect(items[0]).toMatchObject({
      id: 'bb-2292',
      name: 'Gandhi Hospital Blood Bank',
      district: 'HYDERABAD',
    });
    expect(items[0].score).toBeGreaterThan(items[1]?.score ?? 0);
    expect(
      facilitySchema
        .extend({ score: facilitySchema.shape.latitude.unwrap() })
        .strict()
        .safeParse(items[0]).success,
    ).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toMatch(/^W\/"/);
    const again = await subject.app.inject({
      url: '/api/v1/public/facilities/search?q=Gandhi%20hospital%20hyderbad',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('tolerates other misspellings and filters by state', async () => {
    const res = await subject.app.inject({
      url: '/api/v1/public/facilities/search?q=gandi%20warangal',
    });
    expect(res.json().data.items[0].id).toBe('bb-2376');
    const inState = await subject.app.inject({
      url: '/api/v1/public/facilities/search?q=blood%20bank&state=Andaman%20And%20Nicobar%20Islands',
    });
    expect(inState.json().data.items.map((i: { id: string }) => i.id)).toEqual(['bb-1']);
    const none = await subject.app.inject({
      url: '/api/v1/public/facilities/search?q=zzzzqqqq',
    });
    expect(none.json().data.items).toEqual([]);
  });

  it('needs at least 2 characters', async () => {
    const res = await subject.app.inject({
      url: '/api/v1/public/facilities/search?q=g',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].path).toBe('query.q');
  });
});

describe('GET /api/v1/public/facilities/{id}, directory and nearby', () => {
  beforeEach(async () => {
    await loadReferenceData(db(), { files: SAMPLE });
  });

  it('returns one facility, 404 for unknown ids and 400 for malformed ones', async () => {
    const res = await subject.app.inject({
      url: '/api/v1/public/facilities/bb-2292',
    });
    expect(res.statusCode).toBe(200);
    expect(facilitySchema.strict().parse(res.json().data.facility)).toMatchObject({
      id: 'bb-2292',
      components: true,
      apheresis: true,
      serviceTime: '24x7',
      is24x7: true,
      latitude: 17.42323,
    });
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(
      (await subject.app.inject({ url: '/api/v1/public/facilities/bb-99999' })).statusCode,
    ).toBe(404);
    expect((await subject.app.inject({ url: '/api/v1/public/facilities/xyz' })).statusCode).toBe(
      400,
    );
  });

  it('lists the directory and the nearest facilities', async () => {
    const page = await subject.app.inject({
      url: '/api/v1/public/facilities/directory?state=telangana&pageSize=2',
    });
    expect(page.json().data).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    const nearby = await subject.app.inject({
      url: '/api/v1/public/facilities/nearby?lat=17.385&lng=78.4867&radiusKm=25',
    });
    const items = nearby.json().data.items;
    expect(items.map((i: { id: string }) => i.id)).toEqual(['bb-2292', 'bb-2258']);
    expect(items[0].distanceKm).toBeGreaterThan(4);
    expect(items[0].distanceKm).toBeLessThan(6);
  });
});
