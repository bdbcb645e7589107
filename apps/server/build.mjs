// Bundles the server into dist/main.js. @bdms/shared is TypeScript source, so it is bundled;
// every runtime dependency stays external and is loaded from node_modules at run time.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {})
  .filter((name) => name !== '@bdms/shared')
  .flatMap((name) => [name, `${name}/*`]);

await rm(path.join(root, 'dist'), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  // server.js: startServer() for harnesses that start it with options (the browser tests).
  // pdf-render-worker.js: a worker thread, found beside main.js (features/documents/document-render.ts).
  entryPoints: [
    'src/main.ts',
    'src/server.ts',
    { in: 'src/features/documents/pdf-render-worker.js', out: 'pdf-render-worker' },
  ],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
  metafile: true,
  // Bundled CommonJS code may call require(); ESM output has none unless we define it.
  banner: {
    js: "import { createRequire as __bdmsCreateRequire } from 'node:module';\nconst require = __bdmsCreateRequire(import.meta.url);",
  },
});

const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(
  `Built apps/server/dist/main.js and server.js (${Math.round(bytes / 1024)} KiB with source map)`,
);
