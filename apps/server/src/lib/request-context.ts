import type { FastifyRequest } from 'fastify';

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  requestId: string;
  /** The client's own X-Request-ID (not a generated one): the idempotency key of creating POSTs. */
  idempotencyKey: string | null;
}

export function requestMeta(request: FastifyRequest): RequestMeta {
  const sent = request.headers['x-request-id'];
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
    requestId: request.id,
    // genReqId keeps a valid incoming id and replaces anything else, so equality means "sent".
    idempotencyKey: typeof sent === 'string' && sent === request.id ? sent : null,
  };
}
