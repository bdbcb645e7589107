import type { PublicStats } from '@bdms/shared';
import type { Db } from '../../db/client';
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
  let cached: { stats: PublicStats; until: number } | null = null;
  let computing: Promise<PublicStats> | null = null;

  async function compute(): Promise<PublicStats> {
    const counts = await repository.counts();
    const at = now();
    const stats = { ...counts, generatedAt: new Date(at).toISOString() };
    cached = { stats, until: at + STATS_CACHE_MS };
    return stats;
  }

  return {
    /**
     * The home page's live figures, counted at most once per STATS_CACHE_MS (callers arriving
     * while they are being counted share that count).
     */
    stats(): Promise<PublicStats> {
      if (cached && now() < cached.until) return Promise.resolve(cached.stats);
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
