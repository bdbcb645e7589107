import {
  FACILITY_CATEGORIES,
  haversineKm,
  roundKm,
  type Facility,
  type FacilityDirectoryQuery,
  type FacilityFacets,
  type FacilityFilters,
  type FacilityNearbyQuery,
  type FacilityNearbyResult,
  type FacilitySearchQuery,
  type FacilitySearchResult,
  type NearbyOrigin,
  type PlaceConfidence,
  type PlaceSearchQuery,
  type PlaceSearchResult,
  widenedRadiusKm,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { FacilityRow, PlaceRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { cacheKey, createReplyCache, type CachedReply } from '../../lib/reply-cache';
import { createFacilitiesRepository, type FacetCounts } from './facilities.repository';
import { placeKey } from './places/place-names';

export function toFacilityView(row: FacilityRow): Facility {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    address: row.address,
    city: row.city,
    district: row.district,
    state: row.state,
    pincode: row.pincode,
    phone: row.phone,
    mobile: row.mobile,
    email: row.email,
    website: row.website,
    latitude: row.latitude,
    longitude: row.longitude,
    components: row.components,
    apheresis: row.apheresis,
    serviceTime: row.serviceTime,
    is24x7: row.is24x7,
  };
}

export function toPlaceView(row: PlaceRow): PlaceSearchResult['items'][number] {
  return {
    name: row.name,
    kind: row.kind as 'office' | 'district',
    pincode: row.pincode,
    district: row.district,
    state: row.state,
    latitude: row.latitude,
    longitude: row.longitude,
    confidence: row.confidence as PlaceConfidence,
  };
}

/** Query words for the search: lower-cased letters and digits, 2+ characters, at most 8. */
export function searchTokens(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2);
  return [...new Set(words)].slice(0, 8);
}

/** Only the filters of a query (search, directory and nearby share them). */
export function pickFilters(query: FacilityFilters): FacilityFilters {
  const { state, district, city, category, components, apheresis, open24x7 } = query;
  return { state, district, city, category, components, apheresis, open24x7 };
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' });

/**
 * Counts → facets. Values that differ only in case are one entry (the filters ignore case),
 * named after their most common spelling; states and districts are in alphabetical order, the
 * known categories first in FACILITY_CATEGORIES order. Facilities without a district count in
 * their state only.
 */
export function toFacets(counts: FacetCounts): FacilityFacets {
  type Tally = { count: number; spellings: Map<string, number> };
  const tally = (map: Map<string, Tally>, value: string, n: number) => {
    const key = value.toLowerCase();
    const entry = map.get(key) ?? { count: 0, spellings: new Map<string, number>() };
    entry.count += n;
    entry.spellings.set(value, (entry.spellings.get(value) ?? 0) + n);
    map.set(key, entry);
    return key;
  };
  const nameOf = (entry: Tally) =>
    [...entry.spellings].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];

  const states = new Map<string, Tally>();
  const districts = new Map<string, Map<string, Tally>>();
  for (const row of counts.districts) {
    const key = tally(states, row.state, row.count);
    const inState = districts.get(key) ?? new Map<string, Tally>();
    districts.set(key, inState);
    if (row.district) tally(inState, row.district, row.count);
  }
  const categories = new Map<string, Tally>();
  for (const row of counts.categories) tally(categories, row.category, row.count);
  const known = FACILITY_CATEGORIES.map((name) => name.toLowerCase());
  const rank = (name: string) => {
    const index = known.indexOf(name.toLowerCase());
    return index === -1 ? known.length : index;
  };

  return {
    total: counts.total,
    withLocation: counts.withLocation,
    states: [...states]
      .map(([key, entry]) => ({
        name: nameOf(entry),
        count: entry.count,
        districts: [...(districts.get(key) ?? new Map<string, Tally>()).values()]
          .map((district) => ({ name: nameOf(district), count: district.count }))
          .sort(byName),
      }))
      .sort(byName),
    categories: [...categories.values()]
      .map((entry) => ({ name: nameOf(entry), count: entry.count }))
      .sort((a, b) => rank(a.name) - rank(b.name) || byName(a, b)),
    components: counts.components,
    apheresis: counts.apheresis,
    open24x7: counts.open24x7,
  };
}

/** Computed public replies kept per process (search, directory, nearby, one facility, facets). */
export const FACILITY_REPLY_CACHE_MAX = 500;

