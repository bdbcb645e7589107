import { publicStatsSchema, successEnvelope } from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCachedPublicly } from '../../lib/http-cache';
import { errorResponses } from '../../lib/route-schemas';
import { STATS_CACHE_MS, type SiteService } from './site.service';

/** The home page asks once per visit; generous per address (offices and colleges share one). */
export const SITE_RATE_LIMITS = {
  stats: { max: 240, timeWindow: '1 minute' },
} as const;
export const STATS_CACHE_SECONDS = STATS_CACHE_MS / 1000;
const STATS_REPLY = successEnvelope(publicStatsSchema);

export interface SiteRoutesOptions {
  site: SiteService;
}

export const siteRoutes: FastifyPluginAsyncZod<SiteRoutesOptions> = async (app, { site }) => {
  app.get(
    '/api/v1/public/stats',
    {
      config: { rateLimit: SITE_RATE_LIMITS.stats, microCache: true },
      schema: {
        tags: ['site'],
        summary: 'The home page’s live figures',
        description:
          'Extension. Anyone. Counts only, nothing that identifies anybody: `approvedDonors` (donor accounts ' +
          'an administrator approved that are not suspended or erased), `requestsFulfilled` (blood requests ' +
          'marked fulfilled), `facilitiesListed` (blood banks in the directory) and `articles` (published ' +
          'education articles). Counted at most every 5 minutes; `generatedAt` says when. Cached publicly ' +
          `for ${STATS_CACHE_SECONDS} seconds with a weak ETag (\`If-None-Match\` → 304). ` +
          `Rate limit: ${SITE_RATE_LIMITS.stats.max} per minute per address.`,
        response: {
          200: STATS_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(429),
        },
      },
    },
    async (request, reply) => {
      const entry = await site.stats();
      return sendCachedPublicly(request, reply, entry, STATS_CACHE_SECONDS, STATS_REPLY);
    },
  );
};
