import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  ChannelStatuses,
  AdminDonorPage,
  AdminFlags,
  BloodRequestPage,
  BloodRequestStatus,
  AnalyticsDashboard,
  CreateHospital,
  DocumentResult,
  DonorDetails,
  DonorStatsAdmin,
  EmailStatus,
  ExportDonors,
  FeatureFlag,
  HospitalPage,
  HospitalResult,
  NotificationSettings,
  PendingDonorsResult,
  QuestionnaireResult,
  RecentActivityResult,
  RequestsSummary,
  ReviewQuestionnaire,
  ServerDebugInfo,
  TestEmailResult,
  TimeRange,
  UpdateNotificationSettings,
  UserResult,
  BloodRequest,
  ClientLogLevel,
  ClientLogPage,
  BloodComponent,
  StockSummary,
  MonthlyReport,
} from '@bdms/shared';
import { CONFIG_QUERY_KEY } from '../../../config/use-config';
import { api, type ApiFile } from '../../../lib/api-client';
import type { BloodRequestFilters, DonorFilters } from './types';

/**
 * The administrators' console calls (API.md "Admin", "Documents", "Feature flags", "Blood
 * requests"), each a fetcher plus its React Query hook. Every key starts with 'admin', so a
 * sign-out or a change can drop them all at once.
 */
export const adminKeys = {
  all: ['admin'] as const,
  donorStats: () => [...adminKeys.all, 'donor-stats'] as const,
  pending: (page: number) => [...adminKeys.all, 'pending', page] as const,
  donors: (filters: DonorFilters) => [...adminKeys.all, 'donors', filters] as const,
  details: (id: string) => [...adminKeys.all, 'details', id] as const,
  activity: () => [...adminKeys.all, 'activity'] as const,
  requestsSummary: () => [...adminKeys.all, 'requests-summary'] as const,
  analytics: (timeRange: TimeRange) => [...adminKeys.all, 'analytics', timeRange] as const,
  emailStatus: () => [...adminKeys.all, 'email-status'] as const,
  channels: () => [...adminKeys.all, 'channels'] as const,
  settings: () => [...adminKeys.all, 'notification-settings'] as const,
  hospitals: (page: number) => [...adminKeys.all, 'hospitals', page] as const,
  pendingHospitals: (page: number) => [...adminKeys.all, 'hospitals', 'pending', page] as const,
  flags: () => [...adminKeys.all, 'flags'] as const,
  monthlyReport: (month: string | null) => [...adminKeys.all, 'monthly-report', month] as const,
  bloodRequests: (filters: BloodRequestFilters) =>
    [...adminKeys.all, 'blood-requests', filters] as const,
  clientLogs: (filters: ClientLogFilters) => [...adminKeys.all, 'client-logs', filters] as const,
  stockSummary: (component: BloodComponent) =>
    [...adminKeys.all, 'stock-summary', component] as const,
};

const id = (value: string) => encodeURIComponent(value);

export const PENDING_PAGE_SIZE = 10;
export const DONORS_PAGE_SIZE = 20;
export const HOSPITALS_PAGE_SIZE = 10;
export const REQUESTS_PAGE_SIZE = 20;
export const RECENT_ACTIVITY_LIMIT = 20;
export const CLIENT_LOGS_PAGE_SIZE = 20;

// --- Donors -------------------------------------------------------------------------------

export function useDonorStats() {
  return useQuery({
    queryKey: adminKeys.donorStats(),
    queryFn: () => api.get<DonorStatsAdmin>('/admin/donors/stats'),
  });
}

export function usePendingDonors(page: number) {
  return useQuery({
    queryKey: adminKeys.pending(page),
    queryFn: () =>
      api.get<PendingDonorsResult>('/admin/donors/pending', {
        query: { page, pageSize: PENDING_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useDonorList(filters: DonorFilters) {
  return useQuery({
    queryKey: adminKeys.donors(filters),
    queryFn: () =>
      api.get<AdminDonorPage>('/admin/donors', {
        query: { ...filters, pageSize: DONORS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useDonorDetails(donorId: string) {
  return useQuery({
    queryKey: adminKeys.details(donorId),
    queryFn: () => api.get<DonorDetails>(`/admin/donors/${id(donorId)}/details`),
  });
}

export type DonorAction = 'approve' | 'reject' | 'suspend' | 'reactivate';

export function changeDonorStatus(donorId: string, action: DonorAction, reason?: string) {
  const body = action === 'reject' || action === 'suspend' ? { reason } : undefined;
  return api.post<UserResult>(`/admin/donors/${id(donorId)}/${action}`, body);
}

/** After a change to one donor: its details, the lists and the numbers are out of date. */
function refreshDonorViews(queryClient: QueryClient, donorId: string) {
  void queryClient.invalidateQueries({ queryKey: adminKeys.details(donorId) });
  void queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'pending'] });
  void queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'donors'] });
  void queryClient.invalidateQueries({ queryKey: adminKeys.donorStats() });
  void queryClient.invalidateQueries({ queryKey: adminKeys.activity() });
}

export function useDonorStatusMutation(donorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, reason }: { action: DonorAction; reason?: string }) =>
      changeDonorStatus(donorId, action, reason),
    onSuccess: ({ user }) => {
      queryClient.setQueryData<DonorDetails>(adminKeys.details(donorId), (details) =>
        details ? { ...details, donor: user } : details,
      );
      refreshDonorViews(queryClient, donorId);
    },
    // A refused change (409) means the page showed an old state: read the current one.
    onError: () => refreshDonorViews(queryClient, donorId),
  });
}

export function useVerifyDocument(donorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, verified, rejectionReason }: VerifyDocumentInput) =>
      api.put<DocumentResult>(`/documents/${id(documentId)}/verify`, {
        verified,
        rejectionReason: verified ? null : rejectionReason,
      }),
    onSuccess: ({ document }) => {
      queryClient.setQueryData<DonorDetails>(adminKeys.details(donorId), (details) =>
        details
          ? {
              ...details,
              documents: details.documents.map((item) =>
                item.id === document.id ? document : item,
              ),
            }
          : details,
      );
      refreshDonorViews(queryClient, donorId);
    },
  });
}

