import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRows } from '../../db/client';
import { isDatabaseUnavailable } from '../../lib/db-errors';
import { mapError } from '../../plugins/error-handler';
import { requestBody } from '../blood-request-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../test-database';

/**
 * Issue #9, "Faults": PostgreSQL dropping the server's connections (a restart, a failover, an
 * administrator's pg_terminate_backend). scripts/faults/postgres-restart.mjs restarts a real
 * cluster under load where that is safe; this test drops connections the same way (SQLSTATE
 * 57P01) on every PostgreSQL run. The process must not crash (a client held by a transaction
 * used to emit an unhandled 'error'), the request gets 503 with Retry-After, and the pool
 * reconnects by itself.
 */
describe('what a lost database connection becomes', () => {
  it.each([
    ['57P01 admin shutdown', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      '57P03 starting up',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['08006 connection failure', Object.assign(new Error('connection failure'), { code: '08006' })],
    [
      'a refused socket, wrapped by drizzle',
      Object.assign(new Error('Failed query: select 1'), {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
          code: 'ECONNREFUSED',
        }),
      }),
    ],
    ['node-postgres losing the socket', new Error('Connection terminated unexpectedly')],
  ])(
    '%s is 503 SERVICE_UNAVAILABLE with Retry-After, without the driver’s words',
    (_name, error) => {
      expect(isDatabaseUnavailable(error)).toBe(true);
      const mapped = mapError(error);
      expect(mapped).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(mapped.headers?.['retry-after'])).toBeGreaterThan(0);
      expect(mapped.message).not.toMatch(/ECONN|terminat|57P|select/i);
    },
  );

  it('leaves other failures a 500', () => {
    const error = Object.assign(new Error('relation "x" does not exist'), { code: '42P01' });
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(mapError(error).status).toBe(500);
  });
});

describe.skipIf(!wantsPostgres())('PostgreSQL terminating the server’s connections', () => {
  let testDb: TestDatabase;
  let subject: TestApp;
  let admin: pg.Client;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    subject = await createTestApp({
      database: testDb.database,
      services: { backgroundJobs: false },
    });
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await subject?.close();
    await testDb?.close();
  });

  const terminate = (pid: number) => admin.query('select pg_terminate_backend($1)', [pid]);
  /** Cuts every connection the server's pool holds to its database. */
  const terminateAll = async () => {
    const [row] = await executeRows<{ name: string }>(
      testDb.database.db,
      sql`select current_database() as name`,
    );
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [row!.name],
    );
  };

  it('survives a connection killed inside a transaction, between two queries', async () => {
    let reportPid!: (pid: number) => void;
    const pid = new Promise<number>((resolve) => (reportPid = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const transaction = testDb.database.db.transaction(async (tx) => {
      const [row] = await executeRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
      reportPid(row!.pid);
      await gate;
      await tx.execute(sql`select 1`);
    });
    await terminate(await pid);
    // The termination reaches the held, idle client now: without a listener it would throw.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await expect(transaction).rejects.toThrow();

    const ready = await subject.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
  });

  it('serves requests again after every connection was cut, without a restart', async () => {
    // Warm the pool, then cut every connection it has (idle ones emit on the pool).
    await Promise.all(Array.from({ length: 4 }, () => subject.app.inject({ url: '/readyz' })));
    await terminateAll();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const create = () =>
      subject.app.inject({
        method: 'POST',
        url: '/api/v1/blood-requests',
        payload: requestBody(),
        remoteAddress: '198.51.100.250',
      });
    const after = await create();
    expect(after.statusCode, after.body).toBe(201);
  });
});
