/**
 * Benchmark of the streamed donor export (`POST /api/v1/admin/export/donors`). Not a test.
 *
 *   npx tsx apps/server/bench/export-donors.ts                 # PGlite (in memory)
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     npx tsx apps/server/bench/export-donors.ts               # PGlite, then PostgreSQL
 *   BENCH_DONORS=20000 …                                       # another size (default 100,000)
 *
 * Seeds the donors with one multi-row INSERT, starts the real app on a loopback port and
 * downloads the export with fetch, reading the body as a stream (only bytes and lines are
 * counted, nothing is kept). The server runs in this process, so `process.memoryUsage().rss`,
 * sampled every 50 ms, is the server's memory: the figure printed is the peak growth over the
 * level just before the download (with the JS heap's, which excludes PGlite's WebAssembly
 * memory). Garbage is collected lazily, so part of the growth is garbage, not retained rows:
 * compare sizes (BENCH_DONORS) to see that it does not grow with the export. For a steadier
 * baseline run `node --expose-gc --import tsx apps/server/bench/export-donors.ts`.
 */
import { appendFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../src/app';
import { loadConfig } from '../src/config/env';
import {
  createPgliteDatabase,
  createPostgresDatabase,
  executeRows,
  type Database,
} from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/lib/password';
import { prepareDatabase } from '../src/server';
import { createServices } from '../src/services';
import { insertManyDonors } from '../src/test/admin-helpers';
import { createScratchPostgresDatabase } from '../src/test/test-database';

const DONORS = Number(process.env.BENCH_DONORS ?? 100_000);
const SAMPLE_MS = 50;
const MiB = 1024 * 1024;

interface Run {
  label: string;
  rows: number;
  bytes: number;
  seconds: number;
  peakRssGrowthMiB: number;
  baselineRssMiB: number;
  peakHeapGrowthMiB: number;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect) {
    collect();
    collect();
  }
}

async function seed(database: Database): Promise<void> {
  const started = performance.now();
  await insertManyDonors(database.db, DONORS, { sameTime: 3 });
  // Some donors have donations, so the per-row donation count has work to do.
  await database.db.execute(sql`
    insert into donations (donor_id, donated_at, place, verified)
    select id, created_at + interval '30 days', 'Bench Blood Centre', true
    from users where role = 'donor' and random() < 0.3`);
  await database.db.execute(sql`analyze`);
  const [count] = await executeRows<{ n: string }>(
    database.db,
    sql`select count(*) as n from users where role = 'donor'`,
  );
  console.log(
    `  seeded ${Number(count?.n).toLocaleString('en')} donors in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function adminToken(app: App, database: Database): Promise<string> {
  const password = 'bench admin password';
  await database.db.insert(users).values({
    email: 'bench-admin@example.org',
    passwordHash: await hashPassword(password),
    role: 'admin',
    status: 'approved',
    fullName: 'Bench Admin',
  });
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: 'bench-admin@example.org', password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return res.json().data.tokens.accessToken as string;
}

async function download(url: string, token: string, label: string, body: object): Promise<Run> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = process.memoryUsage();
  const baseline = before.rss;
  let peak = baseline;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      // The export itself, not compression, is measured.
      'accept-encoding': 'identity',
    },
    body: JSON.stringify(body),
  });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
  let bytes = 0;
  let lines = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const byte of value) if (byte === 0x0a) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  return {
    label,
    rows: lines - 1,
    bytes,
    seconds,
    peakRssGrowthMiB: (peak - baseline) / MiB,
    baselineRssMiB: baseline / MiB,
    peakHeapGrowthMiB: (peakHeap - before.heapUsed) / MiB,
  };
}

async function bench(driver: 'pglite' | 'postgres', database: Database): Promise<Run[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bdms-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST_DIR: dataDir });
  const services = createServices(database, config, { backgroundJobs: false });
  await prepareDatabase(config, database, services);
  const app = await buildApp({ config, database, services, logger: false });
  try {
    await seed(database);
    const token = await adminToken(app, database);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/v1/admin/export/donors`;
    const runs: Run[] = [];
    runs.push(await download(url, token, `${driver}: all donors (first run)`, {}));
    runs.push(await download(url, token, `${driver}: all donors (second run)`, {}));
    runs.push(await download(url, token, `${driver}: status=approved`, { status: 'approved' }));
    return runs;
  } finally {
    await app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function print(runs: Run[]): void {
  console.table(
    runs.map((run) => ({
      run: run.label,
      rows: run.rows,
      'CSV MiB': (run.bytes / MiB).toFixed(1),
      seconds: run.seconds.toFixed(2),
      'rows/s': Math.round(run.rows / run.seconds),
      'RSS before (MiB)': run.baselineRssMiB.toFixed(0),
      'peak RSS growth (MiB)': run.peakRssGrowthMiB.toFixed(1),
      'peak JS heap growth (MiB)': run.peakHeapGrowthMiB.toFixed(1),
    })),
  );
}

async function main(): Promise<void> {
  console.log(
    `Donor export benchmark: ${DONORS.toLocaleString('en')} donors; ${os.cpus().length} cores ` +
      `(${os.cpus()[0]?.model.trim()}), Node ${process.version}, RSS sampled every ${SAMPLE_MS} ms` +
      `${(globalThis as { gc?: unknown }).gc ? ', GC before each run' : ''}`,
  );
  const runs: Run[] = [];

  console.log('PGlite (in memory):');
  const client = new PGlite();
  await client.waitReady;
  const pglite = createPgliteDatabase(client);
  try {
    await runMigrations(pglite);
    runs.push(...(await bench('pglite', pglite)));
  } finally {
    await pglite.close();
  }

  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) {
    console.log('PostgreSQL:');
    const scratch = await createScratchPostgresDatabase(baseUrl);
    const postgres = createPostgresDatabase(scratch.url);
    try {
      await runMigrations(postgres);
      runs.push(...(await bench('postgres', postgres)));
    } finally {
      await postgres.close();
      await scratch.drop();
    }
  }
  print(runs);
  // For scripts/bench.mjs: one JSON line per run.
  if (process.env.BENCH_JSON) {
    for (const run of runs) {
      appendFileSync(
        process.env.BENCH_JSON,
        `${JSON.stringify({
          run: run.label,
          rows: run.rows,
          csvMiB: +(run.bytes / MiB).toFixed(1),
          seconds: +run.seconds.toFixed(2),
          rowsPerSec: Math.round(run.rows / run.seconds),
          baselineRssMiB: Math.round(run.baselineRssMiB),
          peakRssGrowthMiB: +run.peakRssGrowthMiB.toFixed(1),
          peakHeapGrowthMiB: +run.peakHeapGrowthMiB.toFixed(1),
        })}\n`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
