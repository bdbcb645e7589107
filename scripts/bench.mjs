// `npm run bench`: figures for this machine, printed as tables and written to bench/results.json.
//
// The built server runs as its own process on a fresh embedded database; the load comes from this
// process over loopback (autocannon). A bare Fastify "hello" server is measured in the same run as
// the machine's ceiling, so every throughput figure is also a ratio of it. Matching and the donor
// export run in their own processes (apps/server/bench/*.ts) on PGlite and, when
// TEST_DATABASE_URL is set, on PostgreSQL. Lighthouse runs with the system Chromium.
//
// Options (environment): BENCH_DURATION seconds per load run (default 10); BENCH_ONLY a comma list
// of sections to run (ceiling,startup,public,auth,writes,respond,pages,lighthouse,matching,export,
// stock,emergency); BENCH_RESPOND_DONORS (default 2000) and BENCH_RESPOND_REQUESTS (default 30)
// for donors answering alerts (PostgreSQL: BENCH_SERVER_DB=postgres); BENCH_EMERGENCY_DONORS (default 100000) and BENCH_EMERGENCY_RUNS (default 40) for
// the emergency path (PostgreSQL: needs TEST_DATABASE_URL);
// BENCH_MATCHING_SIZES (default 100000,1000000); BENCH_EXPORT_DONORS (default 100000);
// BENCH_SERVER_DB=postgres runs the server under load on a new database of TEST_DATABASE_URL's
// server (dropped at the end) instead of embedded PGlite. BENCH_SERVER_MAIN runs another build
// of the server (a dist/main.js path), for before/after figures on the same machine.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';
import { buildIfStale, ROOT } from './lib/build.mjs';
import { emergencyPath } from './lib/emergency-bench.mjs';
import { prepareResponses } from './lib/respond-bench.mjs';
import { scratchPostgres, sharedSecrets } from './faults/lib.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const wants = (section) => !ONLY || ONLY.has(section);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];
const PORT = 3298;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'bench-admin@example.org', password: 'bench-admin-password-1' };

/** The targets of issue #9, checked at the end. */
const TARGETS = {
  publicReadOfCeiling: 0.5,
  publicReadP99Ms: 50,
  matchingP95MsPostgres100k: 20,
  /** Issue #17: "O- PRBC within 25 km of PIN 110001", 3,000 centres, 1,000 updates a minute. */
  stockSearchP95MsPostgres: 20,
  emergencyP95Ms: 100,
  homeJsGzipKB: 150,
  lighthousePerformance: 95,
  lighthouseAccessibility: 100,
};

const results = {
  machine: machine(),
  startedAt: new Date().toISOString(),
  durationS: DURATION_S,
  connections: CONNECTIONS,
  load: [],
  startup: null,
  pages: {},
  lighthouse: {},
  matching: [],
  export: [],
  stock: [],
  emergency: null,
  serverRssMiB: null,
  targets: [],
};

function machine() {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

function startProcess(args, env, stdio = 'ignore') {
  return spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', stdio, 'inherit'],
  });
}

async function waitFor(url, timeoutMs = 180_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - started;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
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

/** Runs a child to its end (its output shown) and rejects on a non-zero exit. */
function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

function readJsonLines(file) {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

let ceiling = null;
let ceilingCpuUs = null;
/** The process under load, whose CPU time each run reads (the server, or the bare one). */
let measured = null;

/** User + system CPU time of a process so far, in microseconds (Linux /proc; null elsewhere). */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat(5), counted from the pid.
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/** One autocannon run; `options` may carry method, headers, body or a setupClient. */
async function load(group, title, url, options = {}) {
  const cpuBefore = measured ? cpuMicros(measured.pid) : null;
  // From the start to the last response: autocannon notices the end of a run that stops after
  // `amount` requests only at its next one-second tick, and reports that as the duration.
  const run = autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, ...options });
  let started = performance.now();
  let last = started;
  run.on('start', () => {
    started = performance.now();
  });
  run.on('response', () => {
    last = performance.now();
  });
  const r = await run;
  const seconds = (last - started) / 1000;
  const cpuAfter = measured ? cpuMicros(measured.pid) : null;
  // Server CPU per request: steadier than requests/s on a machine shared with other work.
  const cpuUsPerReq =
    cpuBefore !== null && cpuAfter !== null && r.requests.total > 0
      ? Math.round((cpuAfter - cpuBefore) / r.requests.total)
      : null;
  // Requests over the run's whole duration, timed here: autocannon's per-second average misreads
  // a run that stops after `amount` requests (its samples are per second, the last one partial
  // or missing), and its own duration runs to the next whole second after the last response.
  const perSecond = seconds > 0 ? r.requests.total / seconds : r.requests.average;
  if (process.env.BENCH_DEBUG)
    console.log(
      `    total ${r.requests.total} in ${seconds.toFixed(2)} s (autocannon: ${r.duration} s), autocannon average ${r.requests.average}`,
    );
  const row = {
    group,
    benchmark: title,
    reqPerSec: Math.round(perSecond),
    ofCeiling: ceiling ? +(perSecond / ceiling).toFixed(3) : 1,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    cpuUsPerReq,
    cpuOfCeiling:
      ceilingCpuUs && cpuUsPerReq !== null ? +(cpuUsPerReq / ceilingCpuUs).toFixed(1) : null,
    non2xx: r.non2xx,
    errors: r.errors,
  };
  results.load.push(row);
  console.log(
    `  ${title}: ${row.reqPerSec} req/s (${(row.ofCeiling * 100).toFixed(1)} % of ceiling), p50 ${row.p50ms} ms, p99 ${row.p99ms} ms, CPU ${cpuUsPerReq} µs/req (${row.cpuOfCeiling ?? '–'}× bare), non-2xx ${row.non2xx}`,
  );
  return row;
}

