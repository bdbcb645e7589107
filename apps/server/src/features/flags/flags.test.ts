import { FEATURE_FLAG_DEFAULTS } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { activityLog, featureFlags, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { serverVersion } from '../../lib/paths';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { CONFIG_RATE_LIMIT } from './flags.routes';
import { createFlagsService, mergeFlags } from './flags.service';

let testDb: TestDatabase;
const opened: TestApp[] = [];

async function start(env: Record<string, string> = {}): Promise<TestApp> {
  const testApp = await createTestApp({ env, database: testDb.database });
  opened.push(testApp);
  return testApp;
}

async function getConfig(testApp: TestApp, headers: Record<string, string> = {}) {
  return testApp.app.inject({ url: '/api/v1/config', headers });
}

async function insertAdmin(): Promise<string> {
  const [row] = await testDb.database.db
    .insert(users)
    .values({
      email: 'admin@example.org',
      passwordHash: 'x',
      role: 'admin',
      status: 'approved',
      fullName: 'Admin',
    })
    .returning({ id: users.id });
  return row!.id;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((testApp) => testApp.close()));
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

describe('GET /api/v1/config', () => {
  it('answers the product spec defaults with the app name, version, support address and push key', async () => {
    const res = await getConfig(await start());
    expect(res.statusCode).toBe(200);
    const { success, data } = res.json();
    expect(success).toBe(true);
    expect(data.appName).toBe('Blood Donation Management System');
    expect(data.version).toBe(serverVersion());
    expect(data.flags).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(data.flags.donorRegistration).toBe(true);
    expect(data.flags.pwaSupport).toBe(true);
    expect(data.flags.bloodRequests).toBe(false);
    expect(data.flags.adminPanel).toBe(false);
    expect(data.supportEmail).toBe('support@blooddonation.example');
    expect(Buffer.from(data.vapidPublicKey, 'base64url')).toHaveLength(65);
  });

  it('reflects SUPPORT_EMAIL and VAPID_PUBLIC_KEY from the environment', async () => {
    const keys = (await import('../../config/secrets')).generateVapidKeys();
    const res = await getConfig(
      await start({
        SUPPORT_EMAIL: 'help@bdms.example',
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
      }),
    );
    expect(res.json().data.supportEmail).toBe('help@bdms.example');
    expect(res.json().data.vapidPublicKey).toBe(keys.publicKey);
  });

  it('lets clients revalidate cheaply with an ETag', async () => {
    const testApp = await start();
    const first = await getConfig(testApp);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await getConfig(testApp, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await getConfig(testApp, { 'if-none-match': 'W/"something-else"' });
    expect(stale.statusCode).toBe(200);
  });

  it('documents and applies a limit of 300 requests per minute per address', async () => {
    const testApp = await start();
    const res = await getConfig(testApp);
    expect(CONFIG_RATE_LIMIT.max).toBe(300);
    expect(res.headers['x-ratelimit-limit']).toBe('300');
    for (let i = 1; i < 300; i += 1)
      await testApp.app.inject({ url: '/api/v1/config', remoteAddress: '198.51.100.1' });
    const last = await testApp.app.inject({ url: '/api/v1/config', remoteAddress: '198.51.100.1' });
    expect(last.statusCode).toBe(200);
    const over = await testApp.app.inject({ url: '/api/v1/config', remoteAddress: '198.51.100.1' });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.json().error.code).toBe('RATE_LIMITED');
  });
});

describe('FEATURE_FLAGS', () => {
  it('turns flags on and off at start', async () => {
    const res = await getConfig(await start({ FEATURE_FLAGS: 'bloodRequests,-pwaSupport' }));
    const { flags } = res.json().data;
    expect(flags.bloodRequests).toBe(true);
    expect(flags.pwaSupport).toBe(false);
    expect(flags.donorRegistration).toBe(true);
    const rows = await testDb.database.db.select().from(featureFlags);
    expect(
      rows
        .map(({ key, enabled, source }) => ({ key, enabled, source }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    ).toEqual([
      { key: 'bloodRequests', enabled: true, source: 'env' },
      { key: 'pwaSupport', enabled: false, source: 'env' },
    ]);
  });

  it('forgets an override once FEATURE_FLAGS no longer names it', async () => {
    await start({ FEATURE_FLAGS: 'bloodRequests,emergencyServices' });
    const res = await getConfig(await start({ FEATURE_FLAGS: 'emergencyServices' }));
    expect(res.json().data.flags.bloodRequests).toBe(false);
    expect(res.json().data.flags.emergencyServices).toBe(true);
  });

  it('sets the starting value only: an administrator decision wins at the next start, and is logged', async () => {
    const adminId = await insertAdmin();
    const first = await start({ FEATURE_FLAGS: 'emergencyServices' });
    await first.app.services.flags.setFlags({ bloodRequests: true, adminPanel: true }, adminId);
    const warnings: string[] = [];
    const kept = await first.app.services.flags.applyEnvOverrides(
      { bloodRequests: false, emergencyServices: true, pwaSupport: false },
      { warn: (_details, message) => warnings.push(message) },
    );
    expect(kept).toEqual(['bloodRequests']);
    expect(warnings).toEqual([
      "FEATURE_FLAGS sets bloodRequests to false, but an administrator set it to true; the administrator's decision is kept",
    ]);
    const res = await getConfig(await start({ FEATURE_FLAGS: '-bloodRequests,-pwaSupport' }));
    expect(res.json().data.flags).toMatchObject({
      bloodRequests: true,
      adminPanel: true,
      pwaSupport: false,
      emergencyServices: false,
    });
    const rows = await testDb.database.db.select().from(featureFlags);
    expect(
      rows
        .map(({ key, enabled, source }) => ({ key, enabled, source }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    ).toEqual([
      { key: 'adminPanel', enabled: true, source: 'admin' },
      { key: 'bloodRequests', enabled: true, source: 'admin' },
      { key: 'pwaSupport', enabled: false, source: 'env' },
    ]);
  });
});

describe('flags service: setFlags', () => {
  it('changes flags at run time, visible at once in /api/v1/config', async () => {
    const adminId = await insertAdmin();
    const testApp = await start();
    const before = await getConfig(testApp);
    expect(before.json().data.flags.bloodRequests).toBe(false);

    const flags = await testApp.app.services.flags.setFlags(
      { bloodRequests: true, pwaSupport: false },
      adminId,
      {
        actorRole: 'admin',
        requestId: 'req-flags-1',
      },
    );
    expect(flags.bloodRequests).toBe(true);

    const after = await getConfig(testApp, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.json().data.flags.bloodRequests).toBe(true);
    expect(after.json().data.flags.pwaSupport).toBe(false);

    const [row] = await testDb.database.db
      .select()
      .from(featureFlags)
      .where(eq(featureFlags.key, 'bloodRequests'));
    expect(row).toMatchObject({ enabled: true, source: 'admin', updatedBy: adminId });
  });

  it('records flags.updated in the activity log with the changes', async () => {
    const adminId = await insertAdmin();
    const testApp = await start();
    await testApp.app.services.flags.setFlags({ bloodRequests: true }, adminId, {
      actorRole: 'admin',
      requestId: 'req-9',
    });
    const entries = await testDb.database.db.select().from(activityLog);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'flags.updated',
      actorId: adminId,
      actorRole: 'admin',
      targetType: 'feature_flags',
      targetId: 'bloodRequests',
      requestId: 'req-9',
      details: { changes: { bloodRequests: true }, previous: { bloodRequests: false } },
    });
  });

  it('rejects unknown flags with VALIDATION_ERROR and changes nothing', async () => {
    const testApp = await start();
    const attempt = testApp.app.services.flags.setFlags(
      { bloodRequests: true, noSuchFlag: true } as never,
      null,
    );
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.noSuchFlag', message: 'Unknown field' }],
    });
    expect(await testDb.database.db.select().from(featureFlags)).toHaveLength(0);
    expect(await testDb.database.db.select().from(activityLog)).toHaveLength(0);
  });

  it('writes nothing for an empty change', async () => {
    const testApp = await start();
    await testApp.app.services.flags.setFlags({}, null);
    expect(await testDb.database.db.select().from(activityLog)).toHaveLength(0);
  });
});

describe('flags service: cache', () => {
  function fakeRepository(rows: { key: string; enabled: boolean }[]) {
    return {
      listAll: vi.fn(async () =>
        rows.map((row) => ({
          ...row,
          updatedAt: new Date(),
          updatedBy: null,
          source: 'admin' as const,
        })),
      ),
      upsertMany: vi.fn(async () => {}),
      deleteEnvRowsExcept: vi.fn(async () => {}),
    };
  }

  it('reads the table once, until the cache expires', async () => {
    let now = 0;
    const flags = fakeRepository([{ key: 'bloodRequests', enabled: true }]);
    const service = createFlagsService({
      flags,
      withTransaction: async () => undefined as never,
      cacheTtlMs: 1000,
      now: () => now,
    });
    expect((await service.getFlags()).bloodRequests).toBe(true);
    await service.getFlags();
    expect(flags.listAll).toHaveBeenCalledTimes(1);
    now = 1000;
    await service.getFlags();
    expect(flags.listAll).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed read', async () => {
    const flags = fakeRepository([]);
    flags.listAll.mockRejectedValueOnce(new Error('database down'));
    const service = createFlagsService({ flags, withTransaction: async () => undefined as never });
    await expect(service.getFlags()).rejects.toThrow('database down');
    expect(await service.getFlags()).toEqual(FEATURE_FLAG_DEFAULTS);
  });

  it('ignores rows for flags the code no longer knows', () => {
    expect(mergeFlags([{ key: 'retiredFlag', enabled: true }])).toEqual(FEATURE_FLAG_DEFAULTS);
  });
});
