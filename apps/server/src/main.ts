import { ConfigError } from './config/env';
import { DataDirLockedError } from './db/data-dir-lock';
import { ContentError } from './features/education/education.content';
import { startServer } from './server';

const SHUTDOWN_TIMEOUT_MS = 10_000;

function describeStartError(error: unknown): string {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof ContentError
  )
    return error.message;
  return `The server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}

// Signals are handled from the first moment, so Ctrl+C during migrations still closes PGlite cleanly.
const starting = startServer();
starting.catch((error: unknown) => {
  console.error(describeStartError(error));
  process.exit(1);
});

// Under `npm start`, one Ctrl+C arrives twice: from the terminal and forwarded by npm. Only a
// repeat well after the first one means "stop waiting".
const REPEAT_FORCES_EXIT_AFTER_MS = 2_000;
let stoppingSince: number | null = null;
function shutdown(signal: NodeJS.Signals): void {
  if (stoppingSince !== null) {
    if (Date.now() - stoppingSince < REPEAT_FORCES_EXIT_AFTER_MS) return;
    console.error(`Received ${signal} again; exiting without waiting`);
    process.exit(1);
  }
  stoppingSince = Date.now();
  console.log(`Received ${signal}; shutting down`);
  // A hung request or database must not keep the process alive forever.
  setTimeout(() => {
    console.error(`Shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s; exiting`);
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
  starting
    .then((server) => server.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
}

process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