/** A short unmeasured run, so the measured one starts warm (JIT, caches, connections). */
function warmUp(url, options = {}) {
  return autocannon({ url, connections: 10, duration: 2, ...options });
}

async function api(method, url, body, token) {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json.error)}`);
  return json.data;
}

/** A registered donor whose questionnaire is done and whom the administrator approved. */
async function approvedDonor() {
  const registered = await api('POST', '/api/v1/auth/register', {
    email: 'bench-donor@example.org',
    password: 'bench-donor-password-1',
    fullName: 'Bench Donor',
    phone: '9876500001',
    bloodType: 'O+',
    dateOfBirth: '1990-01-15',
    gender: 'male',
    city: 'Hyderabad',
    state: 'Telangana',
    pincode: '500001',
    consent: true,
  });
  const id = registered.user.id;
  const token = registered.tokens.accessToken;
  await api(
    'PUT',
    `/api/v1/users/${id}/questionnaire`,
    {
      answers: { weightKg: 70, firstTimeDonor: false, feelsWell: true, conditions: [] },
    },
    token,
  );
  const admin = await api('POST', '/api/v1/auth/login', { ...ADMIN, role: 'admin' });
  await api('POST', `/api/v1/admin/donors/${id}/approve`, {}, admin.tokens.accessToken);
  // A new sign-in, so the token carries the approved status.
  const signedIn = await api('POST', '/api/v1/auth/login', {
    email: 'bench-donor@example.org',
    password: 'bench-donor-password-1',
    role: 'donor',
  });
  return { id, token: signedIn.tokens.accessToken };
}

/** A guest blood request body; the phone differs per request (requests are limited per phone). */
let guestCounter = 0;
function guestRequestBody() {
  guestCounter += 1;
  return JSON.stringify({
    bloodType: 'B+',
    unitsNeeded: 2,
    urgency: 'urgent',
    hospitalName: 'Gandhi Hospital',
    city: 'Hyderabad',
    state: 'Telangana',
    pincode: '500003',
    contactName: 'Bench Guest',
    contactPhone: `+9179${String(10_000_000 + guestCounter).slice(-8)}`,
    notes: 'benchmark request',
  });
}

/**
 * What a phone downloads for a page, gzip, in three parts: the scripts and stylesheets requested
 * before its `load` event (what it needs to show itself); those requested in the 1.5 s after it
 * (deferred parts: live figures, the install and update layer, web vitals); and what it fetches
 * later while idle (the spec's navigation preloading of likely next screens).
 */
async function pageWeights(routes) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    for (const route of routes) {
      const page = await browser.newPage({ serviceWorkers: 'block' });
      const assets = [];
      let phase = 'initial';
      page.on('request', (req) => {
        const type = req.resourceType();
        if (type === 'script' || type === 'stylesheet') {
          const asset = { type, phase, body: null };
          assets.push(asset);
          asset.body = req.response().then((res) => res?.body());
        }
      });
      page.once('load', () => {
        phase = 'afterLoad';
      });
      await page.goto(`${BASE}${route}`, { waitUntil: 'load' });
      await page.waitForTimeout(1500);
      phase = 'idle';
      await page.waitForLoadState('networkidle');
      // Idle preloading starts after 2 s without activity.
      await page.waitForTimeout(3500);
      const sizes = {
        initial: { script: 0, stylesheet: 0 },
        afterLoad: { script: 0, stylesheet: 0 },
        idle: { script: 0, stylesheet: 0 },
      };
      for (const asset of assets) {
        const body = await asset.body.catch(() => null);
        if (body) sizes[asset.phase][asset.type] += gzipSync(body, { level: 9 }).length;
      }
      const kb = (bytes) => +(bytes / 1024).toFixed(1);
      results.pages[route] = {
        jsGzipKB: kb(sizes.initial.script),
        cssGzipKB: kb(sizes.initial.stylesheet),
        afterLoadJsGzipKB: kb(sizes.afterLoad.script),
        idlePreloadJsGzipKB: kb(sizes.idle.script),
        idlePreloadCssGzipKB: kb(sizes.idle.stylesheet),
      };
      console.log(`  ${route}:`, results.pages[route]);
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

async function lighthouseRuns(routes) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  for (const route of routes) {
    // A new browser per page: no cache or service worker carried over from another page.
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: CHROMIUM_FLAGS,
    });
    try {
      const result = await lighthouse(`${BASE}${route}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      const { categories, audits } = result.lhr;
      // The whole report, for finding out why a score is what it is (bench/ is a local output).
      mkdirSync(path.join(ROOT, 'bench'), { recursive: true });
      writeFileSync(
        path.join(
          ROOT,
          'bench',
          `lighthouse${route === '/' ? '-home' : route.replaceAll('/', '-')}.json`,
        ),
        JSON.stringify(result.lhr),
      );
      const score = (key) => Math.round((categories[key]?.score ?? 0) * 100);
      results.lighthouse[route] = {
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
        tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
        cls: +(audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3),
        failing: Object.values(categories)
          .flatMap((category) => category.auditRefs)
          .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 0.9)
          .map((ref) => ref.id),
      };
      console.log(`  ${route}:`, results.lighthouse[route]);
    } finally {
      await chrome.kill();
    }
  }
}

