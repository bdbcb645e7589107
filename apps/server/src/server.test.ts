import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config/env';
import { generateVapidKeys } from './config/secrets';
import { DataDirLockedError } from './db/data-dir-lock';
import { startServer, type RunningServer } from './server';
import { createScratchPostgresDatabase, wantsPostgres } from './test/test-database';

let dataDir: string;
let databaseEnv: Record<string, string> = {};
let dropDatabase = async () => {};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdms-server-'));
  if (wantsPostgres()) {
    const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL ?? '');
    // On PostgreSQL the shared secrets are required (issue #19).
    const vapid = generateVapidKeys();
    databaseEnv = {
      DATABASE_URL: scratch.url,
      JWT_SECRET: 'server-test-'.padEnd(40, 'x'),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    };
    dropDatabase = scratch.drop;
  }
});

afterAll(async () => {
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    ADMIN_EMAIL: 'admin@bdms.example',
    ADMIN_PASSWORD: 'admin password',
    ...databaseEnv,
    ...extra,
  };
}

async function start(extra: Record<string, string> = {}) {
  const lines: string[] = [];
  const server = await startServer(env(extra), { print: (line) => lines.push(line) });
  return { server, lines };
}

describe('startServer', () => {
  let server: RunningServer | undefined;

  afterAll(async () => {
    await server?.close();
  });

  it('migrates, listens and prints where', async () => {
    const started = await start({ FEATURE_FLAGS: 'bloodRequests' });
    server = started.server;
    expect(server.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(started.lines).toEqual([
      wantsPostgres()
        ? expect.stringMatching(/^Using PostgreSQL at postgres@127\.0\.0\.1:5432\/bdms_test_\w+$/)
        : `Using embedded PostgreSQL (PGlite) in ${path.join(dataDir, 'pgdata')}`,
      `Blood Donation Management System listening at ${server.address}`,
    ]);
    const health = await fetch(`${server.address}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ success: true, data: { status: 'ok' } });
    const ready = await fetch(`${server.address}/readyz`);
    expect(ready.status).toBe(200);
    const config = (await (await fetch(`${server.address}/api/v1/config`)).json()) as {
      data: { flags: Record<string, boolean> };
    };
    expect(config.data.flags.bloodRequests).toBe(true);
  });

  it('closes cleanly, and can be closed twice', async () => {
    const address = server!.address;
    await server!.close();
    await server!.close();
    server = undefined;
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
  });

  it('starts again on the same data, keeping the administrator and secrets', async () => {
    const secretsFile = path.join(dataDir, 'secrets.json');
    // On PostgreSQL the secrets come from the environment only: nothing is generated.
    if (wantsPostgres()) expect(fs.existsSync(secretsFile)).toBe(false);
    const secrets = wantsPostgres() ? null : fs.readFileSync(secretsFile, 'utf8');
    const started = await start();
    server = started.server;
    expect((await fetch(`${server.address}/readyz`)).status).toBe(200);
    if (secrets !== null) expect(fs.readFileSync(secretsFile, 'utf8')).toBe(secrets);
    const { users } = await import('./db/schema');
    const rows = await server.database.db.select().from(users);
    expect(rows.filter((row) => row.role === 'admin')).toHaveLength(1);
    const config = (await (await fetch(`${server.address}/api/v1/config`)).json()) as {
      data: { flags: Record<string, boolean> };
    };
    expect(config.data.flags.bloodRequests).toBe(false);
  });

  it.skipIf(wantsPostgres())('refuses a second server on the same embedded database', async () => {
    await expect(start()).rejects.toBeInstanceOf(DataDirLockedError);
    expect((await fetch(`${server!.address}/readyz`)).status).toBe(200);
  });

  it('refuses a bad environment with a ConfigError before touching the database', async () => {
    await expect(
      startServer(env({ PORT: 'x', LOG_LEVEL: 'loud' }), { print: () => {} }),
    ).rejects.toBeInstanceOf(ConfigError);
  });
});
