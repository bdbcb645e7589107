import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { facilities } from '../../db/schema';
import { useTestApp } from '../../test/test-app';
import { loadReferenceData } from './facilities.loader';
import { createFacilitiesService } from './facilities.service';

const FIXTURES = path.join(import.meta.dirname, '../../test/fixtures');
const SAMPLE = {
  facilities: path.join(FIXTURES, 'blood-banks-sample.csv'),
  pincodes: path.join(FIXTURES, 'pincode-sample.csv'),
};

const subject = useTestApp({ seed: (db) => loadReferenceData(db, { files: SAMPLE }) });

const db = () => subject.db;
const get = (url: string, headers: Record<string, string> = {}) =>
  subject.app.inject({ url, headers });

const URLS = [
  '/api/v1/public/facilities/nearby?pincode=500001',
  '/api/v1/public/facilities/nearby?lat=17.385&lng=78.4867',
  '/api/v1/public/facilities/search?q=gandhi%20hyderabad',
  '/api/v1/public/facilities/directory?state=Telangana',
  '/api/v1/public/facilities/facets',
  '/api/v1/public/facilities/bb-2292',
];

describe('the facilities reply cache', () => {
  it('answers repeated queries from memory with the same body and ETag', async () => {
    const first = await Promise.all(URLS.map((url) => get(url)));
    for (const res of first) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=300');
    }
    expect(first[0]!.json().data.items.length).toBeGreaterThan(0);
    expect(first[5]!.json().data.facility.name).toBe('Gandhi Hospital Blood Bank');

    // The directory changes only at start; emptying the table proves the replies are kept.
    await db().delete(facilities);
    for (const [index, url] of URLS.entries()) {
      const again = await get(url);
      expect(again.body).toBe(first[index]!.body);
      expect(again.headers.etag).toBe(first[index]!.headers.etag);
      const current = await get(url, { 'if-none-match': String(first[index]!.headers.etag) });
      expect(current.statusCode).toBe(304);
    }
    // The search ignores the case of `q`, so the cache does too.
    const reordered = await get('/api/v1/public/facilities/search?q=Gandhi%20Hyderabad');
    expect(reordered.body).toBe(first[2]!.body);
  });

  it('does not keep errors', async () => {
    expect((await get('/api/v1/public/facilities/bb-999999')).statusCode).toBe(404);
    expect((await get('/api/v1/public/facilities/nearby?pincode=999999')).statusCode).toBe(404);
    expect((await get('/api/v1/public/facilities/bb-999999')).statusCode).toBe(404);
  });

  it('keeps at most the configured number of replies', async () => {
    const service = createFacilitiesService({ db: db(), replyCacheMax: 3 });
    for (const radiusKm of [5, 10, 15, 20, 25, 30]) {
      await service.cached.nearby({ pincode: '500001', radiusKm, limit: 10 });
    }
    expect(service.cached.size).toBe(3);
  });
});
