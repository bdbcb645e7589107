import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Facility,
  FacilityFacets,
  FacilityFilters,
  FacilityNearbyResult,
  FacilitySearchResult,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';

/**
 * Calls of the public facilities directory (API.md "Public: facilities"). They are public and
 * cached by the server for 5 minutes, so they are sent without credentials (a shared cache may
 * keep them) and kept fresh here for as long.
 */

export const DIRECTORY_PAGE_SIZE = 20;
/** The most results a search shows (the server's maximum). */
export const RESULTS_LIMIT = 50;
/** The nearest this many: enough to choose from, short enough to scroll on a phone. */
export const NEARBY_LIMIT = 20;
const FRESH_MS = 5 * 60 * 1000;

export type FacilityPage = {
  items: Facility[];
  total: number;
  page: number;
  pageSize: number;
};

/** Where "near" is measured from: the browser's location, a PIN code's point or a place name's. */
export type NearbyOrigin =
  | { kind: 'point'; latitude: number; longitude: number }
  | { kind: 'pincode'; pincode: string }
  | { kind: 'place'; place: string };

/** `true` filters only; `false` is "any" on screen, so it is not sent. */
function filterQuery(filters: FacilityFilters) {
  return {
    state: filters.state,
    district: filters.district,
    city: filters.city,
    category: filters.category,
    components: filters.components ? 'true' : undefined,
    apheresis: filters.apheresis ? 'true' : undefined,
    open24x7: filters.open24x7 ? 'true' : undefined,
  };
}

export const facilityKeys = {
  all: ['facilities'] as const,
  facets: () => [...facilityKeys.all, 'facets'] as const,
  directory: (filters: FacilityFilters, page: number) =>
    [...facilityKeys.all, 'directory', filters, page] as const,
  search: (q: string, filters: FacilityFilters) =>
    [...facilityKeys.all, 'search', q, filters] as const,
  nearby: (origin: NearbyOrigin, radiusKm: number, filters: FacilityFilters) =>
    [...facilityKeys.all, 'nearby', origin, radiusKm, filters] as const,
  detail: (id: string) => [...facilityKeys.all, 'detail', id] as const,
};

export function fetchFacets(signal?: AbortSignal): Promise<FacilityFacets> {
  return api.get<FacilityFacets>('/public/facilities/facets', { auth: false, signal });
}

export function fetchDirectory(
  filters: FacilityFilters,
  page: number,
  signal?: AbortSignal,
): Promise<FacilityPage> {
  return api.get<FacilityPage>('/public/facilities/directory', {
    auth: false,
    signal,
    query: { ...filterQuery(filters), page, pageSize: DIRECTORY_PAGE_SIZE },
  });
}

export function fetchSearch(
  q: string,
  filters: FacilityFilters,
  signal?: AbortSignal,
): Promise<FacilitySearchResult> {
  return api.get<FacilitySearchResult>('/public/facilities/search', {
    auth: false,
    signal,
    query: { q, ...filterQuery(filters), limit: RESULTS_LIMIT },
  });
}

export function fetchNearby(
  origin: NearbyOrigin,
  radiusKm: number,
  filters: FacilityFilters,
  signal?: AbortSignal,
): Promise<FacilityNearbyResult> {
  const where =
    origin.kind === 'point'
      ? { lat: origin.latitude, lng: origin.longitude }
      : origin.kind === 'pincode'
        ? { pincode: origin.pincode }
        : { place: origin.place };
  return api.get<FacilityNearbyResult>('/public/facilities/nearby', {
    auth: false,
    signal,
    query: { ...where, radiusKm, limit: NEARBY_LIMIT, ...filterQuery(filters) },
  });
}

export function fetchFacility(id: string, signal?: AbortSignal): Promise<{ facility: Facility }> {
  return api.get<{ facility: Facility }>(`/public/facilities/${encodeURIComponent(id)}`, {
    auth: false,
    signal,
  });
}

/** What the filters can offer (states with their districts, categories), with counts. */
export function useFacilityFacets() {
  return useQuery({
    queryKey: facilityKeys.facets(),
    queryFn: ({ signal }) => fetchFacets(signal),
    staleTime: FRESH_MS,
  });
}

export function useFacilityDirectory(filters: FacilityFilters, page: number, enabled: boolean) {
  return useQuery({
    queryKey: facilityKeys.directory(filters, page),
    queryFn: ({ signal }) => fetchDirectory(filters, page, signal),
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useFacilitySearch(q: string, filters: FacilityFilters, enabled: boolean) {
  return useQuery({
    queryKey: facilityKeys.search(q, filters),
    queryFn: ({ signal }) => fetchSearch(q, filters, signal),
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useFacilityNearby(
  origin: NearbyOrigin | null,
  radiusKm: number,
  filters: FacilityFilters,
) {
  return useQuery({
    queryKey: origin
      ? facilityKeys.nearby(origin, radiusKm, filters)
      : ([...facilityKeys.all, 'nearby', 'none'] as const),
    queryFn: ({ signal }) => fetchNearby(origin!, radiusKm, filters, signal),
    staleTime: FRESH_MS,
    enabled: origin !== null,
  });
}

/**
 * One facility. Coming from a list, the card's data is shown at once (the list has every field)
 * while the page's own call confirms it.
 */
export function useFacility(id: string, enabled = true) {
  const queryClient = useQueryClient();
  return useQuery<{ facility: Facility }>({
    queryKey: facilityKeys.detail(id),
    queryFn: ({ signal }) => fetchFacility(id, signal),
    staleTime: FRESH_MS,
    enabled,
    placeholderData: (): { facility: Facility } | undefined => {
      for (const [, data] of queryClient.getQueriesData<{ items?: Facility[] }>({
        queryKey: facilityKeys.all,
      })) {
        const found = data?.items?.find((item) => item.id === id);
        if (found) return { facility: found };
      }
      return undefined;
    },
  });
}
