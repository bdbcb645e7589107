import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This module runs from `src/lib/` under tsx and vitest, and from `dist/main.js` once bundled, so
 * locations are found by walking up from the module's own folder rather than by fixed `../..`.
 */
const MODULE_DIR = path.dirname(fileURLToPath(import.meta.url));

export function findUp(startDir: string, isMatch: (dir: string) => boolean): string | null {
  let dir = path.resolve(startDir);
  for (;;) {
    if (isMatch(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readPackageName(dir: string): string | null {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name?: unknown;
    };
    return typeof pkg.name === 'string' ? pkg.name : null;
  } catch {
    return null;
  }
}

let serverRootCache: string | null = null;

/** The folder of the `@bdms/server` package (holds `package.json` and `drizzle/`). */
export function serverRoot(): string {
  serverRootCache ??= findUp(MODULE_DIR, (dir) => readPackageName(dir) === '@bdms/server');
  if (!serverRootCache)
    throw new Error(`Cannot find the @bdms/server package folder above ${MODULE_DIR}`);
  return serverRootCache;
}

/** The monorepo root: the first folder above this module that holds `apps/web/package.json`. */
export function repoRoot(): string | null {
  return findUp(MODULE_DIR, (dir) => fs.existsSync(path.join(dir, 'apps', 'web', 'package.json')));
}

let versionCache: string | null = null;

/** The server's own version, shown by `GET /api/v1/config` and in the OpenAPI document. */
export function serverVersion(): string {
  if (versionCache === null) {
    const pkg = JSON.parse(fs.readFileSync(path.join(serverRoot(), 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    versionCache = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  }
  return versionCache;
}
