import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRELOAD } from '@bdms/shared';
import { createIdleScheduler, createPreloadQueue } from './preload-queue';

describe('the preload queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function task(name: string, log: string[]) {
    return vi.fn(async () => {
      log.push(`${name}@${Date.now()}`);
    });
  }

  it('runs the highest priority first, at most 3 per idle run, 100 ms apart', async () => {
    vi.setSystemTime(0);
    const log: string[] = [];
    const queue = createPreloadQueue();
    const home = task('home', log);
    const login = task('login', log);
    const emergency = task('emergency', log);
    const related = task('related', log);
    const hovered = task('hovered', log);
    queue.enqueue(home, PRELOAD.priority.home);
    queue.enqueue(login, PRELOAD.priority.login);
    queue.enqueue(emergency, PRELOAD.priority.emergency);
    queue.enqueue(related, PRELOAD.priority.related);
    queue.enqueue(hovered, PRELOAD.priority.hover);
    expect(queue.peek().map((entry) => entry.priority)).toEqual([4, 3, 2, 2, 1]);

    const run = queue.runIdleBatch();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await run).toBe(PRELOAD.idleBatchSize);
    // Equal priorities keep their order: login was queued before emergency.
    expect(log).toEqual(['hovered@0', 'related@100', 'login@200']);
    expect(queue.size).toBe(2);

    const next = queue.runIdleBatch();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await next).toBe(2);
    expect(log.slice(3)).toEqual(['emergency@1000', 'home@1100']);
  });

  it('downloads a screen once, and forgets a failure quietly', async () => {
    const queue = createPreloadQueue();
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    queue.enqueue(failing, 3);
    queue.enqueue(failing, 4);
    expect(queue.size).toBe(1);
    expect(queue.peek()[0]?.priority).toBe(4);
    await queue.runIdleBatch();
    expect(failing).toHaveBeenCalledTimes(1);
    queue.enqueue(failing, 4);
    expect(queue.size).toBe(0);
    await queue.runNow(failing);
    expect(failing).toHaveBeenCalledTimes(1);
  });

  it('runs an idle batch after 2 s without activity, and waits again after each activity', async () => {
    const onIdle = vi.fn(() => Promise.resolve());
    let work = true;
    const idle = createIdleScheduler({ onIdle, hasWork: () => work });
    idle.activity();
    await vi.advanceTimersByTimeAsync(PRELOAD.idleAfterMs - 500);
    idle.activity();
    await vi.advanceTimersByTimeAsync(PRELOAD.idleAfterMs - 1);
    expect(onIdle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    // Still work queued: another quiet period, another run.
    await vi.advanceTimersByTimeAsync(PRELOAD.idleAfterMs);
    expect(onIdle).toHaveBeenCalledTimes(2);
    work = false;
    await vi.advanceTimersByTimeAsync(PRELOAD.idleAfterMs * 3);
    expect(onIdle).toHaveBeenCalledTimes(2);
    idle.stop();
  });
});
