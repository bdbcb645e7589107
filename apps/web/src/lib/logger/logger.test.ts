import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_LOG_LIMITS, LOGGING, PWA_STORAGE_KEYS, type ClientLogBatch } from '@bdms/shared';
import { createLogger, type LogTransport, type SendResult } from './logger';

function memory() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

function transport(results: SendResult[] = []) {
  const batches: ClientLogBatch[] = [];
  const send = vi.fn(async (batch: ClientLogBatch) => {
    batches.push(batch);
    return results.shift() ?? 'sent';
  });
  return { transport: { send } satisfies LogTransport, batches, send };
}

describe('the client logger', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-05-01T10:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('keeps the last 1000 entries in memory, debug included', () => {
    const { transport: sender } = transport();
    const logger = createLogger({ transport: sender });
    for (let index = 0; index < LOGGING.bufferSize + 5; index++) logger.debug(`entry ${index}`);
    const buffer = logger.getBuffer();
    expect(buffer).toHaveLength(LOGGING.bufferSize);
    expect(buffer[0]?.message).toBe('entry 5');
    expect(buffer.at(-1)?.message).toBe(`entry ${LOGGING.bufferSize + 4}`);
    // Debug entries are never sent.
    expect(logger.getPending()).toHaveLength(0);
  });

  it('splits what waits into reports under the server size cap', async () => {
    const { transport: sender, batches } = transport();
    const logger = createLogger({ transport: sender });
    // 40 errors with long stacks: about 8 KB each, 320 KB in all.
    for (let index = 0; index < 40; index++) {
      logger.error(`error ${index}`, { stack: 'x'.repeat(CLIENT_LOG_LIMITS.stackMax) });
    }
    await logger.flush();
    expect(batches.length).toBeGreaterThan(4);
    for (const batch of batches) {
      expect(new TextEncoder().encode(JSON.stringify(batch)).length).toBeLessThanOrEqual(
        CLIENT_LOG_LIMITS.bodyMaxBytes,
      );
    }
    expect(batches.flatMap((batch) => batch.entries)).toHaveLength(40);
  });

  it('stores at most 100 entries waiting to be sent, the newest', () => {
    const storage = memory();
    const { transport: sender } = transport();
    const logger = createLogger({ transport: sender, storage });
    for (let index = 0; index < LOGGING.storedLogsMax + 20; index++)
      logger.warn(`warning ${index}`);
    const stored = JSON.parse(storage.data.get(PWA_STORAGE_KEYS.clientLogs)!) as {
      message: string;
    }[];
    expect(stored).toHaveLength(LOGGING.storedLogsMax);
    expect(stored[0]?.message).toBe('warning 20');
  });

  it('sends every 30 s in batches of at most 50, with the page path only', async () => {
    const storage = memory();
    const { transport: sender, batches } = transport();
    const logger = createLogger({
      transport: sender,
      storage,
      currentPath: () => '/reset-password?token=secret',
      sessionId: 'visit-1',
      clientVersion: '1.2.3',
    });
    logger.start();
    for (let index = 0; index < 60; index++) logger.error(`error ${index}`, { category: 'error' });
    await vi.advanceTimersByTimeAsync(LOGGING.flushIntervalMs - 1);
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches.map((batch) => batch.entries.length)).toEqual([
      CLIENT_LOG_LIMITS.maxEntries,
      10,
    ]);
    expect(batches[0]).toMatchObject({ sessionId: 'visit-1', clientVersion: '1.2.3' });
    expect(batches[0]?.entries[0]).toEqual({
      level: 'error',
      message: 'error 0',
      timestamp: '2026-05-01T10:00:00.000Z',
      category: 'error',
      url: '/reset-password',
    });
    expect(JSON.stringify(batches)).not.toContain('secret');
    expect(logger.getPending()).toHaveLength(0);
    expect(storage.data.has(PWA_STORAGE_KEYS.clientLogs)).toBe(false);
    logger.stop();
  });

  it('keeps entries it could not send for the next flush, even after a reload', async () => {
    const storage = memory();
    const first = transport(['retry']);
    const logger = createLogger({ transport: first.transport, storage });
    logger.start();
    logger.error('offline error');
    await vi.advanceTimersByTimeAsync(LOGGING.flushIntervalMs);
    expect(first.send).toHaveBeenCalledTimes(1);
    expect(logger.getPending()).toHaveLength(1);
    logger.stop();

    // The next visit sends it.
    const second = transport();
    const next = createLogger({ transport: second.transport, storage });
    next.start();
    expect(next.getPending().map((entry) => entry.message)).toEqual(['offline error']);
    await next.flush();
    expect(second.batches[0]?.entries.map((entry) => entry.message)).toEqual(['offline error']);
    expect(storage.data.has(PWA_STORAGE_KEYS.clientLogs)).toBe(false);
    next.stop();
  });

  it('drops a batch the server refused as invalid', async () => {
    const { transport: sender } = transport(['rejected']);
    const logger = createLogger({ transport: sender });
    logger.warn('bad');
    await logger.flush();
    expect(logger.getPending()).toHaveLength(0);
  });

  it('cuts entries to the server limits', () => {
    const { transport: sender } = transport();
    const logger = createLogger({ transport: sender });
    const entry = logger.error('x'.repeat(CLIENT_LOG_LIMITS.messageMax + 100), {
      stack: 'y'.repeat(CLIENT_LOG_LIMITS.stackMax + 100),
      context: { blob: 'z'.repeat(CLIENT_LOG_LIMITS.contextMaxBytes) },
    });
    expect(entry.message).toHaveLength(CLIENT_LOG_LIMITS.messageMax);
    expect(entry.stack).toHaveLength(CLIENT_LOG_LIMITS.stackMax);
    expect(entry.context).toEqual({ truncated: true });
  });

  it('sends one flush at a time', async () => {
    let finish: (result: SendResult) => void = () => {};
    const send = vi.fn(() => new Promise<SendResult>((resolve) => (finish = resolve)));
    const logger = createLogger({ transport: { send } });
    logger.error('one');
    const first = logger.flush();
    const second = logger.flush();
    expect(send).toHaveBeenCalledTimes(1);
    finish('sent');
    await Promise.all([first, second]);
    expect(logger.getPending()).toHaveLength(0);
  });
});