function checkTargets() {
  const add = (target, value, met) => results.targets.push({ target, value, met });
  // The reads issue #9 names (config, facilities nearby and search, education featured and
  // popular); the others (a directory page, the list, an article, which counts a view per reader,
  // the stats) are measured and shown, not held to the target.
  const publicRows = results.load.filter(
    (row) => row.group === 'public' && /config|nearby|search|featured|popular/.test(row.benchmark),
  );
  for (const row of publicRows) {
    add(
      `${row.benchmark}: ≥ ${TARGETS.publicReadOfCeiling * 100} % of ceiling`,
      `${Math.round(row.ofCeiling * 100)} %`,
      row.ofCeiling >= TARGETS.publicReadOfCeiling,
    );
    add(
      `${row.benchmark}: p99 < ${TARGETS.publicReadP99Ms} ms`,
      `${row.p99ms} ms`,
      row.p99ms < TARGETS.publicReadP99Ms,
    );
  }
  const pg100k = results.matching.find(
    (m) => m.database.startsWith('PostgreSQL') && m.donors === 100_000,
  );
  if (pg100k)
    add(
      `matching p95 < ${TARGETS.matchingP95MsPostgres100k} ms (PostgreSQL, 100k donors)`,
      `${pg100k.queryP95ms} ms`,
      pg100k.queryP95ms < TARGETS.matchingP95MsPostgres100k,
    );
  const stockPg = results.stock.find((m) => m.database.startsWith('PostgreSQL'));
  if (stockPg)
    add(
      `stock search p95 < ${TARGETS.stockSearchP95MsPostgres} ms (PostgreSQL, ${stockPg.centres} centres, ${stockPg.updatesPerMin} updates/min)`,
      `${stockPg.queryP95ms} ms`,
      stockPg.queryP95ms < TARGETS.stockSearchP95MsPostgres,
    );
  if (results.emergency) {
    add(
      `emergency path p95 < ${TARGETS.emergencyP95Ms} ms (PostgreSQL, ${results.emergency.donors} donors, ${results.emergency.readsPerSec} reads/s beside)`,
      `${results.emergency.outboxP95ms} ms`,
      results.emergency.outboxP95ms < TARGETS.emergencyP95Ms,
    );
  }
  const home = results.pages['/'];
  if (home)
    add(
      `home page JS < ${TARGETS.homeJsGzipKB} KB gzip`,
      `${home.jsGzipKB} KB`,
      home.jsGzipKB < TARGETS.homeJsGzipKB,
    );
  for (const [route, scores] of Object.entries(results.lighthouse)) {
    add(
      `Lighthouse ${route} performance ≥ ${TARGETS.lighthousePerformance}`,
      scores.performance,
      scores.performance >= TARGETS.lighthousePerformance,
    );
    add(
      `Lighthouse ${route} accessibility ${TARGETS.lighthouseAccessibility}`,
      scores.accessibility,
      scores.accessibility >= TARGETS.lighthouseAccessibility,
    );
  }
}

