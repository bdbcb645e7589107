import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
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

/** Helmet's options: the same headers on every reply (no per-request nonces). */
export const HELMET_OPTIONS = {
  // useDefaults would add upgrade-insecure-requests, which breaks plain-http installs on a LAN.
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  // Helmet would send HSTS on plain http too; it is added below for HTTPS requests only.
  hsts: false,
  // Embedder policy would block cross-origin map tiles.
  crossOriginEmbedderPolicy: false,
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
};

/** Headers of the probe's reply that Fastify and Node set themselves, not helmet. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers helmet sets, computed once: @fastify/helmet builds helmet's middleware again on
 * every request (parsing the CSP directives each time), which cost several per cent of a public
 * read. The options have no per-request part, so the result is the same for every reply.
 */
export async function helmetHeaders(): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, { global: true, ...HELMET_OPTIONS });
  // No route: the not-found reply carries helmet's headers too, and a probe route would show
  // in route tables read through onRoute hooks (the authorisation matrix).
  const res = await probe.inject({ url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (!OWN_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
  }
  return headers;
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const headers = await helmetHeaders();
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    // With TRUST_PROXY, request.protocol honours X-Forwarded-Proto from the TLS-terminating proxy.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
      done(null, payload);
    });
  },
  { name: 'bdms-security-headers' },
);
