/**
 * Query keys of the donor's own data. Everything sits under `['donor', userId]`, so one
 * invalidation refreshes the lot, and sign-out (which removes every query) leaves nothing behind.
 */
export const donorKeys = {
  all: (userId: string) => ['donor', userId] as const,
  onboardingStatus: (userId: string) => ['donor', userId, 'onboarding-status'] as const,
  documents: (userId: string) => ['donor', userId, 'documents'] as const,
  questionnaire: (userId: string) => ['donor', userId, 'questionnaire'] as const,
  stats: (userId: string) => ['donor', userId, 'stats'] as const,
  donations: (userId: string) => ['donor', userId, 'donations'] as const,
  donationPage: (userId: string, page: number, pageSize: number) =>
    ['donor', userId, 'donations', page, pageSize] as const,
  activityAll: (userId: string) => ['donor', userId, 'activity'] as const,
  activity: (userId: string, pageSize: number) => ['donor', userId, 'activity', pageSize] as const,
  availability: (userId: string) => ['donor', userId, 'availability'] as const,
};
