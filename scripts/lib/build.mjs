// Builds the web app and the server only when their inputs changed since the last build.
// The stamp is a content hash (not mtimes), so a fresh clone, a checkout or an edit all
// rebuild, and a second `npm start` with nothing changed starts at once.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const SKIP = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'e2e']);

const TARGETS = [
  {
    name: 'web',
    workspace: '@bdms/web',
    stamp: 'apps/web/dist/.build-hash',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'packages/shared/src',
    ],
  },
  {
    name: 'server',
    workspace: '@bdms/server',
    stamp: 'apps/server/dist/.build-hash',
    inputs: [
      'apps/server/src',
      'apps/server/build.mjs',
      'apps/server/package.json',
      'packages/shared/src',
    ],
  },
];

function listFiles(entry) {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full, { withFileTypes: true })
    .filter((d) => !SKIP.has(d.name))
    .flatMap((d) => listFiles(path.join(entry, d.name)));
}

export function hashInputs(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(listFiles).sort()) {
    // Test files do not change what is built.
    if (/\.test\.tsx?$/.test(file)) continue;
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Returns the names of the targets that were (re)built. */
export function buildIfStale({ log = console.log } = {}) {
  const built = [];
  for (const target of TARGETS) {
    const stampPath = path.join(ROOT, target.stamp);
    const hash = hashInputs(target.inputs);
    if (existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === hash) continue;
    const started = Date.now();
    log(`Building ${target.name}…`);
    const result = spawnSync('npm', ['run', 'build', '--workspace', target.workspace], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (result.status !== 0)
      throw new Error(`The ${target.name} build failed (exit ${result.status}).`);
    writeFileSync(stampPath, `${hash}\n`);
    log(`Built ${target.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    built.push(target.name);
  }
  return built;
}
