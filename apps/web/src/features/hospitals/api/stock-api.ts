import { useQuery } from '@tanstack/react-query';
import {
  BLOOD_TYPES,
  isStockStale,
  type BloodComponent,
  type BloodType,
  type FacilityStock,
  type StockLine,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';

/** The signed-in blood centre's own stock (API.md "blood-stock"). */
export interface MyStock {
  facility: { id: string; name: string };
  verificationStatus: 'pending' | 'verified' | 'rejected';
  canUpdate: boolean;
  stock: FacilityStock;
}

export const myStockKey = ['stock', 'mine'] as const;

export function fetchMyStock(signal?: AbortSignal): Promise<MyStock> {
  return api.get<MyStock>('/hospital/stock', { signal });
}

export function saveStock(facilityId: string, lines: StockLine[]): Promise<FacilityStock> {
  return api.put<FacilityStock>(`/facilities/${facilityId}/stock`, { lines });
}

export function confirmStock(facilityId: string): Promise<FacilityStock> {
  return api.post<FacilityStock>(`/facilities/${facilityId}/stock/confirm`);
}

/**
 * The signed-in centre's own stock, shared with the desk screen's query. Accounts not linked to
 * a directory centre get 403/404: nothing to show, so no retry.
 */
export function useMyStock(enabled = true) {
  return useQuery({
    queryKey: myStockKey,
    queryFn: ({ signal }) => fetchMyStock(signal),
    enabled,
    retry: false,
  });
}

/**
 * The groups a centre has run out of for a component: no fresh units (none, zero, or a figure
 * older than 24 hours, which is never counted as available). A centre that has never published
 * stock has run out of nothing we know of.
 */
export function groupsRunOut(
  stock: FacilityStock,
  component: BloodComponent,
  now: number,
): BloodType[] {
  if (stock.updatedAt === null) return [];
  return BLOOD_TYPES.filter((bloodType) => {
    const line = stock.items.find(
      (item) => item.bloodType === bloodType && item.component === component,
    );
    return !line || line.units === 0 || isStockStale(line.updatedAt, now);
  });
}
