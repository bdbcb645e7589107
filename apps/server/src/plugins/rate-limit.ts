import { addressKey } from '../lib/client-address';
import rateLimit, {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/app-error';
import type { LimitStore } from '../lib/limit-store';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * True for an address on RATE_LIMIT_ALLOWLIST. A route with its own `allowList` replaces the
     * global one (@fastify/rate-limit), so it must ask this too to keep those addresses exempt.
     */
    isRateLimitExempt: (address: string) => boolean;
  }
}

interface Hits {
  count: number;
}

/**
 * @fastify/rate-limit's counters in a shared LimitStore (PostgreSQL's `limit_states`): a fixed
 * window per key, started by its first hit, as the plugin's own stores count.
 */
export function sharedRateLimitStore(store: LimitStore): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly prefix = 'rate:',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      store
        .update<Hits, { current: number; ttl: number }>(this.prefix + key, (entry, at) => {
          if (!entry) {
            return {
              next: { state: { count: 1 }, expiresAt: at + timeWindow },
              result: { current: 1, ttl: timeWindow },
            };
          }
          const count = entry.state.count + 1;
          return {
            next: { state: { count }, expiresAt: entry.expiresAt },
            result: { current: count, ttl: entry.expiresAt - at },
          };
        })
        .then(
          (result) => callback(null, result),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // At run time the plugin passes its merged parameters, the route being `routeInfo`.
      const merged = routeOptions as unknown as { routeInfo?: { method?: unknown; url?: unknown } };
      const route = merged.routeInfo ?? {};
      return new SharedStore({}, `rate:${String(route.method)}${String(route.url)}:`);
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}

export interface RateLimitPluginOptions {
  allowList?: readonly string[];
  /** Counters shared by every instance: Redis when REDIS_URL is set (the plugin's own store)… */
  redis?: Redis | null;
  /** …else PostgreSQL's limit_states (a 'postgres' store); a 'memory' store keeps them per process. */
  store?: LimitStore;
}

/**
 * Off by default; a route opts in with `config: { rateLimit: { max, timeWindow } }`. Keyed by
 * request.ip (which honours TRUST_PROXY), an IPv6 address by its /64 (lib/client-address.ts). Counted in Redis or PostgreSQL when several instances
 * share them (issue #19: "the 21st sign-in in a minute is refused whichever instance gets it"),
 * in memory for the embedded single-process default.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitPluginOptions) => {
    const exempt = new Set(options.allowList ?? []);
    app.decorate('isRateLimitExempt', (address: string) => exempt.has(address));
    await app.register(rateLimit, {
      ...(options.redis
        ? { redis: options.redis, nameSpace: 'bdms:rate:' }
        : options.store?.kind === 'postgres'
          ? { store: sharedRateLimitStore(options.store) }
          : {}),
      global: false,
      // Trusted addresses (RATE_LIMIT_ALLOWLIST), each itself (not its /64); a route's own
      // allowList replaces this one.
      allowList: (request) => exempt.has(request.ip),
      // An IPv6 client is counted by its /64, which it can fill with addresses (issue #32 item 8).
      keyGenerator: (request) => addressKey(request.ip),
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new AppError(
          'RATE_LIMITED',
          `Too many requests. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
          undefined,
          { 'retry-after': String(seconds) },
        );
      },
    });
  },
  { name: 'bdms-rate-limit' },
);
