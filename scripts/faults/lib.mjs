// Helpers shared by the fault tests (issue #9, "Faults"): build the server once, start it as a
// real process on a free port, drive it over HTTP, and make throwaway PostgreSQL databases.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { hashInputs, ROOT } from '../lib/build.mjs';

export { ROOT };
export const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
export const ADMIN = { email: 'faults-admin@example.org', password: 'faults-admin-password-1' };

/**
 * JWT_SECRET and a VAPID pair for servers on PostgreSQL, which refuse to start without them
 * (issue #19): every instance of one deployment shares these.
 */
export function sharedSecrets() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pub = publicKey.export({ format: 'jwk' });
  const priv = privateKey.export({ format: 'jwk' });
  return {
    JWT_SECRET: randomBytes(48).toString('base64url'),
    VAPID_PUBLIC_KEY: Buffer.concat([
      Buffer.from([0x04]),
      Buffer.from(pub.x, 'base64url'),
      Buffer.from(pub.y, 'base64url'),
    ]).toString('base64url'),
    VAPID_PRIVATE_KEY: priv.d,
  };
}

const SERVER_STAMP = path.join(ROOT, 'apps/server/dist/.build-hash');
// The same inputs and stamp as scripts/lib/build.mjs, so `npm start` and these agree.
const SERVER_INPUTS = [
  'apps/server/src',
  'apps/server/build.mjs',
  'apps/server/package.json',
  'packages/shared/src',
];

/** Builds apps/server/dist unless it is current (the web app is not needed here). */
export function ensureServerBuilt() {
  const hash = hashInputs(SERVER_INPUTS);
  if (existsSync(SERVER_STAMP) && readFileSync(SERVER_STAMP, 'utf8').trim() === hash) return;
  console.log('Building the server…');
  const result = spawnSync('npm', ['run', 'build', '--workspace', '@bdms/server'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the server build failed (exit ${result.status})`);
  writeFileSync(SERVER_STAMP, `${hash}\n`);
}

export function tempDir(prefix) {
  return mkdtempSync(path.join(os.tmpdir(), `bdms-fault-${prefix}-`));
}

/** A stand-in web build, so the server does not answer pages with 503 "not built". */
export function fakeWebDist() {
  const dir = tempDir('web');
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>fault test</title>\n');
  return dir;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `node apps/server/dist/main.js` with `env` on a free port and waits for /readyz.
 * Returns `{url, child, port, kill(signal), stop()}`; its output is kept in `log` (printed on failure).
 */
export async function startServer(env, { port, timeoutMs = 120_000 } = {}) {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(listenPort),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  const keep = (chunk) => {
    log.push(chunk.toString());
    if (log.length > 400) log.splice(0, log.length - 400);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${listenPort}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited while starting:\n${log.join('')}`);
    }
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready within ${timeoutMs} ms:\n${log.join('')}`);
    }
    await sleep(100);
  }
  return {
    url,
    port: listenPort,
    child,
    log,
    exited,
    startedInMs: Date.now() - started,
    /** kill -9: no shutdown hooks, no flushing. */
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** JSON over HTTP with the API's envelope; never throws for an HTTP status. */
export async function api(
  base,
  method,
  pathname,
  { body, token, headers = {}, timeoutMs = 30_000 } = {},
) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, json, text, headers: res.headers };
}

export async function adminToken(base) {
  const res = await api(base, 'POST', '/api/v1/auth/login', { body: { ...ADMIN, role: 'admin' } });
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status} ${res.text}`);
  return res.json.data.tokens.accessToken;
}

let phoneSequence = Number(String(Date.now()).slice(-6));
/** A valid Indian mobile number, new on every call in this process. */
export function nextPhone() {
  phoneSequence = (phoneSequence + 1) % 100_000_000;
  return `7${String(phoneSequence).padStart(9, '0')}`;
}

export function guestRequestBody(overrides = {}) {
  return {
    bloodType: 'O+',
    unitsNeeded: 2,
    urgency: 'urgent',
    patientName: 'Fault Test Patient',
    hospitalName: 'Gandhi Hospital',
    city: 'Secunderabad',
    state: 'Telangana',
    contactName: 'Fault Tester',
    contactPhone: nextPhone(),
    notes: 'Written by scripts/faults',
    ...overrides,
  };
}

/** Every blood request, read as an administrator page by page. */
export async function listAllRequests(base, token) {
  const items = [];
  for (let page = 1; ; page += 1) {
    const res = await api(base, 'GET', `/api/v1/blood-requests?page=${page}&pageSize=100`, {
      token,
    });
    if (res.status !== 200) throw new Error(`listing requests failed: ${res.status} ${res.text}`);
    items.push(...res.json.data.items);
    if (items.length >= res.json.data.total || res.json.data.items.length === 0) return items;
  }
}

/**
 * A new database on the TEST_DATABASE_URL server (`bdms_fault_<random>`), dropped by `drop()`;
 * null when TEST_DATABASE_URL is not set.
 */
export async function scratchPostgres() {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const name = `bdms_fault_${randomBytes(5).toString('hex')}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Fails the fault test with a message (and the server's log when given). */
export function fail(message, server) {
  const error = new Error(message);
  if (server) error.serverLog = server.log.join('');
  throw error;
}

export function check(condition, message, server) {
  if (!condition) fail(message, server);
}

/** Runs `main` and exits 0/1 with a summary; used by every fault script. */
export function runFault(name, main) {
  const started = Date.now();
  main()
    .then((outcome) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (outcome?.skipped) console.log(`↷ ${name}: skipped: ${outcome.skipped}`);
      else console.log(`✔ ${name} (${seconds} s)`);
      process.exit(0);
    })
    .catch((error) => {
      console.error(`✖ ${name}: ${error.message}`);
      if (error.serverLog) console.error(`--- server log ---\n${error.serverLog.slice(-6000)}`);
      else if (error.stack) console.error(error.stack);
      process.exit(1);
    });
}
