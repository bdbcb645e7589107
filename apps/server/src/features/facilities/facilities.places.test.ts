import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { facilityNearbyResultSchema, placeSearchResultSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pincodes, places } from '../../db/schema';
import { useTestApp } from '../../test/test-app';
import { loadReferenceData } from './facilities.loader';

/** Issue #15: PIN points with a confidence, searches that widen, and place names. */

const FIXTURES = path.join(import.meta.dirname, '../../test/fixtures');
const SAMPLE = {
  facilities: path.join(FIXTURES, 'blood-banks-sample.csv'),
  pincodes: path.join(FIXTURES, 'pincode-sample.csv'),
  places: path.join(FIXTURES, 'places-sample.csv'),
};

const subject = useTestApp();
const db = () => subject.db;
const get = (url: string) => subject.app.inject({ url });
const nearby = async (query: string) => {
  const res = await get(`/api/v1/public/facilities/nearby?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return facilityNearbyResultSchema.parse(res.json().data);
};

// Crafted PIN codes 25 km north of Gandhi Hospital (bb-2292, 17.42323, 78.504138), one per
// confidence: the same point, so only the confidence differs.
let dir: string;
const crafted = { ...SAMPLE };
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-places-'));
  const sample = await fs.readFile(SAMPLE.pincodes, 'utf8');
  const point = '17.64806,78.50414';
  crafted.pincodes = path.join(dir, 'pincodes.csv');
  await fs.writeFile(
    crafted.pincodes,
    `${sample.trimEnd()}\n` +
      `500097,Hyderabad,Telangana,${point},3,high,india-post\n` +
      `500098,Hyderabad,Telangana,${point},1,medium,geonames\n` +
      `500099,Hyderabad,Telangana,${point},0,low,neighbouring-pins\n`,
  );
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('loading PIN points and place names', () => {
  it('keeps each PIN point’s confidence and source, and the place names with their key', async () => {
    await loadReferenceData(db(), { files: SAMPLE });
    const [secunderabad] = await db().select().from(pincodes).where(eq(pincodes.pincode, '500003'));
    expect(secunderabad).toMatchObject({
      latitude: 17.44255,
      longitude: 78.49875,
      confidence: 'high',
      source: 'india-post-repaired',
    });
    const rows = await db().select().from(places).orderBy(places.id);
    expect(rows).toHaveLength(9);
    expect(rows.find((row) => row.name === 'Koramangala Vi Bk')).toMatchObject({
      key: 'koramangala vi bk',
      kind: 'office',
      pincode: '560095',
      confidence: 'high',
    });
    expect(rows.find((row) => row.kind === 'district' && row.name === 'Hyderabad')).toMatchObject({
      pincode: null,
      confidence: 'low',
    });
  });

  it('reads a PIN file of the old layout (no confidence column) as medium confidence', async () => {
    const old = path.join(dir, 'old-layout.csv');
    await fs.writeFile(
      old,
      'pincode,district,state,latitude,longitude,post_offices\n' +
        '500001,Hyderabad,Telangana,17.52439,78.61415,4\n',
    );
    await loadReferenceData(db(), { files: { ...SAMPLE, pincodes: old } });
    const rows = await db().select().from(pincodes);
    expect(rows).toEqual([
      expect.objectContaining({ pincode: '500001', confidence: 'medium', source: 'india-post' }),
    ]);
  });
});

describe('GET /api/v1/public/facilities/nearby around a PIN code: confidence and widening', () => {
  beforeEach(async () => {
    await loadReferenceData(db(), { files: crafted });
  });

  it('says how sure the PIN point is and keeps the radius for a high-confidence point', async () => {
    const data = await nearby('pincode=500097&radiusKm=10');
    expect(data.origin).toMatchObject({
      pincode: '500097',
      confidence: 'high',
      approximate: false,
      requestedRadiusKm: 10,
      radiusKm: 10,
    });
    expect(data.items).toEqual([]);
  });

  it('widens by 5 km around a medium point and doubles around a low one, saying it is approximate', async () => {
    const medium = await nearby('pincode=500098&radiusKm=10');
    expect(medium.origin).toMatchObject({ confidence: 'medium', approximate: false, radiusKm: 15 });
    expect(medium.items).toEqual([]);

    // The same point, but nobody vouches for it: the nearest banks are found rather than missed.
    const low = await nearby('pincode=500099&radiusKm=10');
    expect(low.origin).toMatchObject({
      pincode: '500099',
      confidence: 'low',
      approximate: true,
      requestedRadiusKm: 10,
      radiusKm: 30,
    });
    expect(low.items.map((item) => [item.id, item.distanceKm])).toEqual([
      ['bb-2258', 15.7],
      ['bb-2292', 25],
    ]);
    // Never beyond 200 km.
    const widest = await nearby('pincode=500099&radiusKm=150');
    expect(widest.origin.radiusKm).toBe(200);
  });

  it('leaves a search around the caller’s own point alone', async () => {
    const data = await nearby('lat=17.64806&lng=78.50414&radiusKm=10');
    expect(data.origin).toMatchObject({
      source: 'point',
      confidence: null,
      approximate: false,
      radiusKm: 10,
    });
  });
});

describe('place names', () => {
  beforeEach(async () => {
    await loadReferenceData(db(), { files: SAMPLE });
  });

  it('finds the blood banks near "Secunderabad" from its post office’s point', async () => {
    const data = await nearby('place=secunderabad&radiusKm=5');
    expect(data.origin).toEqual({
      latitude: 17.44255,
      longitude: 78.49875,
      source: 'place',
      pincode: '500003',
      district: 'Hyderabad',
      state: 'Telangana',
      place: 'Secunderabad',
      confidence: 'high',
      approximate: false,
      requestedRadiusKm: 5,
      radiusKm: 5,
    });
    expect(data.items.map((item) => [item.id, item.distanceKm])).toEqual([['bb-2292', 2.2]]);
  });

  it('matches the exact name before longer (then shorter before longer), ignoring case and punctuation', async () => {
    const res = await get('/api/v1/public/places?q=KORAMANGALA');
    expect(res.statusCode, res.body).toBe(200);
    const { items } = placeSearchResultSchema.parse(res.json().data);
    expect(items.map((item) => [item.name, item.pincode])).toEqual([
      ['Koramangala', '560034'],
      ['Koramangala Vi Bk', '560095'],
      ['Koramangala I Block', '560034'],
    ]);
    const sixth = await nearby('place=koramangala-vi-bk');
    expect(sixth.origin).toMatchObject({ place: 'Koramangala Vi Bk', pincode: '560095' });

    const prefix = await get('/api/v1/public/places?q=secunder&limit=1');
    expect(prefix.json().data.items).toEqual([
      {
        name: 'Secunderabad',
        kind: 'office',
        pincode: '500003',
        district: 'Hyderabad',
        state: 'Telangana',
        latitude: 17.44255,
        longitude: 78.49875,
        confidence: 'high',
      },
    ]);
  });

  it('prefers the town’s post office to its district, and a district is approximate', async () => {
    const { items } = placeSearchResultSchema.parse(
      (await get('/api/v1/public/places?q=hyderabad')).json().data,
    );
    expect(items.map((item) => [item.kind, item.pincode, item.confidence])).toEqual([
      ['office', '500001', 'high'],
      ['district', null, 'low'],
    ]);
    const adilabad = await nearby('place=Adilabad');
    // The office (medium) comes before the district (low), and its radius widens by 5 km.
    expect(adilabad.origin).toMatchObject({
      pincode: '504001',
      confidence: 'medium',
      radiusKm: 30,
    });
    expect(adilabad.items.map((item) => item.id)).toEqual(['bb-2233']);
  });

  it('answers 404 for an unknown place and 400 for a place with a PIN code or without letters', async () => {
    const unknown = await get('/api/v1/public/facilities/nearby?place=Atlantis');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: "We don't know a place called Atlantis." },
    });
    const none = await get('/api/v1/public/places?q=Atlantis');
    expect(none.json().data).toEqual({ items: [] });
    for (const query of [
      'place=Secunderabad&pincode=500003',
      'place=12',
      'place=x',
      'place=%25%25',
    ]) {
      const res = await get(`/api/v1/public/facilities/nearby?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
    }
    const pattern = await get('/api/v1/public/places?q=s_c%25');
    expect(pattern.json().data).toEqual({ items: [] });
  });
});
