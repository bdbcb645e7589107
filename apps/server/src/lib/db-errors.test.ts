import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { loggerOptions } from '../plugins/logger';
import { createTestApp, type TestApp } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { safeErrorMessage } from './db-errors';
import { createPeriodicJob } from './periodic-job';

// #32 item 18: a failed statement's message ("Failed query: … params: …") and the driver's
// `detail` ("Key (email)=(…) already exists") carry the values; log lines keep only the SQLSTATE
// and a fingerprint of the statement.
const EMAIL = 'leak.me@example.org';
const PHONE = '+919812345678';

let testDb: TestDatabase;
let duplicate: unknown;

function capture() {
  const lines: string[] = [];
  const logger = pino(loggerOptions({ logLevel: 'info' }), {
    write: (line: string) => void lines.push(line),
  });
  return { lines, logger };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  const db = testDb.database.db;
  const row = {
    email: EMAIL,
    passwordHash: 'x',
    role: 'donor' as const,
    fullName: 'Leak Test',
    phone: PHONE,
  };
  await db.insert(users).values(row);
  duplicate = await db
    .insert(users)
    .values(row)
    .then(() => null)
    .catch((error: unknown) => error);
});

afterAll(async () => {
  await testDb?.close();
});

describe('logging a failed statement', () => {
  it('the failure really carries the values (the premise of the test)', () => {
    expect(duplicate).toBeInstanceOf(Error);
    expect(String((duplicate as Error).message)).toContain(EMAIL);
  });

  it('logs the SQLSTATE and a statement fingerprint, never the e-mail address or phone', () => {
    const { lines, logger } = capture();
    logger.error({ err: duplicate }, 'something failed');
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).not.toContain(EMAIL);
    expect(line).not.toContain(PHONE);
    expect(line).not.toContain('leak.me');
    const entry = JSON.parse(line) as { err: Record<string, string> };
    expect(entry.err.sqlState).toBe('23505');
    expect(entry.err.statement).toMatch(/^[0-9a-f]{12}$/);
    expect(entry.err.verb).toBe('insert');
    expect(entry.err.table).toBe('users');
    expect(entry.err.stack).toMatch(/^\s+at /);
  });

  it('keeps the values out of a periodic job failure', async () => {
    const { lines, logger } = capture();
    const job = createPeriodicJob({
      name: 'leaky job',
      intervalMs: 60_000,
      runOnce: () => Promise.reject(duplicate as Error),
      logger,
    });
    job.start();
    await job.stop();
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(EMAIL);
    expect(lines[0]).toContain('"sqlState":"23505"');
    expect(lines[0]).toContain('leaky job failed');
  });

  it('keeps the values out of an error wrapping the failed statement', () => {
    const { lines, logger } = capture();
    logger.warn({ err: new Error('wrapper', { cause: duplicate }) }, 'wrapped');
    expect(lines[0]).not.toContain(EMAIL);
    expect(lines[0]).toContain('"sqlState":"23505"');
  });

  it('gives a stored failure reason without the values', () => {
    const reason = safeErrorMessage(duplicate);
    expect(reason).toMatch(
      /^database statement failed \(SQLSTATE 23505, statement [0-9a-f]{12}\)$/,
    );
    expect(safeErrorMessage(new Error('SMTP 550 mailbox unavailable'))).toBe(
      'SMTP 550 mailbox unavailable',
    );
  });

  it('logs a request that fails on a statement with the SQLSTATE and without the values', async () => {
    const { lines, logger } = capture();
    let subject: TestApp | undefined;
    try {
      subject = await createTestApp({
        database: testDb.database,
        logger,
        extraRoutes: (app) => {
          app.get('/api/v1/test/failed-statement', async () => {
            throw duplicate;
          });
        },
      });
      const res = await subject.app.inject({ url: '/api/v1/test/failed-statement' });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain(EMAIL);
      const failed = lines.filter((line) => line.includes('request failed'));
      expect(failed).toHaveLength(1);
      expect(failed[0]).not.toContain(EMAIL);
      expect(failed[0]).not.toContain(PHONE);
      expect(failed[0]).toContain('"sqlState":"23505"');
      expect(lines.join('\n')).not.toContain(EMAIL);
    } finally {
      await subject?.close();
    }
  });
});
