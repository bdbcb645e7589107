import path from 'node:path';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { serverRoot } from '../lib/paths';
import { DRIZZLE_OPTIONS, type Database } from './client';

// Any fixed number: all server processes of one deployment agree on it.
const MIGRATION_LOCK_KEY = 727_401_001;

/** `apps/server/drizzle`, found from the package root so it works from src/ and from dist/. */
export function migrationsFolder(): string {
  return path.join(serverRoot(), 'drizzle');
}

/**
 * Applies pending migrations with the driver's own migrator (idempotent). On PostgreSQL, servers
 * starting together (a rolling deploy) take turns through an advisory lock held on one connection.
 */
export async function runMigrations(database: Database): Promise<void> {
  const options = { migrationsFolder: migrationsFolder() };
  if (database.driver === 'pglite') {
    await migratePglite(drizzlePglite({ client: database.client, ...DRIZZLE_OPTIONS }), options);
    return;
  }
  const connection = await database.pool.connect();
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrateNodePg(drizzleNodePg({ client: connection, ...DRIZZLE_OPTIONS }), options);
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    connection.release();
  }
}
