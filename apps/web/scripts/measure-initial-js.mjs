// Reports the gzip size of the JavaScript the home page ("/") loads before it can show anything:
// the entry, its static imports, and the home page's chunk with its static imports.
// Run after a build: node scripts/measure-initial-js.mjs [budget in KB, default 150]
// Another build directory (vite build --outDir …): MEASURE_DIST=/tmp/web-dist node scripts/…
import { readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = process.env.MEASURE_DIST
  ? resolve(process.env.MEASURE_DIST)
  : join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const HOME_PAGE = 'src/app/routes/home.tsx';
const budgetKb = Number(process.argv[2] ?? 150);

const files = new Set();
function collect(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) collect(imported);
}
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
collect(entryKey);
if (!manifest[HOME_PAGE]) throw new Error(`${HOME_PAGE} is not a chunk of the build`);
collect(HOME_PAGE);

let total = 0;
const rows = [...files].map((file) => {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  return { file, gzipKb: +(size / 1024).toFixed(2) };
});
rows.sort((a, b) => b.gzipKb - a.gzipKb);
console.table(rows);
console.log(
  `Initial JS for /: ${(total / 1024).toFixed(1)} KB gzip (${total} bytes; budget ${budgetKb} KB)`,
);
if (total / 1024 > budgetKb) process.exitCode = 1;
