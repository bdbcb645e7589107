import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lockKeyForTransaction } from '../lib/advisory-lock';
import { onTheWire } from '../test/pg-wire';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../test/test-database';
import { mergeMessages, WITH_NEXT } from './merged-messages';
import { featureFlags } from './schema';

describe('mergeMessages (the connection as a fake)', () => {
  function connection(reply: (args: unknown[]) => unknown = () => ({ rows: [] })) {
    const sent: unknown[][] = [];
    const query = mergeMessages((...args) => {
      sent.push(args);
      return Promise.resolve(reply(args));
    });
    return { sent, query };
  }

  it('sends BEGIN with the first statement that has no parameters, and returns that statement’s result', async () => {
    const { sent, query } = connection((args) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      return text.startsWith('begin;')
        ? [
            { command: 'BEGIN', rows: [] },
            { command: 'SELECT', rows: [{ locked: true }] },
          ]
        : { command: 'COMMIT', rows: [] };
    });
    expect(await query('begin')).toMatchObject({ command: 'BEGIN' });
    expect(sent).toEqual([]);
    const result = await query({ text: 'select 1 as locked', types: 't' }, []);
    expect(result).toEqual({ command: 'SELECT', rows: [{ locked: true }] });
    await query('commit');
    expect(sent).toEqual([
      [{ text: 'begin; select 1 as locked', types: 't', values: undefined }],
      ['commit'],
    ]);
  });

  it('sends BEGIN on its own, ahead, before a statement with parameters or a name', async () => {
    const { sent, query } = connection();
    await query('begin');
    await query('select $1::int', [1]);
    await query('commit');
    await query('begin');
    await query({ name: 'n', text: 'select 2' });
    expect(sent).toEqual([
      ['begin'],
      ['select $1::int', [1]],
      ['commit'],
      ['begin'],
      [{ name: 'n', text: 'select 2' }],
    ]);
  });

  it('sends nothing for a transaction that sent nothing', async () => {
    const { sent, query } = connection();
    await query('begin');
    await query('rollback');
    await query('BEGIN');
    await query('commit;');
    expect(sent).toEqual([]);
  });

  it('passes everything outside a transaction straight through', async () => {
    const { sent, query } = connection();
    await query('select 1');
    await query('select $1', ['x']);
    expect(sent).toEqual([['select 1'], ['select $1', ['x']]]);
  });
});

describe('a statement held for the next one (WITH_NEXT, the connection as a fake)', () => {
  function connection(fail?: RegExp) {
    const sent: unknown[] = [];
    const query = mergeMessages((...args) => {
      sent.push(args.length === 1 ? args[0] : args);
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if (fail?.test(text)) return Promise.reject(new Error(`refused: ${text}`));
      const count = text.split('; ').length;
      const results = Array.from({ length: count }, (_, i) => ({ command: `R${i}`, rows: [i] }));
      return Promise.resolve(count === 1 ? results[0] : results);
    });
    return { sent, query };
  }

  it('goes in front of the next statement, whose own result is returned', async () => {
    const { sent, query } = connection();
    await query('begin');
    await query('select 1');
    expect(await query(`${WITH_NEXT}execute w(1)`)).toMatchObject({ command: 'HELD', rows: [] });
    expect(await query({ text: 'select 2', rowMode: 'array' }, [])).toEqual({
      command: 'R1',
      rows: [1],
    });
    await query('commit');
    expect(sent).toEqual([
      'begin; select 1',
      { text: 'execute w(1); select 2', rowMode: 'array', values: undefined },
      'commit',
    ]);
  });

  it('goes with the COMMIT, and with the BEGIN when nothing was sent before it', async () => {
    const { sent, query } = connection();
    await query('begin');
    await query(`${WITH_NEXT}execute w(1)`);
    await query(`${WITH_NEXT}execute w(2)`);
    expect(await query('commit')).toMatchObject({ command: 'R3' });
    expect(sent).toEqual(['begin; execute w(1); execute w(2); commit']);
  });

  it('goes alone, first, before a statement with parameters', async () => {
    const { sent, query } = connection();
    await query('begin');
    await query('select 1');
    await query(`${WITH_NEXT}execute w(1)`);
    await query('select $1', [2]);
    await query('commit');
    expect(sent).toEqual(['begin; select 1', 'execute w(1)', ['select $1', [2]], 'commit']);
  });

  it('is dropped unsent by a ROLLBACK', async () => {
    const { sent, query } = connection();
    await query('begin');
    await query('select 1');
    await query(`${WITH_NEXT}execute w(1)`);
    await query('rollback');
    await query('begin');
    await query(`${WITH_NEXT}execute w(2)`);
    await query('rollback');
    expect(sent).toEqual(['begin; select 1', 'rollback']);
  });

  it('goes at once outside a transaction, without its mark', async () => {
    const { sent, query } = connection();
    await query(`${WITH_NEXT}execute w(1)`);
    expect(sent).toEqual(['execute w(1)']);
  });

  it('fails the statement it goes with', async () => {
    const { query } = connection(/execute w/);
    await query('begin');
    await query('select 1');
    await query(`${WITH_NEXT}execute w(1)`);
    await expect(query('commit')).rejects.toThrow('refused: execute w(1); commit');
  });
});

describe.runIf(wantsPostgres())('merged messages on PostgreSQL', () => {
  let testDb: TestDatabase;
  const db = () => testDb.database.db;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  beforeEach(async () => {
    await testDb.truncate();
  });
  afterAll(async () => {
    await testDb?.close();
  });

  it('a locked transaction opens in one message, and its lock holds other transactions until it ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first!: Promise<void>;
    const { texts } = await onTheWire(async () => {
      first = db().transaction(async (tx) => {
        await lockKeyForTransaction(tx, 'test', "it's a key");
        await tx
          .insert(featureFlags)
          .values({ key: 'deferred-begin', enabled: true, source: 'admin' });
        await held;
      });
      // Until it is let go, a second transaction on the same key waits for the lock.
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    expect(texts[0]).toMatch(
      /^begin; select pg_advisory_xact_lock\(hashtextextended\('test:it''s a key', 0\)\)$/,
    );
    expect(texts).toHaveLength(2);
    const order: string[] = [];
    const second = db().transaction(async (tx) => {
      await lockKeyForTransaction(tx, 'test', "it's a key");
      const [row] = await tx
        .select()
        .from(featureFlags)
        .where(eq(featureFlags.key, 'deferred-begin'));
      order.push(`second saw ${row ? 'the flag' : 'nothing'}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    order.push('first ends');
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first ends', 'second saw the flag']);
  });

  it('a failing first statement rolls back, and the connection serves the next transaction', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql.raw('select no_such_column'));
      }),
    ).rejects.toThrow(/no_such_column/);
    const pool = (testDb.database as { pool: pg.Pool }).pool;
    const clients = pool.totalCount;
    for (let i = 0; i < clients + 1; i += 1) {
      await db().transaction(async (tx) => {
        await lockKeyForTransaction(tx, 'test', String(i));
        await tx
          .insert(featureFlags)
          .values({ key: `after-${i}`, enabled: false, source: 'admin' });
      });
    }
    const rows = await db().select().from(featureFlags);
    expect(rows.map((row) => row.key).filter((key) => key.startsWith('after-'))).toHaveLength(
      clients + 1,
    );
  });

  it('an empty transaction sends nothing', async () => {
    const { texts } = await onTheWire(() => db().transaction(async () => {}));
    expect(texts).toEqual([]);
  });
});