buildIfStale();
console.log(`Machine: ${results.machine}; ${CONNECTIONS} connections, ${DURATION_S} s per run`);

// 1. The ceiling: a bare Fastify hello server.
if (wants('ceiling') || wants('public') || wants('auth') || wants('writes') || wants('respond')) {
  console.log('\n# Ceiling');
  const hello = startProcess(['scripts/lib/hello-server.mjs'], { PORT: '3299' });
  await waitFor('http://127.0.0.1:3299/');
  await warmUp('http://127.0.0.1:3299/');
  measured = hello;
  const bare = await load('ceiling', 'bare Fastify hello', 'http://127.0.0.1:3299/');
  ceiling = bare.reqPerSec;
  ceilingCpuUs = bare.cpuUsPerReq;
  measured = null;
  await stop(hello);
}

// 2. Start-up: cold (new database: migrations and the reference data load) and warm.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bdms-bench-'));
const serverDatabase = process.env.BENCH_SERVER_DB === 'postgres' ? await scratchPostgres() : null;
if (process.env.BENCH_SERVER_DB === 'postgres' && !serverDatabase) {
  throw new Error('BENCH_SERVER_DB=postgres needs TEST_DATABASE_URL');
}
results.serverDatabase = serverDatabase ? 'PostgreSQL' : 'PGlite (embedded)';
console.log(`Server database: ${results.serverDatabase}`);
const serverEnv = {
  ...(serverDatabase ? { DATABASE_URL: serverDatabase.url, ...sharedSecrets() } : {}),
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  FEATURE_FLAGS:
    'emergencyServices,bloodRequests,bloodBankDirectory,donorDashboard,donationHistory',
  // The load comes from loopback: the per-address limits would answer 429 to it.
  RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1',
};
console.log('\n# Start-up');
const SERVER_MAIN = process.env.BENCH_SERVER_MAIN ?? 'apps/server/dist/main.js';
let server = startProcess([SERVER_MAIN], serverEnv);
const coldMs = await waitFor(`${BASE}/readyz`);
await stop(server);
// BENCH_CPU_PROF=<dir>: the server under load writes a V8 CPU profile there when it stops.
const profileArgs = process.env.BENCH_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
  : [];
server = startProcess([...profileArgs, SERVER_MAIN], serverEnv);
measured = server;
const warmMs = await waitFor(`${BASE}/readyz`);
results.startup = { coldMs: Math.round(coldMs), warmMs: Math.round(warmMs) };
console.log(`  to ready: cold ${results.startup.coldMs} ms, warm ${results.startup.warmMs} ms`);

