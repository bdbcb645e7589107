import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** The default for API replies that do not choose their own caching. */
export const PRIVATE_CACHE_CONTROL = 'no-store';

/**
 * A request carrying credentials. The API's only credential is `Authorization: Bearer …`
 * (refresh tokens travel in JSON bodies; there is no session cookie), but a Cookie header is
 * counted too, so a cookie added later is covered without another change.
 */
export function hasCredentials(request: Pick<FastifyRequest, 'headers'>): boolean {
  return request.headers.authorization !== undefined || request.headers.cookie !== undefined;
}

/**
 * `Cache-Control: no-store` on every API reply and every reply to a signed-in request that did
 * not set its own: a signed-in reply (a profile, a donor list, tokens from sign-in) must never be
 * kept by a browser's disk cache or a shared proxy. Routes serving public data on purpose set
 * `public, max-age=…` (sendCachedPublicly) and keep it; files and exports set `private, no-store`.
 * Runs after the micro-cache's onSend (registered after it), which also skips credentialed requests.
 */
export const cachePolicyPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (
        !reply.hasHeader('cache-control') &&
        (hasCredentials(request) || request.url.startsWith('/api/'))
      ) {
        reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      }
      done(null, payload);
    });
  },
  { name: 'bdms-cache-policy' },
);
