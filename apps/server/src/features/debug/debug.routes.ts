import fs from 'node:fs';
import path from 'node:path';
import { serverDebugInfoSchema, successEnvelope, type ServerDebugInfo } from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { serverRoot, serverVersion } from '../../lib/paths';
import { errorResponses } from '../../lib/route-schemas';
import { requireRole } from '../../plugins/auth';
import type { FlagsService } from '../flags/flags.service';

export interface DebugRoutesOptions {
  flags: Pick<FlagsService, 'getFlags'>;
  driver: ServerDebugInfo['database'];
  now: () => number;
}

const STARTED_AT = Date.now();
const MB = 1024 * 1024;

/** The build stamp `npm run build` leaves beside the bundle (scripts/lib/build.mjs). */
function buildStamp(): { build: string | null; builtAt: string | null } {
  try {
    const file = path.join(serverRoot(), 'dist', '.build-hash');
    return {
      build: fs.readFileSync(file, 'utf8').trim().slice(0, 12) || null,
      builtAt: fs.statSync(file).mtime.toISOString(),
    };
  } catch {
    return { build: null, builtAt: null };
  }
}

/**
 * `debugMode` (issue #21): administrators get the server's version and build beside the debug
 * panel's client-side figures. Other roles never: 403 whatever the flag; with the flag off the
 * route does not exist for anyone (404).
 */
export const debugRoutes: FastifyPluginAsyncZod<DebugRoutesOptions> = async (
  app,
  { flags, driver, now },
) => {
  app.get(
    '/api/v1/admin/debug',
    {
      onRequest: [app.authenticate, requireRole('admin')],
      schema: {
        tags: ['admin'],
        summary: 'This server process: version, build, runtime (admin, while debugMode is on)',
        description:
          'Only while the `debugMode` flag is on (else 404 `NOT_FOUND`); administrators only (others 403). ' +
          '`build` is the content hash of the server bundle and `builtAt` its time (null when run from source). ' +
          'Recent client errors are `GET /api/v1/admin/client-logs?level=error`.',
        security: [{ bearerAuth: [] }],
        response: {
          200: successEnvelope(serverDebugInfoSchema),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (_request, reply) => {
      if (!(await flags.getFlags()).debugMode) {
        throw new AppError('NOT_FOUND', 'Debug mode is off.');
      }
      reply.header('cache-control', 'no-store');
      const memory = process.memoryUsage();
      const at = now();
      return {
        success: true as const,
        data: {
          version: serverVersion(),
          ...buildStamp(),
          node: process.version,
          database: driver,
          startedAt: new Date(STARTED_AT).toISOString(),
          uptimeSeconds: Math.max(0, Math.floor((at - STARTED_AT) / 1000)),
          memory: {
            rssMb: Math.round((memory.rss / MB) * 10) / 10,
            heapUsedMb: Math.round((memory.heapUsed / MB) * 10) / 10,
          },
        },
      };
    },
  );
};
