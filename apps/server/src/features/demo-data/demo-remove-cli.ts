import { ConfigError, loadConfig } from '../../config/env';
import { createDatabase, describeDatabaseUrl, pgliteDataDir } from '../../db/client';
import { DataDirLockedError } from '../../db/data-dir-lock';
import { runMigrations } from '../../db/migrate';
import { announceEverythingChanged } from '../../db/read-cache';
import { createDemoDataRepository } from './demo-data.repository';

// `npm run demo:remove`: deletes every demo record (the mockData flag's) and nothing else. The
// embedded database must not be in use: stop the server first (its data directory is locked).
async function main(): Promise<void> {
  const config = loadConfig(undefined, { needsSecrets: false });
  const database = await createDatabase(config);
  try {
    await runMigrations(database);
    const removed = await database.db.transaction((tx) => createDemoDataRepository(tx).removeAll());
    // Running instances on this PostgreSQL drop what they held in memory (db/read-cache.ts).
    if (database.driver === 'postgres') await announceEverythingChanged(database.db);
    const where = config.databaseUrl
      ? describeDatabaseUrl(config.databaseUrl)
      : pgliteDataDir(config);
    console.log(
      `Demo data removed from ${where}: ${removed.donors} donors, ${removed.requests} blood ` +
        `requests, ${removed.donations} donations, ${removed.stock} stock lines. Real records ` +
        'were not touched. Start without mockData (FEATURE_FLAGS=-mockData, or switch it off in ' +
        'the admin panel) or it will seed again on an empty database.',
    );
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
