import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { matchesEtag } from '../lib/http-cache';
import { hasCredentials } from './cache-policy';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public GET whose reply is the same for every caller (no user, no per-address effect):
     * answered from the micro-cache for up to MICRO_CACHE_MS (plugins/micro-cache.ts).
     */
    microCache?: boolean;
  }
}

/** How long a kept reply is sent again without running its route. */
export const MICRO_CACHE_MS = 1000;
/** At most this many addresses (paths with their query strings) are kept. */
export const MICRO_CACHE_MAX = 2000;

interface Kept {
  payload: Buffer;
  etag: string;
  cacheControl: string;
  contentType: string;
  expires: number;
}

const SERVED_FROM_CACHE = Symbol('served from the micro-cache');

/**
 * A one-second cache of public replies by exact address, in front of validation and the route:
 * under load, a popular public read (a facility search, the featured articles, the stats)
 * is computed once a second instead of validated, looked up and sent by its route for every
 * request (each route already caches its data; this saves the work around it). Rate limits
 * still apply (they run before). Any successful write (POST, PUT, PATCH, DELETE) empties it, so a
 * change is never hidden by it; what changes with time alone (the stats, every 5 minutes) is at
 * most a second late. Replies are kept uncompressed: compression still fits each client.
 */
export const microCachePlugin = fp(
  async (app: FastifyInstance, { now = Date.now }: { now?: () => number } = {}) => {
    const kept = new Map<string, Kept>();

    app.addHook('preValidation', (request: FastifyRequest, reply: FastifyReply, done) => {
      // A signed-in request is never answered from, nor stored in, the cache: even on a public
      // route, what a signed-in caller gets must not reach anyone else.
      if (
        request.method !== 'GET' ||
        !request.routeOptions.config.microCache ||
        hasCredentials(request)
      ) {
        done();
        return;
      }
      const hit = kept.get(request.url);
      if (!hit || hit.expires <= now()) {
        done();
        return;
      }
      (request as unknown as Record<symbol, boolean>)[SERVED_FROM_CACHE] = true;
      reply
        .header('cache-control', hit.cacheControl)
        .header('etag', hit.etag)
        .header('content-type', hit.contentType);
      if (matchesEtag(request.headers['if-none-match'], hit.etag)) {
        void reply.code(304).send();
        return;
      }
      void reply.send(hit.payload);
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (
        request.method === 'GET' &&
        request.routeOptions.config.microCache &&
        !hasCredentials(request) &&
        reply.statusCode === 200 &&
        (typeof payload === 'string' || Buffer.isBuffer(payload)) &&
        !(request as unknown as Record<symbol, boolean>)[SERVED_FROM_CACHE]
      ) {
        const etag = reply.getHeader('etag');
        const cacheControl = reply.getHeader('cache-control');
        const contentType = reply.getHeader('content-type');
        if (
          typeof etag === 'string' &&
          typeof cacheControl === 'string' &&
          typeof contentType === 'string'
        ) {
          if (kept.size >= MICRO_CACHE_MAX) kept.clear();
          kept.set(request.url, {
            // Bytes: a string is encoded to UTF-8 again on every write.
            payload: typeof payload === 'string' ? Buffer.from(payload) : payload,
            etag,
            cacheControl,
            contentType,
            expires: now() + MICRO_CACHE_MS,
          });
        }
      }
      done(null, payload);
    });

    app.addHook('onResponse', (request, reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
        kept.clear();
      }
      done();
    });
  },
  { name: 'bdms-micro-cache' },
);
