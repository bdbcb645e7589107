import type { Db } from '../db/client';
import { isTransaction } from './query-all';

const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * `load()` once per transaction and key: a later read of the same key in the same transaction
 * gets the first answer without a statement (issue #20: the notifier read the same settings row
 * and flag once per recipient). Only a transaction is remembered, and only for its own life
 * (a WeakMap on the transaction object); on the pool every call loads, so one process never
 * keeps a value another one has changed.
 */
export function oncePerTransaction<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  if (!isTransaction(db)) return load();
  let memo = memos.get(db);
  if (!memo) {
    memo = new Map();
    memos.set(db, memo);
  }
  const known = memo.get(key) as Promise<T> | undefined;
  if (known) return known;
  const loading = load();
  memo.set(key, loading);
  return loading;
}
