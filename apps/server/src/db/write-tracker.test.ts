import { describe, expect, it } from 'vitest';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { rememberPrepared } from './prepared-texts';
import { cascadesOf, connectionTracker, createWriteTracker, writtenTables } from './write-tracker';

const tables = (statement: string) => {
  const written = writtenTables(statement);
  return written === null || written === 'all' ? written : [...written].sort();
};

describe('writtenTables', () => {
  it('finds no write in reads and transaction control', () => {
    for (const statement of [
      'select "id" from "users" where "id" = $1',
      '  SELECT 1',
      'with x as (select 1) select * from x',
      'begin',
      'commit',
      'rollback to savepoint sp1',
      'select pg_notify($1, $2)',
      'set local statement_timeout = 1000',
    ]) {
      expect(tables(statement), statement).toBeNull();
    }
  });

  it('names the tables Drizzle and hand-written statements write, CTEs included', () => {
    expect(tables('insert into "users" ("id") values ($1)')).toEqual(['users']);
    expect(tables('update "users" set "token_version" = $1')).toEqual(['users']);
    expect(tables('DELETE FROM notifications WHERE id = $1')).toEqual(['notifications']);
    expect(
      tables(
        'with moved as (update blood_request_matches m set response = $1 returning m.id) insert into activity_logs select * from moved',
      ),
    ).toEqual(['activity_logs', 'blood_request_matches']);
    // An upsert's DO UPDATE SET adds a harmless "set".
    expect(
      tables('insert into "usage_counters" values ($1) on conflict do update set n = 1'),
    ).toEqual(['set', 'usage_counters']);
    expect(tables('/* note */ -- line\n update "documents" set verified = true')).toEqual([
      'documents',
    ]);
  });

  it('reads an EXECUTE of a statement this process prepared as that statement', () => {
    rememberPrepared(
      'bdms_test_insert',
      'with a0 as (insert into "activity_log" values ($1)) insert into "blood_requests" values ($2)',
    );
    rememberPrepared('bdms_test_read', 'select "id" from "users" where "id" = $1');
    expect(tables("/* with next */ execute bdms_test_insert('a', 'b')")).toEqual([
      'activity_log',
      'blood_requests',
    ]);
    expect(tables("execute bdms_test_read('x')")).toBeNull();
    expect(writtenTables("execute someone_elses('x')")).toBe('all');
  });

  it('counts what it cannot attribute as a write to every table', () => {
    expect(writtenTables('create table x (id int)')).toBe('all');
    expect(writtenTables('alter table users add column x int')).toBe('all');
    expect(writtenTables('copy users from stdin')).toBe('all');
    expect(writtenTables('truncate table "users", "hospitals" cascade')).toBe('all');
    expect(writtenTables('do $$ begin perform 1; end $$')).toBe('all');
    expect(writtenTables('insert')).toBe('all');
  });
});

describe('createWriteTracker', () => {
  it('has no stamp while a write is under way and a new one after it', () => {
    const tracker = createWriteTracker();
    const before = tracker.stamp(['users', 'documents']);
    expect(before).not.toBeNull();
    tracker.began(new Set(['users']));
    expect(tracker.stamp(['users', 'documents'])).toBeNull();
    // Tables not written keep their stamp.
    expect(tracker.stamp(['documents'])).toBe(tracker.stamp(['documents']));
    tracker.ended(new Set(['users']));
    const after = tracker.stamp(['users', 'documents']);
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
  });

  it('leaves other tables cached when one is written', () => {
    const tracker = createWriteTracker();
    const documents = tracker.stamp(['documents']);
    tracker.began(new Set(['notifications']));
    tracker.ended(new Set(['notifications']));
    expect(tracker.stamp(['documents'])).toBe(documents);
  });

  it('a write it cannot attribute stops and changes every stamp', () => {
    const tracker = createWriteTracker();
    const before = tracker.stamp(['documents']);
    tracker.began('all');
    expect(tracker.stamp(['documents'])).toBeNull();
    tracker.ended('all');
    expect(tracker.stamp(['documents'])).not.toBe(before);
  });

  it('changes the stamp of a child table when its parent is written (ON DELETE CASCADE)', () => {
    const tracker = createWriteTracker(new Map([['users', new Set(['documents'])]]));
    const documents = tracker.stamp(['documents']);
    const written = tracker.expand(['users']);
    tracker.began(written);
    expect(tracker.stamp(['documents'])).toBeNull();
    tracker.ended(written);
    expect(tracker.stamp(['documents'])).not.toBe(documents);
  });

  it('returns every table to "not under way" after a transaction, whatever it wrote', async () => {
    const tracker = createWriteTracker(new Map([['users', new Set(['documents'])]]));
    const connection = connectionTracker(tracker);
    const send = async () => undefined;
    await connection.run('begin', send);
    await connection.run('update "users" set "name" = $1', send);
    // A child table written on its own after its parent cascaded into it.
    await connection.run('insert into "documents" values ($1)', send);
    expect(tracker.stamp(['users'])).toBeNull();
    expect(tracker.stamp(['documents'])).toBeNull();
    // Then something it cannot attribute.
    await connection.run('create temporary table x (id int)', send);
    expect(tracker.stamp(['notifications'])).toBeNull();
    await connection.run('commit', send);
    for (const table of ['users', 'documents', 'notifications']) {
      expect(tracker.stamp([table]), table).not.toBeNull();
    }
  });

  it('ends a transaction whose COMMIT failed, and one whose connection closed', async () => {
    const tracker = createWriteTracker();
    const connection = connectionTracker(tracker);
    const send = async () => undefined;
    await connection.run('begin', send);
    await connection.run('update "users" set "name" = $1', send);
    await expect(
      connection.run('commit', async () => {
        throw new Error('connection lost');
      }),
    ).rejects.toThrow();
    expect(tracker.stamp(['users'])).not.toBeNull();
    await connection.run('begin', send);
    await connection.run('delete from "users"', send);
    expect(tracker.stamp(['users'])).toBeNull();
    connection.closed();
    expect(tracker.stamp(['users'])).not.toBeNull();
  });

  it('applies changes heard from another instance and tells listeners of its own', () => {
    const tracker = createWriteTracker();
    const heard: unknown[] = [];
    tracker.onWritten((written) => heard.push(written === 'all' ? 'all' : [...written]));
    const users = tracker.stamp(['users']);
    tracker.changed(['users']);
    expect(tracker.stamp(['users'])).not.toBe(users);
    const again = tracker.stamp(['users']);
    tracker.changed('all');
    expect(tracker.stamp(['users'])).not.toBe(again);
    expect(heard).toEqual([]);
    tracker.began(new Set(['users']));
    tracker.ended(new Set(['users']));
    expect(heard).toEqual([['users']]);
  });
});

describe('cascadesOf', () => {
  it("reads the schema's foreign keys: deleting a user changes their documents and donations", () => {
    const cascades = cascadesOf(
      (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)),
    );
    expect(cascades.get('users')).toBeDefined();
    expect([...(cascades.get('users') ?? [])]).toEqual(expect.arrayContaining(['documents']));
  });
});
