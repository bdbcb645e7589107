// The server the browser tests run against: the built app on a fresh embedded database.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/build.mjs';
import { installMovableClock } from './lib/e2e-clock.mjs';

const dataDir = path.resolve(ROOT, process.env.DATA_DIR ?? '.tmp/e2e-data');
rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
// The journeys that move time (stock turning stale) move this process's clock on this port.
if (process.env.E2E_CLOCK_PORT) installMovableClock(Number(process.env.E2E_CLOCK_PORT));
await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/main.js')).href);