export interface VerifyDocumentInput {
  documentId: string;
  verified: boolean;
  rejectionReason?: string;
}

export function useReviewQuestionnaire(donorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: ReviewQuestionnaire) =>
      api.put<QuestionnaireResult>(`/admin/donors/${id(donorId)}/questionnaire/review`, review),
    onSuccess: ({ questionnaire }) => {
      queryClient.setQueryData<DonorDetails>(adminKeys.details(donorId), (details) =>
        details ? { ...details, questionnaire } : details,
      );
      refreshDonorViews(queryClient, donorId);
    },
  });
}

/** `GET /documents/{id}/file` with the bearer token, for an inline preview or a download. */
export function fetchDocumentFile(documentId: string, signal?: AbortSignal): Promise<Blob> {
  return api.get<Blob>(`/documents/${id(documentId)}/file`, { responseType: 'blob', signal });
}

/** `POST /admin/export/donors`: the CSV, with the headers that name it. */
export function exportDonors(filters: ExportDonors): Promise<ApiFile> {
  return api.post<ApiFile>('/admin/export/donors', filters, { responseType: 'file' });
}

// --- Overview ------------------------------------------------------------------------------

export function useRecentActivity() {
  return useQuery({
    queryKey: adminKeys.activity(),
    queryFn: () =>
      api.get<RecentActivityResult>('/admin/activity/recent', {
        query: { limit: RECENT_ACTIVITY_LIMIT },
      }),
  });
}

export function useRequestsSummary() {
  return useQuery({
    queryKey: adminKeys.requestsSummary(),
    queryFn: () => api.get<RequestsSummary>('/admin/requests/summary'),
  });
}

export function useAnalytics(timeRange: TimeRange) {
  return useQuery({
    queryKey: adminKeys.analytics(timeRange),
    queryFn: () => api.get<AnalyticsDashboard>('/analytics/dashboard', { query: { timeRange } }),
    // The old range stays on screen (marked as updating) until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

// --- Monthly report (flag analyticsReporting) ---------------------------------------------

/** `GET /reports/monthly`: one Indian month; null asks for the last complete one. */
export function useMonthlyReport(month: string | null, enabled = true) {
  return useQuery({
    enabled,
    queryKey: adminKeys.monthlyReport(month),
    queryFn: () => api.get<MonthlyReport>('/reports/monthly', { query: month ? { month } : {} }),
    placeholderData: keepPreviousData,
  });
}

/** The report as a file: CSV (English columns) or PDF in the reader's language. */
export function downloadMonthlyReport(
  format: 'csv' | 'pdf',
  month: string,
  lang: string,
): Promise<ApiFile> {
  return api.get<ApiFile>(`/reports/monthly.${format}`, {
    query: format === 'pdf' ? { month, lang } : { month },
    responseType: 'file',
  });
}

// --- Operations ----------------------------------------------------------------------------

export function useEmailStatus() {
  return useQuery({
    queryKey: adminKeys.emailStatus(),
    queryFn: () => api.get<EmailStatus>('/admin/email/status'),
  });
}

export function useSendTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.post<TestEmailResult>('/admin/email/test', { email }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.emailStatus() }),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: adminKeys.settings(),
    queryFn: () => api.get<NotificationSettings>('/admin/notifications/settings'),
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UpdateNotificationSettings) =>
      api.put<NotificationSettings>('/admin/notifications/settings', settings),
    onSuccess: (settings) => {
      queryClient.setQueryData(adminKeys.settings(), settings);
      // Budgets and switches show in the channels panel too.
      void queryClient.invalidateQueries({ queryKey: adminKeys.channels() });
    },
  });
}

