import { ConfigError, loadConfig } from '../config/env';
import { createDatabase, describeDatabaseUrl, pgliteDataDir } from './client';
import { DataDirLockedError } from './data-dir-lock';
import { runMigrations } from './migrate';

// `npm run db:migrate`: applies migrations without starting the server (the server also does it on start).
async function main(): Promise<void> {
  const config = loadConfig(undefined, { needsSecrets: false });
  const database = await createDatabase(config);
  try {
    await runMigrations(database);
    const where = config.databaseUrl
      ? describeDatabaseUrl(config.databaseUrl)
      : pgliteDataDir(config);
    console.log(`Migrations applied to ${where}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error,
  );
  process.exit(1);
});
