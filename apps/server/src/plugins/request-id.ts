import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The web app sends X-Request-ID on every call (API.md "Conventions"); keeping it lets a
 * user's report be matched with the server's log line. Anything unsafe to log is replaced.
 */
export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && VALID_REQUEST_ID.test(value) ? value : randomUUID();
}

/** Echoes the id on every reply, errors and 404s included (they run onRequest hooks too). */
export const requestIdPlugin = fp(
  async (app: FastifyInstance) => {
    // Callback style: no promise per request for a synchronous hook.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
  },
  { name: 'bdms-request-id' },
);
