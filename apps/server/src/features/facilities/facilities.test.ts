import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  facilityFacetsSchema,
  facilityNearbyResultSchema,
  facilitySchema,
  type FacilityFacets,
} from '@bdms/shared';
import { count, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { dataImports, facilities, pincodes } from '../../db/schema';
import { useTestApp } from '../../test/test-app';
import { loadReferenceData } from './facilities.loader';
import { createFacilitiesRepository } from './facilities.repository';

const FIXTURES = path.join(import.meta.dirname, '../../test/fixtures');
const SAMPLE = {
  facilities: path.join(FIXTURES, 'blood-banks-sample.csv'),
  pincodes: path.join(FIXTURES, 'pincode-sample.csv'),
  places: path.join(FIXTURES, 'places-sample.csv'),
};

const subject = useTestApp();

const db = () => subject.db;
const get = (url: string, headers: Record<string, string> = {}) =>
  subject.app.inject({ url, headers });
const ids = (res: { json(): { data: { items: { id: string }[] } } }) =>
  res
    .json()
    .data.items.map((item) => item.id)
    .sort();
const total = async (table: typeof facilities | typeof pincodes) =>
  Number((await db().select({ n: count() }).from(table))[0]!.n);

describe('loadReferenceData', () => {
  it('loads the files with the cleaning rules, then skips them while unchanged', async () => {
    const first = await loadReferenceData(db(), { files: SAMPLE });
    expect(first.map((r) => [r.name, r.skipped, r.rows])).toEqual([
      ['facilities', false, 8],
      ['pincodes', false, 5],
      ['places', false, 9],
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
      ['places', true, 9],
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
      ['pincodes', 19425],
      ['places', 26180],
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

describe('the directory filters', () => {
  beforeEach(async () => {
    await loadReferenceData(db(), { files: SAMPLE });
  });

  it.each([
    ['state=telangana&components=true', ['bb-2233', 'bb-2292', 'bb-2376']],
    ['district=hyderabad&apheresis=true', ['bb-2292']],
    ['city=SECUNDERABAD', ['bb-2292']],
    ['category=charity', ['bb-2258', 'bb-638']],
    ['open24x7=false', ['bb-151', 'bb-638']],
    // Unknown counts as "not licensed": true and false together cover every facility.
    ['components=false', ['bb-151', 'bb-2258', 'bb-700']],
    ['apheresis=true&open24x7=true', ['bb-2292']],
    ['state=Telangana&district=Warangal&category=Private', []],
  ])('directory?%s', async (query, expected) => {
    const res = await get(`/api/v1/public/facilities/directory?${query}&pageSize=100`);
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res)).toEqual([...expected].sort());
    expect(res.json().data.total).toBe(expected.length);
  });

  it('applies the filters to the search too, keeping the misspelling tolerance', async () => {
    // "gandi": a misspelling of Gandhi.
    const gandhi = await get('/api/v1/public/facilities/search?q=gandi');
    expect(ids(gandhi)).toEqual(['bb-2233', 'bb-2292', 'bb-2376']);
    for (const [query, expected] of [
      ['apheresis=true', ['bb-2292']],
      ['district=warangal', ['bb-2376']],
      ['city=adilabad&components=true&open24x7=true', ['bb-2233']],
      ['category=Charity', []],
    ] as const) {
      const res = await get(`/api/v1/public/facilities/search?q=gandi&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res), query).toEqual(expected);
    }
    const open = await get('/api/v1/public/facilities/search?q=blood%20bank&open24x7=false');
    expect(ids(open)).toEqual(['bb-151', 'bb-638']);
  });

  it('applies the filters in the fallback search without pg_trgm', async () => {
    const repository = createFacilitiesRepository(db());
    const search = async (tokens: string[], filters: object = {}) =>
      (await repository.searchPlain({ tokens, query: tokens.join(' '), limit: 20, ...filters }))
        .map((row) => row.id)
        .sort();
    expect(await search(['gandhi'])).toEqual(['bb-2233', 'bb-2292', 'bb-2376']);
    expect(await search(['gandhi'], { apheresis: true })).toEqual(['bb-2292']);
    expect(await search(['gandhi'], { state: 'Haryana' })).toEqual([]);
    expect(await search(['blood'], { category: 'charity' })).toEqual(['bb-2258', 'bb-638']);
    expect(await search(['blood'], { district: 'hyderabad', open24x7: true })).toEqual([
      'bb-2258',
      'bb-2292',
    ]);
  });

  it('refuses bad filter values with 400 and the field, never a 500', async () => {
    const components = await get('/api/v1/public/facilities/directory?components=yes');
    expect(components.statusCode).toBe(400);
    expect(components.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'query.components', message: 'Use true or false.' }],
    });
    for (const url of [
      '/api/v1/public/facilities/directory?apheresis=1',
      '/api/v1/public/facilities/directory?open24x7=',
      '/api/v1/public/facilities/directory?state=x',
      '/api/v1/public/facilities/directory?page=0',
      '/api/v1/public/facilities/directory?pageSize=abc',
      '/api/v1/public/facilities/search?q=gandhi&components=TRUE1',
      '/api/v1/public/facilities/search?q=gandhi&limit=NaN',
      `/api/v1/public/facilities/search?q=gandhi&district=${'x'.repeat(81)}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code, url).toBe('VALIDATION_ERROR');
    }
  });
});

describe('GET /api/v1/public/facilities/nearby by PIN code', () => {
  beforeEach(async () => {
    await loadReferenceData(db(), { files: SAMPLE });
  });

  it('finds the blood banks nearest to PIN 500001 (Hyderabad), nearest first', async () => {
    const res = await get('/api/v1/public/facilities/nearby?pincode=500001');
    expect(res.statusCode, res.body).toBe(200);
    const data = facilityNearbyResultSchema.parse(res.json().data);
    // The rebuilt point (#15): Abids, where the head post office is, not 22 km north-east.
    expect(data.origin).toEqual({
      latitude: 17.39314,
      longitude: 78.47628,
      source: 'pincode',
      pincode: '500001',
      district: 'Hyderabad',
      state: 'Telangana',
      place: null,
      confidence: 'high',
      approximate: false,
      requestedRadiusKm: 25,
      radiusKm: 25,
    });
    expect(data.items.map((item) => item.id)).toEqual(['bb-2292', 'bb-2258']);
    expect(data.items.map((item) => item.distanceKm)).toEqual([4.5, 14.7]);
    expect(res.headers['cache-control']).toBe('public, max-age=300');

    const wider = await get('/api/v1/public/facilities/nearby?pincode=500001&radiusKm=200');
    const distances = wider
      .json()
      .data.items.map((item: { distanceKm: number }) => item.distanceKm);
    expect(wider.json().data.items.map((item: { id: string }) => item.id)).toEqual([
      'bb-2292',
      'bb-2258',
      'bb-2376',
    ]);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances[2]).toBeGreaterThan(100);
  });

  it('applies the directory filters, and says where a point query measured from', async () => {
    const filtered = await get(
      '/api/v1/public/facilities/nearby?pincode=500001&radiusKm=200&components=true',
    );
    expect(filtered.json().data.items.map((item: { id: string }) => item.id)).toEqual([
      'bb-2292',
      'bb-2376',
    ]);
    const charity = await get(
      '/api/v1/public/facilities/nearby?pincode=500001&radiusKm=200&category=Charity',
    );
    expect(charity.json().data.items.map((item: { id: string }) => item.id)).toEqual(['bb-2258']);
    const point = await get('/api/v1/public/facilities/nearby?lat=17.385&lng=78.4867&limit=1');
    expect(point.json().data).toMatchObject({
      items: [{ id: 'bb-2292' }],
      origin: {
        latitude: 17.385,
        longitude: 78.4867,
        source: 'point',
        pincode: null,
        district: null,
        state: null,
      },
    });
  });

  it('answers 404 for a PIN code it does not know', async () => {
    const res = await get('/api/v1/public/facilities/nearby?pincode=999999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: "We don't know the PIN code 999999." },
    });
  });

  it('wants lat and lng, a PIN code or a place: 400 with details otherwise, never a 500', async () => {
    const both = await get('/api/v1/public/facilities/nearby?lat=17.4&lng=78.5&pincode=500001');
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        {
          path: 'query.pincode',
          message: 'Give either lat and lng, a PIN code or a place name, not several.',
        },
      ],
    });
    const half = await get('/api/v1/public/facilities/nearby?lat=17.4');
    expect(half.json().error.details).toEqual([
      { path: 'query.lng', message: 'Give both lat and lng.' },
    ]);
    const none = await get('/api/v1/public/facilities/nearby');
    expect(none.json().error.details).toEqual([
      { path: 'query.lat', message: 'Give lat and lng, a PIN code or a place name.' },
    ]);
    for (const query of [
      'pincode=abc',
      'pincode=012345',
      'pincode=5000011',
      'lat=NaN&lng=78.5',
      'lat=17.4&lng=Infinity',
      'lat=91&lng=78.5',
      'pincode=500001&radiusKm=0',
      'pincode=500001&radiusKm=-5',
      'pincode=500001&limit=1e9',
      'pincode=500001&components=yes',
      'pincode=500001&open24x7=on',
    ]) {
      const res = await get(`/api/v1/public/facilities/nearby?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
    }
  });

  it('answers 304 when the client already has the reply', async () => {
    const first = await get('/api/v1/public/facilities/nearby?pincode=500001');
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await get('/api/v1/public/facilities/nearby?pincode=500001', {
      'if-none-match': first.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get('/api/v1/public/facilities/nearby?pincode=504001', {
      'if-none-match': first.headers.etag as string,
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('GET /api/v1/public/facilities/facets', () => {
  beforeEach(async () => {
    await loadReferenceData(db(), { files: SAMPLE });
  });

  it('counts what the filters can offer, cached with an ETag', async () => {
    const res = await get('/api/v1/public/facilities/facets');
    expect(res.statusCode, res.body).toBe(200);
    expect(facilityFacetsSchema.strict().parse(res.json().data)).toEqual({
      total: 8,
      withLocation: 6,
      states: [
        {
          name: 'Andaman And Nicobar Islands',
          count: 1,
          districts: [{ name: 'SOUTH ANDAMAN', count: 1 }],
        },
        { name: 'Arunachal Pradesh', count: 1, districts: [{ name: 'UPPER SIANG', count: 1 }] },
        { name: 'Haryana', count: 1, districts: [{ name: 'PANIPAT', count: 1 }] },
        { name: 'Jammu and Kashmir', count: 1, districts: [{ name: 'SHOPIAN', count: 1 }] },
        {
          name: 'Telangana',
          count: 4,
          districts: [
            { name: 'ADILABAD', count: 1 },
            { name: 'HYDERABAD', count: 2 },
            { name: 'WARANGAL', count: 1 },
          ],
        },
      ],
      categories: [
        { name: 'Government', count: 6 },
        { name: 'Charity', count: 2 },
      ],
      components: 5,
      apheresis: 2,
      open24x7: 6,
    });
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const again = await get('/api/v1/public/facilities/facets', {
      'if-none-match': res.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
  });

  it('agrees with the directory’s totals for every filter', async () => {
    await expectFacetsMatchDirectory();
  });
});

/** Each count of the facets is the directory's `total` for that filter. */
async function expectFacetsMatchDirectory(): Promise<FacilityFacets> {
  const facets = facilityFacetsSchema.parse(
    (await get('/api/v1/public/facilities/facets')).json().data,
  );
  const totalOf = async (query: string) => {
    const res = await get(`/api/v1/public/facilities/directory?${query}&pageSize=1`);
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    return res.json().data.total as number;
  };
  const q = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;
  expect(await totalOf('page=1')).toBe(facets.total);
  expect(facets.states.reduce((sum, state) => sum + state.count, 0)).toBe(facets.total);
  for (const state of facets.states) {
    expect(await totalOf(q('state', state.name)), state.name).toBe(state.count);
    expect(state.districts.reduce((sum, d) => sum + d.count, 0)).toBeLessThanOrEqual(state.count);
    // The first and the last district of each state (every district would be ~700 requests).
    for (const district of new Set([state.districts[0], state.districts.at(-1)])) {
      if (!district) continue;
      expect(
        await totalOf(`${q('state', state.name)}&${q('district', district.name)}`),
        `${state.name} / ${district.name}`,
      ).toBe(district.count);
    }
  }
  for (const category of facets.categories) {
    expect(await totalOf(q('category', category.name)), category.name).toBe(category.count);
  }
  expect(await totalOf('components=true')).toBe(facets.components);
  expect(await totalOf('apheresis=true')).toBe(facets.apheresis);
  expect(await totalOf('open24x7=true')).toBe(facets.open24x7);
  expect((await totalOf('components=false')) + facets.components).toBe(facets.total);
  return facets;
}

describe('the real directory', () => {
  it('finds the nearest blood banks to PIN 500001 and its facets match the directory', async () => {
    await loadReferenceData(db());
    const res = await get('/api/v1/public/facilities/nearby?pincode=500001');
    expect(res.statusCode, res.body).toBe(200);
    const { items, origin } = facilityNearbyResultSchema.parse(res.json().data);
    expect(origin).toMatchObject({
      source: 'pincode',
      pincode: '500001',
      district: 'Hyderabad',
      state: 'Telangana',
    });
    expect(items).toHaveLength(10);
    const distances = items.map((item) => item.distanceKm);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances.at(-1)).toBeLessThanOrEqual(25);
    // Around Abids now (#15), not 22 km north-east: the banks that state 500001 come first.
    expect(items.slice(0, 3).map((item) => [item.id, item.pincode])).toEqual([
      ['bb-2277', '500001'],
      ['bb-2283', '500001'],
      ['bb-2263', '500001'],
    ]);
    expect(items[2]!.distanceKm).toBeLessThan(1);
    // Row 1446 (a Nanded, Maharashtra bank) carries a Hyderabad point in the source.
    expect(items.filter((item) => item.state !== 'Telangana').map((item) => item.id)).toEqual([
      'bb-1446',
    ]);
    // The file's 999999 (an Army Postal Service code pointing at Salem) is not a place.
    const unknown = await get('/api/v1/public/facilities/nearby?pincode=999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe("We don't know the PIN code 999999.");

    const facets = await expectFacetsMatchDirectory();
    expect(facets).toMatchObject({ total: 2823, withLocation: 2714, open24x7: 2345 });
    expect(facets.states).toHaveLength(36);
    expect(facets.categories.map((category) => category.name)).toEqual([
      'Government',
      'Private',
      'Charity',
    ]);
  });
});
