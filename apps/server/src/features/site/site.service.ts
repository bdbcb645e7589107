import type { PublicStats } from '@bdms/shared';
import type { Db } from '../../db/client';
import { toCachedReply, type CachedReply } from '../../lib/reply-cache';
import { createSiteRepository } from './site.repository';

/** How long the figures are reused: they are counts, and the home page is busy. */
export const STATS_CACHE_MS = 5 * 60_000;

export interface SiteServiceDeps {
  db: Db;
  now?: () => number;
}

export function createSiteService(deps: SiteServiceDeps) {
  const now = deps.now ?? Date.now;
  const repository = createSiteRepository(deps.db);
  let cached: { entry: CachedReply<PublicStats>; until: number } | null = null;
  let computing: Promise<CachedReply<PublicStats>> | null = null;

  async function compute(): Promise<CachedReply<PublicStats>> {
    const counts = await repository.counts();
    const at = now();
    const entry = toCachedReply<PublicStats>({
      ...counts,
      generatedAt: new Date(at).toISOString(),
    });
    cached = { entry, until: at + STATS_CACHE_MS };
    return entry;
  }

  return {
    /**
     * The home page's live figures, counted at most once per STATS_CACHE_MS (callers arriving
     * while they are being counted share that count), with their ETag and, once sent, their body.
     */
    stats(): Promise<CachedReply<PublicStats>> {
      if (cached && now() < cached.until) return Promise.resolve(cached.entry);
      if (!computing) {
        computing = compute().finally(() => {
          computing = null;
        });
      }
      return computing;
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
