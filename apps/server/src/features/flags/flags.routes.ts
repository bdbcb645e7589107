import { createHash } from 'node:crypto';
import { APP_NAME, publicConfigSchema, successEnvelope, type PublicConfig } from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config/env';
import { errorResponses } from '../../lib/route-schemas';
import type { FlagsService } from './flags.service';

export interface FlagsRoutesOptions {
  config: Pick<Config, 'supportEmail' | 'vapid'>;
  flags: FlagsService;
  version: string;
}

/** Generous: every page load of every tab asks, and people share one address behind NAT. */
export const CONFIG_RATE_LIMIT = { max: 300, timeWindow: '1 minute' } as const;

function weakEtag(value: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 27)}"`;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || `W/${tag}` === etag;
  });
}

export const flagsRoutes: FastifyPluginAsyncZod<FlagsRoutesOptions> = async (
  app,
  { config, flags, version },
) => {
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
          200: successEnvelope(publicConfigSchema),
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(429, 500),
        },
      },
    },
    async (request, reply) => {
      const data: PublicConfig = {
        appName: APP_NAME,
        version,
        flags: await flags.getFlags(),
        supportEmail: config.supportEmail,
        vapidPublicKey: config.vapid.publicKey,
      };
      const etag = weakEtag(data);
      reply.header('cache-control', 'no-cache').header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return { success: true as const, data };
    },
  );
};
