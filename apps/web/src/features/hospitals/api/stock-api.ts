import type { FacilityStock, StockLine } from '@bdms/shared';
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
