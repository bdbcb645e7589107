import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * True for an address on RATE_LIMIT_ALLOWLIST. A route with its own `allowList` replaces the
     * global one (@fastify/rate-limit), so it must ask this too to keep those addresses exempt.
     */
    isRateLimitExempt: (address: string) => boolean;
  }
}

/**
 * Off by default; a route opts in with `config: { rateLimit: { max, timeWindow } }`. Counters
 * are in memory per process and keyed by request.ip (which honours TRUST_PROXY).
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: { allowList?: readonly string[] }) => {
    const exempt = new Set(options.allowList ?? []);
    app.decorate('isRateLimitExempt', (address: string) => exempt.has(address));
    await app.register(rateLimit, {
      global: false,
      // Trusted addresses (RATE_LIMIT_ALLOWLIST); a route's own allowList replaces this one.
      allowList: [...(options.allowList ?? [])],
      keyGenerator: (request) => request.ip,
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