try {
  // 3. Public reads.
  if (wants('public')) {
    console.log('\n# Public reads');
    const article = (await api('GET', '/api/public/education/featured'))[0];
    const publicReads = [
      ['GET /api/v1/config', '/api/v1/config'],
      ['GET facilities/nearby (point)', '/api/v1/public/facilities/nearby?lat=17.385&lng=78.4867'],
      ['GET facilities/nearby (PIN 500001)', '/api/v1/public/facilities/nearby?pincode=500001'],
      [
        'GET facilities/search "gandhi hyderabad"',
        '/api/v1/public/facilities/search?q=gandhi%20hyderabad',
      ],
      [
        'GET facilities/directory (Telangana)',
        '/api/v1/public/facilities/directory?state=Telangana',
      ],
      ['GET education/featured', '/api/public/education/featured'],
      ['GET education/popular', '/api/public/education/popular'],
      ['GET education/content (list)', '/api/public/education/content'],
      ...(article
        ? [[`GET education/content/{slug}`, `/api/public/education/content/${article.slug}`]]
        : []),
      ['GET public/stats', '/api/v1/public/stats'],
    ];
    const sizes = new Map();
    for (const [title, url] of publicReads) {
      await warmUp(`${BASE}${url}`);
      const row = await load('public', title, `${BASE}${url}`);
      row.replyBytes = (await (await fetch(`${BASE}${url}`)).arrayBuffer()).byteLength;
      sizes.set(row, row.replyBytes);
    }
    // The bare server again, with replies of the same sizes: bytes cost time on their own (a
    // 10 KB reply halves what even a bare server sends). Shown beside the main ratio.
    console.log('  bare Fastify with replies of the same sizes:');
    const hello = startProcess(['scripts/lib/hello-server.mjs'], { PORT: '3299' });
    await waitFor('http://127.0.0.1:3299/');
    const sameSize = new Map();
    for (const bytes of new Set(sizes.values())) {
      const url = `http://127.0.0.1:3299/bytes/${bytes}`;
      await warmUp(url);
      const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
      sameSize.set(bytes, r.requests.average);
      console.log(`    ${bytes} B: ${Math.round(r.requests.average)} req/s`);
    }
    await stop(hello);
    for (const [row, bytes] of sizes) {
      row.ofSameSizeCeiling = +(row.reqPerSec / sameSize.get(bytes)).toFixed(2);
    }
  }

  // 4. Authenticated reads: a signed-in donor's own calls.
  if (wants('auth')) {
    console.log('\n# Authenticated reads (approved donor)');
    const donor = await approvedDonor();
    const headers = { authorization: `Bearer ${donor.token}` };
    for (const [title, url] of [
      ['GET /api/v1/auth/me', '/api/v1/auth/me'],
      ['GET users/{id}/stats (dashboard)', `/api/v1/users/${donor.id}/stats`],
      ['GET users/{id}/availability (dashboard)', `/api/v1/users/${donor.id}/availability`],
      ['GET users/{id}/donations (history)', `/api/v1/users/${donor.id}/donations`],
      ['GET /api/v1/notifications', '/api/v1/notifications'],
    ]) {
      await warmUp(`${BASE}${url}`, { headers });
      await load('auth', title, `${BASE}${url}`, { headers });
    }
  }

  // 5. Writes: guest emergency requests (each one stored, matched later by verification).
  if (wants('writes')) {
    console.log('\n# Writes');
    const options = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: guestRequestBody() }) }],
    };
    // Warmed like the reads, but longer and at full load: on a fresh process the write path's
    // first seconds measure V8 compiling it (per second: ~350 requests in the first, ~1,100
    // by the fifth, on a 2-core machine), not the server it becomes. Its phones are distinct too.
    await autocannon({
      url: `${BASE}/api/v1/blood-requests`,
      connections: CONNECTIONS,
      duration: 5,
      ...options,
    });
    await load(
      'writes',
      'POST /api/v1/blood-requests (guest)',
      `${BASE}/api/v1/blood-requests`,
      options,
    );
  }

  // 5b. Donors answering alerts (PostgreSQL): each answer a different (donor, request) pair.
  if (wants('respond')) {
    console.log('\n# Donor answers (accept or decline)');
    if (!serverDatabase) {
      console.log('  skipped: needs BENCH_SERVER_DB=postgres');
    } else {
      const admin = await api('POST', '/api/v1/auth/login', { ...ADMIN, role: 'admin' });
      const answers = await prepareResponses({
        databaseUrl: serverDatabase.url,
        jwtSecret: serverEnv.JWT_SECRET,
        api,
        adminToken: admin.tokens.accessToken,
        donors: Number(process.env.BENCH_RESPOND_DONORS ?? 2000),
        requests: Number(process.env.BENCH_RESPOND_REQUESTS ?? 30),
      });
      console.log(`  ${answers.length} (donor, request) pairs to answer`);
      let next = 0;
      await load(
        'writes',
        'POST blood-requests/{id}/respond (accept or decline)',
        `${BASE}/api/v1/blood-requests`,
        {
          method: 'POST',
          amount: answers.length,
          requests: [
            {
              setupRequest: (request) => {
                const answer = answers[next % answers.length];
                next += 1;
                return {
                  ...request,
                  path: `/api/v1/blood-requests/${answer.requestId}/respond`,
                  headers: {
                    ...request.headers,
                    'content-type': 'application/json',
                    authorization: `Bearer ${answer.token}`,
                  },
                  body: JSON.stringify({ response: answer.response }),
                };
              },
            },
          ],
        },
      );
    }
  }

  // 6. What a phone downloads: every script and stylesheet of the page, gzip.
  if (wants('pages')) {
    console.log('\n# Page weights');
    await pageWeights(['/', '/emergency', '/blood-banks']);
  }

  // 7. Lighthouse, mobile profile (its default: Moto G power, slow 4G, 4× CPU slowdown).
  if (wants('lighthouse')) {
    console.log('\n# Lighthouse (mobile)');
    await lighthouseRuns(['/', '/emergency', '/blood-banks']);
  }

  results.serverRssMiB = (() => {
    try {
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
      return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      return null;
    }
  })();
} finally {
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
  await serverDatabase?.drop();
}

