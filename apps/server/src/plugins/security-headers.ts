import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The web app is built with no inline scripts, so scripts stay 'self'. Inline styles are allowed
 * for libraries that set style attributes (Swagger UI among them). Map tiles and avatars may
 * come from https: origins, hence img-src.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  manifestSrc: ["'self'"],
  workerSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      global: true,
      // useDefaults would add upgrade-insecure-requests, which breaks plain-http installs on a LAN.
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      // Helmet would send HSTS on plain http too; it is added below for HTTPS requests only.
      hsts: false,
      // Embedder policy would block cross-origin map tiles.
      crossOriginEmbedderPolicy: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    // With TRUST_PROXY, request.protocol honours X-Forwarded-Proto from the TLS-terminating proxy.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
      return payload;
    });
  },
  { name: 'bdms-security-headers' },
);
