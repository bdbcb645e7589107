// `npm run bench`: figures for this machine, printed as a table and written to bench/results.json.
// The server runs as its own process on loopback; the load comes from this process (autocannon).
// A bare Fastify "hello" server is measured in the same run as the machine's ceiling, so every
// throughput figure is also given as a ratio of it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';
import { buildIfStale, ROOT } from './lib/build.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const results = { machine: machine(), startedAt: new Date().toISOString(), rows: [] };

function machine() {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitFor(url, timeoutMs = 120_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - started;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

async function load(url, title, ceiling) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  const row = {
    benchmark: title,
    reqPerSec: Math.round(r.requests.average),
    ofCeiling: ceiling ? `${Math.round((r.requests.average / ceiling) * 100)} %` : '100 %',
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
  results.rows.push(row);
  return r.requests.average;
}

buildIfStale();

// 1. The ceiling: a bare Fastify hello server.
const ceilingServer = startProcess(['scripts/lib/hello-server.mjs'], { PORT: '3299' });
await waitFor('http://127.0.0.1:3299/');
await load('http://127.0.0.1:3299/', 'ceiling: bare Fastify hello (warm-up)');
results.rows.pop();
const ceiling = await load('http://127.0.0.1:3299/', 'ceiling: bare Fastify hello');
await stop(ceilingServer);

// 2. Start-up: cold (new embedded database) and warm (existing one).
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bdms-bench-'));
const serverEnv = { PORT: '3298', DATA_DIR: dataDir };
let server = startProcess(['apps/server/dist/main.js'], serverEnv);
const coldMs = await waitFor('http://127.0.0.1:3298/readyz');
await stop(server);
server = startProcess(['apps/server/dist/main.js'], serverEnv);
const warmMs = await waitFor('http://127.0.0.1:3298/readyz');
results.startup = { coldMs: Math.round(coldMs), warmMs: Math.round(warmMs) };

// 3. Public reads on the real server.
await load('http://127.0.0.1:3298/api/v1/config', 'GET /api/v1/config (warm-up)', ceiling);
results.rows.pop();
await load('http://127.0.0.1:3298/healthz', 'GET /healthz', ceiling);
await load('http://127.0.0.1:3298/api/v1/config', 'GET /api/v1/config', ceiling);

// 4. What a phone downloads for the home page: every script and stylesheet, gzip.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
for (const route of ['/']) {
  const page = await browser.newPage({ serviceWorkers: 'block' });
  const assets = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet') assets.push({ type, body: res.body() });
  });
  await page.goto(`http://127.0.0.1:3298${route}`, { waitUntil: 'networkidle' });
  const sizes = { script: 0, stylesheet: 0 };
  for (const a of assets) sizes[a.type] += gzipSync(await a.body, { level: 9 }).length;
  results[`page ${route}`] = {
    jsGzipKB: +(sizes.script / 1024).toFixed(1),
    cssGzipKB: +(sizes.stylesheet / 1024).toFixed(1),
  };
  await page.close();
}
await browser.close();

results.serverRssMiB = await (async () => {
  try {
    const status = await import('node:fs').then((fs) =>
      fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'),
    );
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return null;
  }
})();
await stop(server);
rmSync(dataDir, { recursive: true, force: true });

console.log(`\nMachine: ${results.machine}`);
console.table(results.rows);
console.log('Start-up to ready (ms):', results.startup);
console.log('Home page assets:', results['page /']);
console.log('Server RSS after load (MiB):', results.serverRssMiB);
mkdirSync(path.join(ROOT, 'bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('Written to bench/results.json');
