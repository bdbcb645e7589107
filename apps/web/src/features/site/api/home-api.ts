import type { EducationContentItem, PublicStats } from '@bdms/shared';
import { api } from '../../../lib/api-client';

/**
 * The home page's live parts: the platform's figures and the featured articles. Public calls,
 * sent without a token. (The contact form's call is in ./contact-api.ts: separate modules keep
 * the home page's lazy chunk from sharing a chunk with the contact page.)
 */

/** How many articles the home page features (API.md: the featured call's default). */
export const HOME_FEATURED_LIMIT = 3;
/** The server caches the figures for a few minutes; asking more often shows nothing new. */
const LIVE_STALE_MS = 5 * 60 * 1000;

export function fetchPublicStats(signal?: AbortSignal): Promise<PublicStats> {
  return api.get<PublicStats>('/public/stats', { auth: false, signal });
}

export function fetchFeaturedArticles(
  limit = HOME_FEATURED_LIMIT,
  signal?: AbortSignal,
): Promise<EducationContentItem[]> {
  return api.get<EducationContentItem[]>('/api/public/education/featured', {
    auth: false,
    query: { limit },
    signal,
  });
}

export const publicStatsQueryOptions = {
  queryKey: ['public', 'stats'],
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchPublicStats(signal),
  staleTime: LIVE_STALE_MS,
} as const;

export const featuredArticlesQueryOptions = {
  queryKey: ['public', 'education', 'featured', HOME_FEATURED_LIMIT],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    fetchFeaturedArticles(HOME_FEATURED_LIMIT, signal),
  staleTime: LIVE_STALE_MS,
} as const;