/** `GET /admin/notifications/channels`: each channel's health, today's figures and budget. */
export function useChannelStatuses() {
  return useQuery({
    queryKey: adminKeys.channels(),
    queryFn: () => api.get<ChannelStatuses>('/admin/notifications/channels'),
    refetchInterval: 60_000,
  });
}

export function useHospitals(page: number) {
  return useQuery({
    queryKey: adminKeys.hospitals(page),
    queryFn: () =>
      api.get<HospitalPage>('/admin/hospitals', {
        query: { page, pageSize: HOSPITALS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Self-registered hospitals waiting for an administrator (issue #17). */
export function usePendingHospitals(page: number) {
  return useQuery({
    queryKey: adminKeys.pendingHospitals(page),
    queryFn: () =>
      api.get<HospitalPage>('/admin/hospitals', {
        query: { status: 'pending', page, pageSize: HOSPITALS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

/** `POST /admin/hospitals/{id}/verify` or `…/reject {reason}`. */
export function useDecideHospital() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      hospitalId,
      decision,
      reason,
    }: {
      hospitalId: string;
      decision: 'verify' | 'reject';
      reason?: string;
    }) =>
      api.post<HospitalResult>(
        `/admin/hospitals/${id(hospitalId)}/${decision}`,
        decision === 'reject' ? { reason } : undefined,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'hospitals'] }),
  });
}

export function useCreateHospital() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hospital: CreateHospital) =>
      api.post<HospitalResult>('/admin/hospitals', hospital),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'hospitals'] }),
  });
}

export function useSetHospitalDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ hospitalId, disabled }: { hospitalId: string; disabled: boolean }) =>
      api.post<HospitalResult>(
        `/admin/hospitals/${id(hospitalId)}/${disabled ? 'disable' : 'enable'}`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'hospitals'] }),
  });
}

export function useAdminFlags() {
  return useQuery({
    queryKey: adminKeys.flags(),
    queryFn: () => api.get<AdminFlags>('/admin/flags'),
  });
}

export function useSetFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flag, enabled }: { flag: FeatureFlag; enabled: boolean }) =>
      api.put<AdminFlags>('/admin/flags', { [flag]: enabled }),
    onSuccess: (flags) => {
      queryClient.setQueryData(adminKeys.flags(), flags);
      // The header, the home page and the other screens read the flags from the config.
      void queryClient.invalidateQueries({ queryKey: CONFIG_QUERY_KEY });
    },
  });
}

// --- Blood requests ------------------------------------------------------------------------

export function useBloodRequests(filters: BloodRequestFilters) {
  return useQuery({
    queryKey: adminKeys.bloodRequests(filters),
    queryFn: () =>
      api.get<BloodRequestPage>('/blood-requests', {
        query: { ...filters, pageSize: REQUESTS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useUpdateRequestStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      requestId,
      status,
      notes,
    }: {
      requestId: string;
      status: BloodRequestStatus;
      notes: string;
    }) =>
      api.put<{ request: BloodRequest }>(`/blood-requests/${id(requestId)}/status`, {
        status,
        ...(notes ? { notes } : {}),
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'blood-requests'] });
      void queryClient.invalidateQueries({ queryKey: adminKeys.requestsSummary() });
    },
  });
}

// --- Client logs (extension) ----------------------------------------------------------------

export interface ClientLogFilters {
  page: number;
  /** One level, or every level. */
  level?: ClientLogLevel | undefined;
}

/** `GET /admin/client-logs`: what people's browsers reported, newest first. */
export function useClientLogs(filters: ClientLogFilters, { enabled = true } = {}) {
  return useQuery({
    enabled,
    queryKey: adminKeys.clientLogs(filters),
    queryFn: () =>
      api.get<ClientLogPage>('/admin/client-logs', {
        query: { page: filters.page, pageSize: CLIENT_LOGS_PAGE_SIZE, level: filters.level },
      }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /admin/debug` (debugMode): this server process's version, build and runtime. */
export function useServerDebugInfo(enabled: boolean) {
  return useQuery({
    queryKey: [...adminKeys.all, 'debug'] as const,
    queryFn: () => api.get<ServerDebugInfo>('/admin/debug'),
    enabled,
  });
}

// --- Blood stock (issue #17) ---------------------------------------------------------------

/** `GET /admin/stock/summary`: fresh availability nationally and per state, and silent centres. */
export function useStockSummary(component: BloodComponent) {
  return useQuery({
    queryKey: adminKeys.stockSummary(component),
    queryFn: ({ signal }) =>
      api.get<StockSummary>('/admin/stock/summary', { query: { component }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /admin/stock/summary.csv`: the same table as a file, with the headers that name it. */
export function downloadStockSummary(component: BloodComponent): Promise<ApiFile> {
  return api.get<ApiFile>('/admin/stock/summary.csv', {
    query: { component },
    responseType: 'file',
  });
}
