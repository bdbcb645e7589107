// `npm test`: every test, in the order that fails fastest.
//   1. unit and component tests, and the API through app.inject on embedded PGlite (with the
//      authorisation matrix, the hostile-input fuzzing and the in-process fault tests);
//   2. the API tests again on real PostgreSQL when TEST_DATABASE_URL is set;
//   3. the fault tests against the built server: kill -9, SMTP outage, PostgreSQL restart, and
//      two instances on one PostgreSQL (scripts/faults; skip with --no-faults);
//   4. the browser journeys in Chromium against the built app (skip with --no-e2e).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildIfStale, ROOT } from './lib/build.mjs';

const args = new Set(process.argv.slice(2));
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function run(title, command, commandArgs, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${title} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${title} (${seconds} s)`);
}

run('Unit, component and API tests (PGlite)', 'npx', ['vitest', 'run'], {
  TEST_DB_DRIVER: 'pglite',
});

if (process.env.TEST_DATABASE_URL) {
  // TEST_POSTGRES_NODE: another Node.js binary for this pass (CI runs it under Node 24, so each
  // supported line runs the API tests once: this machine's on PGlite, Node 24 on PostgreSQL).
  const node = process.env.TEST_POSTGRES_NODE;
  const version = node
    ? spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
    : process.version;
  run(
    `API tests on PostgreSQL (Node ${version})`,
    node ?? 'npx',
    node
      ? ['node_modules/vitest/vitest.mjs', 'run', '--project', 'server']
      : ['vitest', 'run', '--project', 'server'],
    { TEST_DB_DRIVER: 'postgres' },
  );
} else {
  console.log('\n(TEST_DATABASE_URL is not set: the API tests ran on PGlite only.)');
}

if (!args.has('--no-faults')) {
  run('Fault tests (kill -9, SMTP outage, PostgreSQL restart, two instances)', 'node', [
    'scripts/faults/run.mjs',
  ]);
}

if (!args.has('--no-e2e')) {
  if (!existsSync(chromium)) {
    console.error(
      `\n✖ Browser tests need Chromium at ${chromium}. Install it (apt-get install -y chromium) ` +
        'or set CHROMIUM_PATH; run `npm test -- --no-e2e` to skip them.',
    );
    process.exit(1);
  }
  buildIfStale();
  run(
    'Browser journeys (Playwright, Chromium)',
    'npx',
    ['playwright', 'test', '-c', 'apps/web/playwright.config.ts'],
    {
      CHROMIUM_PATH: chromium,
    },
  );
}
console.log('\nAll tests passed.');
