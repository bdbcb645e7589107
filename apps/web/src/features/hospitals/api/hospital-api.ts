import type {
  AcceptedDonor,
  BloodRequest,
  BloodRequestPage,
  BloodRequestStatus,
  BloodRequestView,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';

/** Calls of the hospital dashboard (API.md "Blood requests", "Donations"). */

export const hospitalRequestsKey = ['blood-requests', 'hospital'] as const;

export function listHospitalRequests(
  status: BloodRequestStatus | undefined,
  page: number,
  signal?: AbortSignal,
): Promise<BloodRequestPage> {
  return api.get<BloodRequestPage>('/blood-requests', {
    query: { status, page, pageSize: 20 },
    signal,
  });
}

export function updateRequestStatus(
  id: string,
  status: BloodRequestStatus,
  notes?: string,
): Promise<{ request: BloodRequestView }> {
  return api.put<{ request: BloodRequestView }>(`/blood-requests/${id}/status`, {
    status,
    ...(notes ? { notes } : {}),
  });
}

export function listAcceptedDonors(
  id: string,
  signal?: AbortSignal,
): Promise<{ items: AcceptedDonor[] }> {
  return api.get<{ items: AcceptedDonor[] }>(`/blood-requests/${id}/donors`, { signal });
}

export function recordDonation(body: {
  donorId: string;
  donatedAt: string;
  units: number;
  requestId: string;
}): Promise<unknown> {
  return api.post('/donations', body);
}

export type FullRequest = BloodRequest;
