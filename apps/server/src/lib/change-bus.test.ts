import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScratchPostgresDatabase, wantsPostgres } from '../test/test-database';
import {
  createMemoryChangeBus,
  createPostgresChangeBus,
  type PostgresChangeBus,
} from './change-bus';

// Test helpers may read process.env directly (the app reads it only in config/env.ts).
const baseUrl = process.env.TEST_DATABASE_URL;

describe('in-process change bus', () => {
  it('calls the subscribers of the topic, once each, and no others', async () => {
    const bus = createMemoryChangeBus();
    const flags = vi.fn();
    const faqs = vi.fn();
    const stop = bus.subscribe('flags', flags);
    bus.subscribe('education.faqs', faqs);
    await bus.publish('flags');
    expect(flags).toHaveBeenCalledTimes(1);
    expect(faqs).not.toHaveBeenCalled();
    stop();
    await bus.publish('flags');
    expect(flags).toHaveBeenCalledTimes(1);
  });

  it('refuses topics that are not short names', () => {
    const bus = createMemoryChangeBus();
    expect(() => bus.subscribe('Flags; drop table', () => {})).toThrow(/invalid change topic/);
  });
});

const until = async (condition: () => boolean, ms = 3000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
};

describe.skipIf(!wantsPostgres() || !baseUrl)('LISTEN/NOTIFY change bus (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  const buses: PostgresChangeBus[] = [];
  const open = async () => {
    const bus = createPostgresChangeBus({ connectionString: scratch.url, reconnectDelayMs: 50 });
    await bus.start();
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(baseUrl!);
  });
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await scratch?.drop();
  });

  it('tells the other instance within a second, and the publisher once', async () => {
    const [a, b] = [await open(), await open()];
    const seenByA = vi.fn();
    const seenByB = vi.fn();
    a.subscribe('flags', seenByA);
    b.subscribe('flags', seenByB);
    await a.publish('flags');
    expect(seenByA).toHaveBeenCalledTimes(1);
    const ms = await until(() => seenByB.mock.calls.length === 1);
    expect(ms).toBeLessThan(1000);
    // Its own NOTIFY coming back is not a second change for the publisher.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seenByA).toHaveBeenCalledTimes(1);
    expect(seenByB).toHaveBeenCalledTimes(1);
  });

  it('holds one connection per instance, and after losing it reconnects and treats everything as changed', async () => {
    const bus = await open();
    const other = await open();
    const seen = vi.fn();
    bus.subscribe('education.faqs', seen);
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      const listeners = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database()
           and application_name like 'bdms-changes-%'`,
      );
      expect(listeners.rows).toHaveLength(buses.length);
      // Kill every listening connection: as a PostgreSQL restart or a network cut would.
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name like 'bdms-changes-%'`,
      );
      await until(() => seen.mock.calls.length >= 1);
      await until(() => bus.isListening() && other.isListening());
      seen.mockClear();
      await other.publish('education.faqs');
      await until(() => seen.mock.calls.length === 1);
    } finally {
      await admin.end();
    }
  });
});
