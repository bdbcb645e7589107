import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ActivityPage,
  Availability,
  DonationPage,
  DonationResult,
  DonorStats,
  ReportDonation,
  SetAvailability,
} from '@bdms/shared';
import { api } from '../../../lib/api-client';
import { donorKeys } from './keys';

const user = (userId: string) => `/users/${encodeURIComponent(userId)}`;

/** `GET /users/{id}/stats`: totals, last donation, next eligible date, lives impacted. */
export function useDonorStats(userId: string) {
  return useQuery({
    queryKey: donorKeys.stats(userId),
    queryFn: ({ signal }) => api.get<DonorStats>(`${user(userId)}/stats`, { signal }),
  });
}

/** `GET /users/{id}/donations?page=&pageSize=`, newest first; the previous page stays while the next loads. */
export function useDonations(userId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: donorKeys.donationPage(userId, page, pageSize),
    queryFn: ({ signal }) =>
      api.get<DonationPage>(`${user(userId)}/donations`, { query: { page, pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * `POST /users/{id}/donations {donatedAt, place}`: a donation made elsewhere. It becomes the
 * last donation, so the donor is hidden from matching; the stats say until when.
 */
export function useReportDonation(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReportDonation) => {
      const { donation } = await api.post<DonationResult>(`${user(userId)}/donations`, body);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: donorKeys.donations(userId) }),
        queryClient.invalidateQueries({ queryKey: donorKeys.activityAll(userId) }),
      ]);
      // Read now: the confirmation says until when the donor is hidden.
      const stats = await queryClient.fetchQuery({
        queryKey: donorKeys.stats(userId),
        queryFn: () => api.get<DonorStats>(`${user(userId)}/stats`),
        staleTime: 0,
      });
      return { donation, stats };
    },
  });
}

/** `GET /users/{id}/activity?pageSize=`: the newest entries of the donor's activity log. */
export function useActivity(userId: string, pageSize: number) {
  return useQuery({
    queryKey: donorKeys.activity(userId, pageSize),
    queryFn: ({ signal }) =>
      api.get<ActivityPage>(`${user(userId)}/activity`, { query: { page: 1, pageSize }, signal }),
  });
}

/** `GET /users/{id}/availability`: on/off, until, when confirmed, when it lapses. */
export function useAvailability(userId: string) {
  return useQuery({
    queryKey: donorKeys.availability(userId),
    queryFn: ({ signal }) => api.get<Availability>(`${user(userId)}/availability`, { signal }),
  });
}

/** `PUT /users/{id}/availability {available, until?}`: every call also reconfirms it. */
export function useSetAvailability(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetAvailability) =>
      api.put<Availability>(`${user(userId)}/availability`, body),
    onSuccess: (availability) => {
      queryClient.setQueryData(donorKeys.availability(userId), availability);
    },
  });
}

/** `GET /donations/{id}/certificate` as a file (the bearer token is sent; a link could not). */
export function fetchCertificate(donationId: string): Promise<Blob> {
  return api.get<Blob>(`/donations/${encodeURIComponent(donationId)}/certificate`, {
    responseType: 'blob',
  });
}