export function createFacilitiesService(deps: { db: Db; replyCacheMax?: number }) {
  const repository = createFacilitiesRepository(deps.db);
  /**
   * The directory changes only when the server starts (the loader runs before it listens), so
   * computed replies stay valid for the life of the process; the LRU bounds the memory. Errors
   * (unknown id or PIN code) are not kept. Misses still run the indexed queries.
   */
  const replies = createReplyCache<unknown>({
    max: deps.replyCacheMax ?? FACILITY_REPLY_CACHE_MAX,
  });
  const memo = <T>(key: string, compute: () => Promise<T>) =>
    replies.get(key, compute) as Promise<CachedReply<T>>;
  let trigrams: Promise<boolean> | null = null;
  // The directory changes only when the server starts (the loader runs before it listens).
  let facets: Promise<FacilityFacets> | null = null;

  /**
   * Where a nearby search starts: the caller's point, a PIN code's point or a place name's. A
   * PIN code's or a place's point carries its confidence, and the radius widens with it
   * (widenedRadiusKm): a low-confidence point may be tens of km off, and missing the nearest
   * blood bank is worse than listing a few more.
   */
  async function resolveOrigin(query: FacilityNearbyQuery): Promise<NearbyOrigin> {
    const requestedRadiusKm = query.radiusKm;
    const approximate = (confidence: PlaceConfidence) => ({
      confidence,
      approximate: confidence === 'low',
      requestedRadiusKm,
      radiusKm: widenedRadiusKm(requestedRadiusKm, confidence),
    });
    if (query.pincode !== undefined) {
      const row = await repository.findPincode(query.pincode);
      if (!row) throw new AppError('NOT_FOUND', `We don't know the PIN code ${query.pincode}.`);
      return {
        latitude: row.latitude,
        longitude: row.longitude,
        source: 'pincode',
        pincode: row.pincode,
        district: row.district,
        state: row.state,
        place: null,
        ...approximate(row.confidence as PlaceConfidence),
      };
    }
    if (query.place !== undefined) {
      const [row] = await repository.searchPlaces(placeKey(query.place), 1);
      if (!row) throw new AppError('NOT_FOUND', `We don't know a place called ${query.place}.`);
      return {
        latitude: row.latitude,
        longitude: row.longitude,
        source: 'place',
        pincode: row.pincode,
        district: row.district,
        state: row.state,
        place: row.name,
        ...approximate(row.confidence as PlaceConfidence),
      };
    }
    // The query schema guarantees lat and lng when there is no PIN code or place.
    return {
      latitude: query.lat as number,
      longitude: query.lng as number,
      source: 'point',
      pincode: null,
      district: null,
      state: null,
      place: null,
      confidence: null,
      approximate: false,
      requestedRadiusKm,
      radiusKm: requestedRadiusKm,
    };
  }

  const service = {
    /** Where a search around a point, PIN code or place starts (the stock search shares it). */
    resolveOrigin,

    async search(query: FacilitySearchQuery): Promise<FacilitySearchResult> {
      const tokens = searchTokens(query.q);
      if (tokens.length === 0) return { items: [] };
      trigrams ??= repository.hasTrigrams().catch(() => false);
      const filters = {
        ...pickFilters(query),
        tokens,
        query: query.q.toLowerCase(),
        limit: query.limit,
      };
      const rows = (await trigrams)
        ? await repository.searchTrigram(filters)
        : await repository.searchPlain(filters);
      return {
        items: rows.map((row) => ({
          ...toFacilityView(row),
          score: Math.round(row.score * 1000) / 1000,
        })),
      };
    },

    async get(id: string): Promise<Facility> {
      const row = await repository.findById(id);
      if (!row) throw new AppError('NOT_FOUND', 'There is no facility with this id.');
      return toFacilityView(row);
    },

    async directory(query: FacilityDirectoryQuery) {
      const { items, total } = await repository.directory(query);
      return {
        items: items.map(toFacilityView),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    /**
     * Nearest first within the radius (widened around a PIN code's or place's point, see
     * resolveOrigin) of the point: the bounding box uses the (latitude, longitude) index,
     * haversine cuts to the circle.
     */
    async nearby(query: FacilityNearbyQuery): Promise<FacilityNearbyResult> {
      const origin = await resolveOrigin(query);
      const center = { latitude: origin.latitude, longitude: origin.longitude };
      const rows = await repository.inBox(
        origin.latitude,
        origin.longitude,
        origin.radiusKm,
        pickFilters(query),
      );
      const items = rows
        .map((row) => ({
          row,
          distanceKm: haversineKm(center, {
            latitude: row.latitude as number,
            longitude: row.longitude as number,
          }),
        }))
        .filter((item) => item.distanceKm <= origin.radiusKm)
        .sort((a, b) => a.distanceKm - b.distanceKm || a.row.name.localeCompare(b.row.name))
        .slice(0, query.limit)
        .map((item) => ({ ...toFacilityView(item.row), distanceKm: roundKm(item.distanceKm) }));
      return { items, origin };
    },

    /** Place names starting like `q`, best first (see the repository's `searchPlaces`). */
    async places(query: PlaceSearchQuery): Promise<PlaceSearchResult> {
      const key = placeKey(query.q);
      if (!key) return { items: [] };
      const rows = await repository.searchPlaces(key, query.limit);
      return { items: rows.map(toPlaceView) };
    },

    /** What the filters can offer, computed once per process (the data changes only at start). */
    facets(): Promise<FacilityFacets> {
      if (!facets) {
        const computing = repository.facetCounts().then(toFacets);
        facets = computing;
        // A failure is not remembered: the next call tries again.
        computing.catch(() => {
          if (facets === computing) facets = null;
        });
      }
      return facets;
    },
  };

  return {
    ...service,

    /** The same replies with their ETags, computed once per distinct query (see `replies`). */
    cached: {
      search: (query: FacilitySearchQuery) =>
        memo(`search:${cacheKey({ ...query, q: query.q.toLowerCase() })}`, () =>
          service.search(query),
        ),
      directory: (query: FacilityDirectoryQuery) =>
        memo(`directory:${cacheKey(query)}`, () => service.directory(query)),
      nearby: (query: FacilityNearbyQuery) =>
        memo(`nearby:${cacheKey({ ...query, place: query.place && placeKey(query.place) })}`, () =>
          service.nearby(query),
        ),
      get: (id: string) => memo(`get:${id}`, async () => ({ facility: await service.get(id) })),
      facets: () => memo('facets', () => service.facets()),
      places: (query: PlaceSearchQuery) =>
        memo(`places:${cacheKey({ ...query, q: placeKey(query.q) })}`, () => service.places(query)),
      get size() {
        return replies.size;
      },
    },
  };
}

export type FacilitiesService = ReturnType<typeof createFacilitiesService>;
