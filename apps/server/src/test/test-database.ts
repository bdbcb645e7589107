import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import {
  createPgliteDatabase,
  createPostgresDatabase,
  executeRows,
  type Database,
} from '../db/client';
import { runMigrations } from '../db/migrate';

/**
 * Test databases. Default: one in-memory PGlite per test file (each costs ~3 s and ~0.7 GiB, so
 * never one per test). With TEST_DB_DRIVER=postgres and TEST_DATABASE_URL, a fresh database
 * `bdms_test_<random>` on that server instead, dropped on close. Tests share it and call
 * `truncate()` between tests.
 */
export interface TestDatabase {
  database: Database;
  truncate(): Promise<void>;
  close(): Promise<void>;
}

// Test helpers may read process.env directly (the app reads it only in config/env.ts).
export const wantsPostgres = () => process.env.TEST_DB_DRIVER === 'postgres';

function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withAdminClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the TEST_DATABASE_URL server; `drop` removes it. */
export async function createScratchPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bdms_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrlFor(baseUrl, name),
    async drop() {
      await withAdminClient(baseUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

async function createPostgresTestDatabase(
  baseUrl: string,
): Promise<{ database: Database; drop(): Promise<void> }> {
  const scratch = await createScratchPostgresDatabase(baseUrl);
  return { database: createPostgresDatabase(scratch.url), drop: scratch.drop };
}

async function openTestDatabase(): Promise<TestDatabase> {
  let database: Database;
  let drop = async () => {};
  if (wantsPostgres()) {
    const baseUrl = process.env.TEST_DATABASE_URL;
    if (!baseUrl) throw new Error('TEST_DB_DRIVER=postgres needs TEST_DATABASE_URL');
    ({ database, drop } = await createPostgresTestDatabase(baseUrl));
  } else {
    const client = new PGlite({ extensions: { pg_trgm } });
    await client.waitReady;
    database = createPgliteDatabase(client);
  }
  await runMigrations(database);
  return {
    database,
    async truncate() {
      const rows = await executeRows<{ tablename: string }>(
        database.db,
        sql`select tablename from pg_tables where schemaname = 'public'`,
      );
      const tables = rows.map((row) => `"${row.tablename}"`);
      if (tables.length > 0)
        await database.db.execute(sql.raw(`TRUNCATE ${tables.join(', ')} CASCADE`));
    },
    async close() {
      await database.close();
      await drop();
    },
  };
}

let current: Promise<TestDatabase> | null = null;

/** The test file's database, created on first use; `close()` it in afterAll. */
export function createTestDatabase(): Promise<TestDatabase> {
  if (!current) {
    const opened = openTestDatabase();
    current = opened.then((testDb) => ({
      ...testDb,
      async close() {
        if (current === opened) current = null;
        await testDb.close();
      },
    }));
    // A failed start must not be cached for the next caller.
    current.catch(() => {
      current = null;
    });
  }
  return current;
}
