import type { Database } from './db/client';
import { createFlagsServiceForDb, type FlagsService } from './features/flags/flags.service';

/** The long-lived services, one set per process, shared by start-up code and the routes. */
export interface AppServices {
  flags: FlagsService;
}

export function createServices(database: Pick<Database, 'db'>): AppServices {
  return { flags: createFlagsServiceForDb(database.db) };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}
