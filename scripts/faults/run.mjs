// `npm run test:faults`: the fault tests of issue #9 against the built server (built here when
// stale), and issue #19's two instances on one PostgreSQL (two-instances.mjs, when
// TEST_DATABASE_URL is set). The SMTP outage mostly waits for the outbox's one-minute retry, so it runs alongside
// the others; kill -9 and the PostgreSQL restart run one after the other (the restart must not
// hit the kill test's database). The lost-connection case is a vitest test in
// apps/server/src/test/faults/, run with the API tests; a database out of space on upload is
// covered in features/documents/documents.test.ts (the bytes live in PostgreSQL since #19).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuilt } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function runScript(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(here, name)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      process.stdout.write(output);
      resolve({ name, ok: code === 0, seconds: (Date.now() - started) / 1000 });
    });
  });
}

ensureServerBuilt();
const smtp = runScript('smtp-outage.mjs');
const sequential = (async () => {
  const results = [];
  for (const name of ['kill-server.mjs', 'two-instances.mjs', 'postgres-restart.mjs'])
    results.push(await runScript(name));
  return results;
})();
const results = [...(await sequential), await smtp];
const failed = results.filter((result) => !result.ok);
console.log(
  `\nFault tests: ${results.length - failed.length} of ${results.length} passed ` +
    `(${results.map((r) => `${r.name} ${r.seconds.toFixed(0)} s`).join(', ')})`,
);
process.exit(failed.length ? 1 : 0);
