import {
  adminFlagsSchema,
  publicConfigSchema,
  successEnvelope,
  updateFeatureFlagsSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCachedReply } from '../../lib/http-cache';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireRole } from '../../plugins/auth';
import type { FlagsService } from './flags.service';
import type { PublicConfigSource } from './public-config';

const BEARER = [{ bearerAuth: [] }];

export interface FlagsRoutesOptions {
  flags: FlagsService;
  /** What `GET /api/v1/config` answers; shared with the prerendered pages (app.ts). */
  publicConfig: PublicConfigSource;
}

/** Generous: every page load of every tab asks, and people share one address behind NAT. */
export const CONFIG_RATE_LIMIT = { max: 300, timeWindow: '1 minute' } as const;

export const flagsRoutes: FastifyPluginAsyncZod<FlagsRoutesOptions> = async (
  app,
  { flags, publicConfig },
) => {
  const configReply = successEnvelope(publicConfigSchema);

  app.get(
    '/api/v1/config',
    {
      config: { rateLimit: CONFIG_RATE_LIMIT },
      schema: {
        tags: ['config'],
        summary: 'Public configuration',
        description:
          'App name, server version, the effective feature flags, the support address and the VAPID public key for web push. ' +
          'Sent with `Cache-Control: no-cache` and a weak ETag: send `If-None-Match` to get a 304 when nothing changed. ' +
          'Rate limit: 300 requests per minute per address.',
        response: {
          200: configReply,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(429, 500),
        },
      },
    },
    async (request, reply) => {
      // Serialised once per flags change.
      return sendCachedReply(request, reply, await publicConfig(), 'no-cache', configReply);
    },
  );

  // Administrators only; authentication and the role are checked before the body is read.
  const adminOnly = [app.authenticate, requireRole('admin')];

  app.get(
    '/api/v1/admin/flags',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Feature flags with their sources (admin)',
        description:
          'The effective flags, as `GET /api/v1/config` shows them, and (extension) `sources`: for each flag ' +
          '`default` (the product spec), `env` (FEATURE_FLAGS) or `admin` (changed at run time). Read fresh, not cached.',
        security: BEARER,
        response: {
          200: successEnvelope(adminFlagsSchema),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => ({ success: true as const, data: await flags.describe() }),
  );

  app.put(
    '/api/v1/admin/flags',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Change feature flags at run time (admin)',
        description:
          '`{<flag>: boolean, …}`: any subset of the known flags; an unknown flag is 400 `VALIDATION_ERROR` on ' +
          '`body.<flag>` and nothing changes. Stored (source `admin`), recorded in the activity log as `flags.updated` ' +
          'with the previous values, and reflected at once by `GET /api/v1/config` (other server processes on the same ' +
          'PostgreSQL within a second: LISTEN/NOTIFY). FEATURE_FLAGS sets only starting values: this decision is kept at ' +
          'every later start (a warning is logged when FEATURE_FLAGS disagrees). A flag never removes ' +
          'a route or weakens a permission check. Replies like `GET /admin/flags`.',
        security: BEARER,
        body: updateFeatureFlagsSchema,
        response: {
          200: successEnvelope(adminFlagsSchema),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      await flags.setFlags(request.body, caller.id, {
        actorRole: caller.role,
        requestId: requestMeta(request).requestId,
      });
      return { success: true as const, data: await flags.describe() };
    },
  );
};
