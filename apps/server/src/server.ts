import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { buildApp, type App } from './app';
import { loadConfig, type Config } from './config/env';
import { createDatabase, describeDatabaseUrl, pgliteDataDir, type Database } from './db/client';
import { runMigrations } from './db/migrate';
import { bootstrapAdmin } from './features/auth/bootstrap-admin';
import { loadContent } from './features/education/education.loader';
import { loadReferenceData } from './features/facilities/facilities.loader';
import { createLogger } from './plugins/logger';
import { createPostgresChangeBus, type ChangeBus } from './lib/change-bus';
import { moveUploadsIntoDatabase } from './lib/uploads';
import { Redis } from 'ioredis';
import type { PhoneCodeSender } from './lib/sms/phone-code-sender';
import { createServices, type AppServices } from './services';

export interface RunningServer {
  app: App;
  config: Readonly<Config>;
  database: Database;
  /** `http://host:port` with the port actually bound (PORT=0 picks a free one). */
  address: string;
  /** Stops accepting, finishes in-flight requests, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Where the human-readable start-up lines go (stdout by default). */
  print?: (line: string) => void;
  logger?: Logger;
  /**
   * Delivers codes to phone numbers (the SMS channel; the browser tests' harness passes one that
   * keeps them). None: flows that need a phone code answer 409 SMS_UNAVAILABLE.
   */
  phoneCodeSender?: PhoneCodeSender | null;
}

/** Start-up work before serving: FEATURE_FLAGS's starting values, the first admin, demo data. */
export async function prepareDatabase(
  config: Readonly<Config>,
  database: Pick<Database, 'db'>,
  services: AppServices,
  logger?: Logger,
): Promise<void> {
  await services.flags.applyEnvOverrides(config.featureFlagOverrides, logger);
  await bootstrapAdmin(database.db, config.admin, logger);
  // mockData on: demo donors, requests, donations and stock, unless the rules refuse (logged).
  await services.demoData.seedAtStart();
}

function formatAddress(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Loads config (throws ConfigError), opens and migrates the database, and listens. */
export async function startServer(
  /** Defaults to process.env (read by config/env.ts only). */
  env?: Record<string, string | undefined>,
  options: StartOptions = {},
): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => console.log(line));
  const config = env ? loadConfig(env) : loadConfig();
  const logger = options.logger ?? createLogger(config);
  const database = await createDatabase(config);
  let app: App | undefined;
  let bus: (ChangeBus & { start(): Promise<void> }) | undefined;
  let redis: Redis | undefined;
  try {
    if (config.redisUrl) print('Limits are kept in Redis (REDIS_URL)');
    print(
      config.databaseUrl
        ? `Using PostgreSQL at ${describeDatabaseUrl(config.databaseUrl)}`
        : `Using embedded PostgreSQL (PGlite) in ${pgliteDataDir(config)}`,
    );
    await runMigrations(database);
    // Uploads kept on this instance's disk before issue #19 move into PostgreSQL, once.
    await moveUploadsIntoDatabase(database.db, config.dataDir, logger);
    // The blood bank directory and PIN code points: seconds the first time, ~0 once loaded.
    await loadReferenceData(database.db, { logger });
    // Articles, FAQs and policy pages (apps/server/content): only what changed is written.
    await loadContent(database.db, { logger });
    // Several instances may share PostgreSQL: caches hear of each other's changes (issue #19).
    if (config.databaseUrl) {
      const pool = database.driver === 'postgres' ? database.pool : null;
      const postgresBus = createPostgresChangeBus({
        connectionString: config.databaseUrl,
        logger,
        // Announced through the pool: an instance that can write can always say what it wrote.
        ...(pool && {
          notifyVia: (channel: string, payload: string) =>
            pool.query('select pg_notify($1, $2)', [channel, payload]),
        }),
      });
      bus = postgresBus;
      await postgresBus.start();
      if (database.driver === 'postgres') database.shareWritesThrough(postgresBus);
    }
    // REDIS_URL: every limit is counted in Redis (else PostgreSQL, or memory on PGlite).
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
      redis.on('error', (error: Error) => logger.warn({ err: error }, 'Redis connection error'));
      await redis.connect();
    }
    const services = createServices(database, config, {
      logger,
      bus,
      redis,
      ...(options.phoneCodeSender !== undefined
        ? { phoneCodeSender: options.phoneCodeSender }
        : {}),
    });
    await prepareDatabase(config, database, services, logger);
    app = await buildApp({ config, database, logger, services });
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app?.close().catch(() => {});
    await bus?.close().catch(() => {});
    redis?.disconnect();
    await database.close().catch(() => {});
    throw error;
  }

  const bound = app.server.address() as AddressInfo;
  const address = formatAddress(config.host, bound.port);
  print(`Blood Donation Management System listening at ${address}`);

  let closing: Promise<void> | undefined;
  const running = app;
  const listening = bus;
  const redisConnection = redis;
  return {
    app: running,
    config,
    database,
    address,
    close() {
      closing ??= (async () => {
        try {
          await running.close();
        } finally {
          await listening?.close().catch(() => {});
          await redisConnection?.quit().catch(() => {});
          // PGlite must be closed cleanly, or its data directory may need recovery next time.
          await database.close();
        }
      })();
      return closing;
    },
  };
}
