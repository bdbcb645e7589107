import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { activityLog, users } from '../../db/schema';
import { verifyPassword } from '../../lib/password';
import { createTestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { bootstrapAdmin } from './bootstrap-admin';

let testDb: TestDatabase;
const ADMIN = { email: 'root@bdms.example', password: 'correct horse battery' };

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const admins = () => testDb.database.db.select().from(users).where(eq(users.role, 'admin'));

describe('bootstrapAdmin', () => {
  it('creates one approved administrator with a hashed password, and logs it', async () => {
    const logger = { info: vi.fn(), warn: vi.fn() };
    expect(await bootstrapAdmin(testDb.database.db, ADMIN, logger)).toBe('created');
    const rows = await admins();
    expect(rows).toHaveLength(1);
    const [admin] = rows;
    expect(admin).toMatchObject({
      email: ADMIN.email,
      role: 'admin',
      status: 'approved',
      fullName: 'Administrator',
    });
    expect(admin!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin!.passwordHash, ADMIN.password)).toBe(true);
    expect(logger.info).toHaveBeenCalledWith(`Created administrator ${ADMIN.email}`);
    const entries = await testDb.database.db.select().from(activityLog);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'admin.bootstrap',
      targetType: 'user',
      targetId: admin!.id,
    });
  });

  it('is idempotent, also with another address once an administrator exists', async () => {
    await bootstrapAdmin(testDb.database.db, ADMIN);
    expect(await bootstrapAdmin(testDb.database.db, ADMIN)).toBe('exists');
    expect(
      await bootstrapAdmin(testDb.database.db, {
        email: 'second@bdms.example',
        password: 'another password',
      }),
    ).toBe('exists');
    expect(await admins()).toHaveLength(1);
    expect(await testDb.database.db.select().from(activityLog)).toHaveLength(1);
  });

  it('creates only one administrator when two starts race', async () => {
    const results = await Promise.all([
      bootstrapAdmin(testDb.database.db, ADMIN),
      bootstrapAdmin(testDb.database.db, {
        email: 'other@bdms.example',
        password: 'other password',
      }),
    ]);
    expect(results.filter((result) => result === 'created')).toHaveLength(1);
    expect(await admins()).toHaveLength(1);
  });

  it('does nothing without ADMIN_EMAIL/ADMIN_PASSWORD', async () => {
    expect(await bootstrapAdmin(testDb.database.db, null)).toBe('disabled');
    expect(await admins()).toHaveLength(0);
  });

  it('leaves an existing non-admin account with that address untouched', async () => {
    await testDb.database.db.insert(users).values({
      email: ADMIN.email,
      passwordHash: 'donor-hash',
      role: 'donor',
      fullName: 'A Donor',
    });
    const logger = { info: vi.fn(), warn: vi.fn() };
    expect(await bootstrapAdmin(testDb.database.db, ADMIN, logger)).toBe('email-taken');
    expect(await admins()).toHaveLength(0);
    expect(logger.warn).toHaveBeenCalledOnce();
    const [donor] = await testDb.database.db.select().from(users);
    expect(donor).toMatchObject({ role: 'donor', passwordHash: 'donor-hash' });
  });

  it('runs at start from ADMIN_EMAIL/ADMIN_PASSWORD, storing the address lower-cased', async () => {
    const first = await createTestApp({
      env: { ADMIN_EMAIL: 'Root@BDMS.example', ADMIN_PASSWORD: ADMIN.password },
      database: testDb.database,
    });
    await first.close();
    const second = await createTestApp({
      env: { ADMIN_EMAIL: 'Root@BDMS.example', ADMIN_PASSWORD: ADMIN.password },
      database: testDb.database,
    });
    await second.close();
    const rows = await admins();
    expect(rows.map((row) => row.email)).toEqual(['root@bdms.example']);
  });
});
