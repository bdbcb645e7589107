import {
  haversineKm,
  roundKm,
  type Facility,
  type FacilityDirectoryQuery,
  type FacilityNearbyQuery,
  type FacilitySearchQuery,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { FacilityRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { createFacilitiesRepository } from './facilities.repository';

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

/** Query words for the search: lower-cased letters and digits, 2+ characters, at most 8. */
export function searchTokens(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2);
  return [...new Set(words)].slice(0, 8);
}

export function createFacilitiesService(deps: { db: Db }) {
  const repository = createFacilitiesRepository(deps.db);
  let trigrams: Promise<boolean> | null = null;

  return {
    async search(query: FacilitySearchQuery) {
      const tokens = searchTokens(query.q);
      if (tokens.length === 0) return { items: [] };
      trigrams ??= repository.hasTrigrams().catch(() => false);
      const filters = {
        tokens,
        query: query.q.toLowerCase(),
        state: query.state,
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

    /** Nearest first within `radiusKm`: the bounding box uses the index, haversine cuts to the circle. */
    async nearby(query: FacilityNearbyQuery) {
      const center = { latitude: query.lat, longitude: query.lng };
      const items = (await repository.inBox(query.lat, query.lng, query.radiusKm))
        .map((row) => ({
          row,
          distanceKm: haversineKm(center, {
            latitude: row.latitude as number,
            longitude: row.longitude as number,
          }),
        }))
        .filter((item) => item.distanceKm <= query.radiusKm)
        .sort((a, b) => a.distanceKm - b.distanceKm || a.row.name.localeCompare(b.row.name))
        .slice(0, query.limit)
        .map((item) => ({ ...toFacilityView(item.row), distanceKm: roundKm(item.distanceKm) }));
      return { items };
    },
  };
}

export type FacilitiesService = ReturnType<typeof createFacilitiesService>;
