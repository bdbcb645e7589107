// `npm start`: build what is stale, then run the server in this same process (it migrates the
// database, creates the administrator from ADMIN_EMAIL/ADMIN_PASSWORD and prints its address).
// One process means Ctrl-C reaches the server's own graceful shutdown, which closes the
// embedded database cleanly.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, ROOT } from './lib/build.mjs';

try {
  buildIfStale();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/main.js')).href);
