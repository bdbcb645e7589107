import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BloodComponent, BloodType, FacilityStock, StockAvailability } from '@bdms/shared';
import { api } from '../../../lib/api-client';
import type { NearbyOrigin } from './facilities-api';

/**
 * Public stock calls (API.md "blood-stock"): a centre's table and the availability search. The
 * server keeps them 30 s and drops them on every change; figures carry their own age.
 */
const FRESH_MS = 30_000;

export const stockKeys = {
  all: ['stock'] as const,
  facility: (id: string) => [...stockKeys.all, 'facility', id] as const,
  availability: (
    bloodType: BloodType,
    component: BloodComponent,
    origin: NearbyOrigin,
    radiusKm: number,
  ) => [...stockKeys.all, 'availability', bloodType, component, origin, radiusKm] as const,
};

export function useFacilityStock(id: string, enabled = true) {
  return useQuery({
    queryKey: stockKeys.facility(id),
    queryFn: ({ signal }) =>
      api.get<FacilityStock>(`/public/facilities/${id}/stock`, { signal, auth: false }),
    enabled,
    staleTime: FRESH_MS,
  });
}

function originQuery(origin: NearbyOrigin) {
  if (origin.kind === 'point') return { lat: origin.latitude, lng: origin.longitude };
  if (origin.kind === 'pincode') return { pincode: origin.pincode };
  return { place: origin.place };
}

export function useStockAvailability(
  params: {
    bloodType: BloodType;
    component: BloodComponent;
    origin: NearbyOrigin;
    radiusKm?: number;
  } | null,
) {
  const radiusKm = params?.radiusKm ?? 25;
  return useQuery({
    queryKey: params
      ? stockKeys.availability(params.bloodType, params.component, params.origin, radiusKm)
      : [...stockKeys.all, 'availability', 'none'],
    queryFn: ({ signal }) =>
      api.get<StockAvailability>('/public/stock/availability', {
        query: {
          bloodType: params!.bloodType,
          component: params!.component,
          radiusKm,
          limit: 10,
          ...originQuery(params!.origin),
        },
        signal,
        auth: false,
      }),
    enabled: params !== null,
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });
}
