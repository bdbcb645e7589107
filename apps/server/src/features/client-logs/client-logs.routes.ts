import {
  CLIENT_LOG_LIMITS,
  clientLogBatchSchema,
  clientLogPageSchema,
  clientLogReceiptSchema,
  listClientLogsQuerySchema,
  successEnvelope,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { requireRole } from '../../plugins/auth';
import { createClientLogsService } from './client-logs.service';

const BEARER = [{ bearerAuth: [] }];

/** Per client address: a browser flushes every 30 s (and once more when the page is hidden). */
export const CLIENT_LOGS_RATE_LIMIT = {
  max: CLIENT_LOG_LIMITS.ratePerMinute,
  timeWindow: '1 minute',
} as const;

/** The body's size: its Content-Length, else its JSON (a chunked upload has no length). */
function bodyBytes(contentLength: string | undefined, body: unknown): number {
  const declared = Number(contentLength);
  return Number.isSafeInteger(declared) && declared > 0
    ? declared
    : Buffer.byteLength(JSON.stringify(body));
}

export interface ClientLogsRoutesOptions {
  db: Db;
  /** Keys the stored address hash. */
  secret: string;
  now?: () => number;
}

export const clientLogsRoutes: FastifyPluginAsyncZod<ClientLogsRoutesOptions> = async (
  app,
  { db, secret, now },
) => {
  const clientLogs = createClientLogsService({ db, secret, now });

  app.post(
    '/api/v1/client-logs',
    {
      bodyLimit: CLIENT_LOG_LIMITS.bodyMaxBytes,
      config: { rateLimit: CLIENT_LOGS_RATE_LIMIT, allowUnverifiedHospital: true },
      // Anyone may report; a valid access token attaches the user, a bad one is simply ignored.
      preHandler: app.identify,
      schema: {
        tags: ['client-logs'],
        summary: 'Report log entries from the web app (extension)',
        description:
          "Extension: the web app's logger sends warnings, errors and performance measurements (web vitals) " +
          `every 30 s, in batches of 1 to ${CLIENT_LOG_LIMITS.maxEntries} entries. Anyone may send, signed in ` +
          'or not; with a valid access token the entries carry the user id (a missing, expired or bad token is ' +
          `not an error). Limits: \`message\` ${CLIENT_LOG_LIMITS.messageMax}, \`stack\` ${CLIENT_LOG_LIMITS.stackMax}, ` +
          `\`url\` ${CLIENT_LOG_LIMITS.urlMax} characters, \`context\` at most ${CLIENT_LOG_LIMITS.contextMaxBytes} ` +
          `characters as JSON, the body ${CLIENT_LOG_LIMITS.bodyMaxBytes / 1024} KB (413 beyond). Only the path of ` +
          '`url` is stored (query strings may hold tokens); the address is kept as a keyed hash; entries are deleted ' +
          `after ${CLIENT_LOG_LIMITS.retentionDays} days. Replies 202 \`{accepted}\`. ` +
          `Rate limit: ${CLIENT_LOGS_RATE_LIMIT.max} batches per minute per address; anonymous reports also share ` +
          `one budget of ${CLIENT_LOG_LIMITS.anonymousBytesPerMinute / 1024} KB of bodies per minute across all ` +
          'senders and server processes (429 `RATE_LIMITED` with `Retry-After`, the end of the minute, once spent).',
        body: clientLogBatchSchema,
        response: {
          202: successEnvelope(clientLogReceiptSchema),
          ...errorResponses(400, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const receipt = await clientLogs.record(request.body, {
        ip: meta.ip,
        userAgent: meta.userAgent,
        userId: request.user?.id ?? null,
        bytes: bodyBytes(request.headers['content-length'], request.body),
      });
      return reply.code(202).send({ success: true as const, data: receipt });
    },
  );

  app.get(
    '/api/v1/admin/client-logs',
    {
      onRequest: [app.authenticate, requireRole('admin')],
      schema: {
        tags: ['admin', 'client-logs'],
        summary: 'Log entries reported by browsers (admin, extension)',
        description:
          'Newest first (by arrival), paginated (`page`, `pageSize` up to 100); `level` keeps one level. ' +
          "Entries are what people's browsers reported: treat their text as untrusted. Kept " +
          `${CLIENT_LOG_LIMITS.retentionDays} days.`,
        security: BEARER,
        querystring: listClientLogsQuerySchema,
        response: {
          200: successEnvelope(clientLogPageSchema),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({ success: true as const, data: await clientLogs.list(request.query) }),
  );
};
