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

/**
 * `lang` is the interface language as it is: the server serves es and hi (a tag of them too) and
 * English for anything else, entry by entry, and says which in each item's `language`.
 */
export function fetchFeaturedArticles(
  lang: string,
  limit = HOME_FEATURED_LIMIT,
  signal?: AbortSignal,
): Promise<EducationContentItem[]> {
  return api.get<EducationContentItem[]>('/api/public/education/featured', {
    auth: false,
    query: { limit, lang },
    signal,
  });
}

export const publicStatsQueryOptions = {
  queryKey: ['public', 'stats'],
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchPublicStats(signal),
  staleTime: LIVE_STALE_MS,
} as const;

export const featuredArticlesQueryOptions = (lang: string) =>
  ({
    queryKey: ['public', 'education', 'featured', lang, HOME_FEATURED_LIMIT],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      fetchFeaturedArticles(lang, HOME_FEATURED_LIMIT, signal),
    staleTime: LIVE_STALE_MS,
  }) as const;
