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

/** Start-up work that must happen before serving: flags from FEATURE_FLAGS, the first admin. */
export async function prepareDatabase(
  config: Readonly<Config>,
  database: Pick<Database, 'db'>,
  services: AppServices,
  logger?: Logger,
): Promise<void> {
  await services.flags.applyEnvOverrides(config.featureFlagOverrides);
  await bootstrapAdmin(database.db, config.admin, logger);
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
  try {
    print(
      config.databaseUrl
        ? `Using PostgreSQL at ${describeDatabaseUrl(config.databaseUrl)}`
        : `Using embedded PostgreSQL (PGlite) in ${pgliteDataDir(config)}`,
    );
    await runMigrations(database);
    // The blood bank directory and PIN code points: seconds the first time, ~0 once loaded.
    await loadReferenceData(database.db, { logger });
    // Articles, FAQs and policy pages (apps/server/content): only what changed is written.
    await loadContent(database.db, { logger });
    const services = createServices(database, config, {
      logger,
      phoneCodeSender: options.phoneCodeSender ?? null,
    });
    await prepareDatabase(config, database, services, logger);
    app = await buildApp({ config, database, logger, services });
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }

  const bound = app.server.address() as AddressInfo;
  const address = formatAddress(config.host, bound.port);
  print(`Blood Donation Management System listening at ${address}`);

  let closing: Promise<void> | undefined;
  const running = app;
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
          // PGlite must be closed cleanly, or its data directory may need recovery next time.
          await database.close();
        }
      })();
      return closing;
    },
  };
}
