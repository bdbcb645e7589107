import { z } from 'zod';

/** `GET /api/v1/admin/debug` (issue #21, `debugMode`): what this server process is. */
export const serverDebugInfoSchema = z.object({
  version: z.string(),
  /** The content hash of the server build (`apps/server/dist/.build-hash`); null when run from source. */
  build: z.string().nullable(),
  /** When that build was made; null when run from source. */
  builtAt: z.string().nullable(),
  node: z.string(),
  database: z.enum(['pglite', 'postgres']),
  startedAt: z.string(),
  uptimeSeconds: z.number().int().nonnegative(),
  memory: z.object({ rssMb: z.number(), heapUsedMb: z.number() }),
});
export type ServerDebugInfo = z.infer<typeof serverDebugInfoSchema>;
