import type {
  BloodRequestTracking,
  CreateBloodRequest,
  CreateBloodRequestResult,
  FacilitySearchResult,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';

/** Calls of the emergency blood request screens (API.md "Blood requests"). */

export function createBloodRequest(body: CreateBloodRequest): Promise<CreateBloodRequestResult> {
  return api.post<CreateBloodRequestResult>('/blood-requests', body);
}

export function trackBloodRequest(
  code: string,
  signal?: AbortSignal,
): Promise<BloodRequestTracking> {
  return api.get<BloodRequestTracking>(`/blood-requests/track/${encodeURIComponent(code)}`, {
    signal,
  });
}

export function searchFacilities(q: string, signal?: AbortSignal): Promise<FacilitySearchResult> {
  return api.get<FacilitySearchResult>('/public/facilities/search', {
    query: { q, limit: 8 },
    signal,
  });
}

export const trackingQueryKey = (code: string) => ['blood-requests', 'track', code] as const;

/** `POST /blood-requests/track/{code}/confirm`: the code sent by SMS to the contact phone. */
export function confirmBloodRequest(code: string, smsCode: string): Promise<BloodRequestTracking> {
  return api.post<BloodRequestTracking>(
    `/blood-requests/track/${encodeURIComponent(code)}/confirm`,
    { code: smsCode },
  );
}

/** `POST /blood-requests/track/{code}/confirm/resend`: a new code to the contact phone. */
export function resendBloodRequestCode(code: string): Promise<BloodRequestTracking> {
  return api.post<BloodRequestTracking>(
    `/blood-requests/track/${encodeURIComponent(code)}/confirm/resend`,
    {},
  );
}