// 8. Matching for Critical requests, and 9. the admin CSV export (their own processes).
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bdms-bench-json-'));
const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
if (wants('matching')) {
  const sizes = (process.env.BENCH_MATCHING_SIZES ?? '100000,1000000').split(',').map(Number);
  for (const donors of sizes) {
    console.log(`\n# Matching, ${donors.toLocaleString('en')} donors`);
    const file = path.join(scratch, `matching-${donors}.jsonl`);
    await run(process.execPath, [tsx, 'apps/server/bench/matching.ts'], {
      BENCH_DONORS: String(donors),
      BENCH_JSON: file,
      NODE_OPTIONS: '--max-old-space-size=8192',
    });
    results.matching.push(...readJsonLines(file));
  }
}
if (wants('export')) {
  console.log('\n# Donor export');
  const file = path.join(scratch, 'export.jsonl');
  await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'apps/server/bench/export-donors.ts'],
    {
      BENCH_DONORS: process.env.BENCH_EXPORT_DONORS ?? '100000',
      BENCH_JSON: file,
    },
  );
  results.export = readJsonLines(file);
}
if (wants('stock')) {
  console.log('\n# Blood stock availability search under updates');
  const file = path.join(scratch, 'stock.jsonl');
  await run(process.execPath, [tsx, 'apps/server/bench/blood-stock.ts'], {
    BENCH_JSON: file,
    BENCH_DATABASES: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
  });
  results.stock = readJsonLines(file);
}
rmSync(scratch, { recursive: true, force: true });

// 10. The emergency path on PostgreSQL, with signed-in reads beside it.
if (wants('emergency')) {
  console.log('\n# Emergency path (PostgreSQL)');
  const emergencyPort = 3297;
  const emergencyDir = mkdtempSync(path.join(os.tmpdir(), 'bdms-bench-emergency-'));
  try {
    results.emergency = await emergencyPath({
      scratchPostgres,
      server: {
        base: `http://127.0.0.1:${emergencyPort}`,
        start: (env) => startProcess([SERVER_MAIN], env),
        stop,
        waitFor,
      },
      // Its own PostgreSQL database: the secrets every instance on one database shares.
      env: {
        ...serverEnv,
        ...sharedSecrets(),
        PORT: String(emergencyPort),
        DATA_DIR: emergencyDir,
      },
      runs: Number(process.env.BENCH_EMERGENCY_RUNS ?? 40),
      donors: Number(process.env.BENCH_EMERGENCY_DONORS ?? 100_000),
      readRate: 200,
    });
    if (!results.emergency) console.log('  skipped: TEST_DATABASE_URL is not set');
  } finally {
    rmSync(emergencyDir, { recursive: true, force: true });
  }
}

checkTargets();
results.finishedAt = new Date().toISOString();

console.log(`\nMachine: ${results.machine}`);
console.table(results.load.map(({ group, ...row }) => ({ group, ...row })));
console.log('Start-up to ready (ms):', results.startup);
console.log('Server RSS after the load (MiB):', results.serverRssMiB);
if (Object.keys(results.pages).length) console.table(results.pages);
if (Object.keys(results.lighthouse).length)
  console.table(
    Object.fromEntries(
      Object.entries(results.lighthouse).map(([k, { failing: _failing, ...v }]) => [k, v]),
    ),
  );
if (results.matching.length)
  console.table(
    results.matching.map(({ plan: _plan, ...row }) => ({
      ...row,
      indexesUsed: row.indexesUsed.join(', '),
      seqScans: row.seqScans.join(', '),
    })),
  );
if (results.export.length) console.table(results.export);
if (results.stock.length) console.table(results.stock);
console.table(results.targets);
mkdirSync(path.join(ROOT, 'bench'), { recursive: true });
writeFileSync(path.join(ROOT, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('Written to bench/results.json');
