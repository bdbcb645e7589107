import pg from 'pg';
import { vi } from 'vitest';

/**
 * Runs `work` and returns its result with the text of every message node-postgres sent
 * meanwhile: what reaches the connections' own query method, under the app's wrappers
 * (db/merged-messages.ts, db/write-tracker.ts), so what goes on the wire.
 */
export async function onTheWire<T>(
  work: () => Promise<T>,
): Promise<{ result: T; texts: string[] }> {
  const texts: string[] = [];
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const first = args[0] as string | { text?: string } | undefined;
    texts.push(typeof first === 'string' ? first : String(first?.text));
    return original.apply(this, args) as never;
  });
  try {
    return { result: await work(), texts };
  } finally {
    spy.mockRestore();
  }
}
