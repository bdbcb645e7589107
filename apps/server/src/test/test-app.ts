import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App, type BuildAppOptions } from '../app';
import { loadConfig, type Config } from '../config/env';
import type { Database } from '../db/client';
import { prepareDatabase } from '../server';
import { createServices, type ServicesOptions } from '../services';
import { createFakeWebDist } from './web-dist-fixture';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestAppOptions {
  /** Extra environment variables; DATA_DIR, WEB_DIST_DIR and LOG_LEVEL have test defaults. */
  env?: Record<string, string | undefined>;
  /** Defaults to the test file's shared database. */
  database?: Database;
  extraRoutes?: BuildAppOptions['extraRoutes'];
  logger?: BuildAppOptions['logger'];
  /** Passed to createServices: a fake clock, a stand-in mail transport. */
  services?: ServicesOptions;
}

export interface TestApp {
  app: App;
  config: Readonly<Config>;
  database: Database;
  close(): Promise<void>;
}

/**
 * Builds the app as `startServer` would (FEATURE_FLAGS applied, first admin created) on a
 * temp DATA_DIR and a fake web build, without listening. Closing it leaves the database open.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-data-'));
  const webDistDir = await createFakeWebDist();
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDistDir,
    LOG_LEVEL: 'silent',
    // Every reply written both ways and compared (lib/reply-serializer.ts).
    CHECK_REPLIES: '1',
    ...options.env,
  });
  const database = options.database ?? (await createTestDatabase()).database;
  const services = createServices(database, config, {
    logger: options.logger || undefined,
    ...options.services,
  });
  await prepareDatabase(config, database, services);
  const app = await buildApp({
    config,
    database,
    services,
    logger: options.logger ?? false,
    extraRoutes: options.extraRoutes,
  });
  return {
    app,
    config,
    database,
    async close() {
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(webDistDir, { recursive: true, force: true });
    },
  };
}

/**
 * The usual lifecycle of an API test file: one database for the file, `seed` then a new app
 * before each test (no background jobs), the app closed and the tables emptied after it.
 * Read `app`, `db` and `testDb` inside tests and hooks (they change per test).
 */
export function useTestApp(
  options: {
    seed?: (db: Database['db']) => Promise<unknown>;
    /** Services options besides `backgroundJobs: false` (a test clock, say). */
    services?: Omit<ServicesOptions, 'backgroundJobs'>;
    /** Environment variables for the app (FEATURE_FLAGS, say). */
    env?: TestAppOptions['env'];
  } = {},
) {
  let testDb: TestDatabase;
  let subject: TestApp;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  beforeEach(async () => {
    await options.seed?.(testDb.database.db);
    subject = await createTestApp({
      database: testDb.database,
      env: options.env,
      services: { ...options.services, backgroundJobs: false },
    });
  });
  afterEach(async () => {
    await subject.close();
    await testDb.truncate();
  });
  afterAll(async () => {
    await testDb?.close();
  });
  return {
    get app(): App {
      return subject.app;
    },
    get db(): Database['db'] {
      return testDb.database.db;
    },
  };
}
