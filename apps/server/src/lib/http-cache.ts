import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { cachedBody, type CachedReply } from './reply-cache';

/** A weak ETag of a JSON-able value (the reply's `data`). */
export function weakEtag(value: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match holds `etag` (weak comparison, RFC 9110 §13.1.2) or `*`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || `W/${tag}` === etag || tag === etag.slice(2);
  });
}

/**
 * Sends a reply computed once and kept (lib/reply-cache) with its weak ETag and the given
 * `Cache-Control`: its ETag is already hashed and its body serialised once with the route's 200
 * `schema`, so a hit does no work. 304 when the client's copy is current; the handler returns
 * `reply`.
 */
export function sendCachedReply<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedReply<T>,
  cacheControl: string,
  schema: ZodType,
): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', entry.etag);
  if (matchesEtag(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  // Bytes with a JSON content type are sent as they are: the serializer does not run again.
  return reply
    .header('content-type', 'application/json; charset=utf-8')
    .send(cachedBody(entry, schema));
}

/** Public, cacheable replies: `Cache-Control: public, max-age=<seconds>` (see sendCachedReply). */
export function sendCachedPublicly<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedReply<T>,
  maxAgeSeconds: number,
  schema: ZodType,
): FastifyReply {
  return sendCachedReply(request, reply, entry, `public, max-age=${maxAgeSeconds}`, schema);
}
