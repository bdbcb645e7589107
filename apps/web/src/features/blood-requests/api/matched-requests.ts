import { useQuery } from '@tanstack/react-query';
import {
  isOpenStatus,
  type BloodRequestPage,
  type MatchResponse,
  type MatchedBloodRequest,
  type RespondResult,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';

/** The donor's matched requests ("Requests for you"), shared by the dashboard and its section. */
export const matchedRequestsKey = ['blood-requests', 'matched'] as const;

export function listMatched(signal: AbortSignal): Promise<BloodRequestPage> {
  return api.get<BloodRequestPage>('/blood-requests', { query: { pageSize: 50 }, signal });
}

export function respondToRequest(id: string, response: MatchResponse): Promise<RespondResult> {
  return api.post<RespondResult>(`/blood-requests/${id}/respond`, { response });
}

export function useMatchedRequests(enabled = true) {
  return useQuery({
    queryKey: matchedRequestsKey,
    queryFn: ({ signal }) => listMatched(signal),
    enabled,
  });
}

const URGENCY_RANK = { critical: 0, urgent: 1 } as Record<string, number>;

/**
 * The requests still waiting for this donor or counting on them (open, not declined, not
 * withdrawn): Critical first, then the earliest "needed by" (none last), then the newest.
 */
export function openMatched(page: BloodRequestPage | undefined): MatchedBloodRequest[] {
  const items = (page?.items ?? []).flatMap((item) =>
    item.view === 'matched' &&
    item.response !== 'declined' &&
    item.response !== 'withdrawn' &&
    isOpenStatus(item.status)
      ? [item]
      : [],
  );
  const neededBy = (item: MatchedBloodRequest) =>
    item.requiredBy ? Date.parse(item.requiredBy) : Number.POSITIVE_INFINITY;
  return items.sort(
    (a, b) =>
      (URGENCY_RANK[a.urgency] ?? 9) - (URGENCY_RANK[b.urgency] ?? 9) ||
      neededBy(a) - neededBy(b) ||
      Date.parse(b.createdAt) - Date.parse(a.createdAt),
  );
}
