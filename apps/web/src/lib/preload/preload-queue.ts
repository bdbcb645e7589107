import { PRELOAD } from '@bdms/shared';

/**
 * A queue of screens to download before they are opened (product spec sections 2 and 9,
 * "Navigation preloading"). Higher priority runs first: a hovered link (4), the pages likely to
 * come next (3), the critical routes (home 1, emergency and login 2). Each idle run takes at most
 * 3 entries with 100 ms between them; an entry runs once (a failure is forgotten: the click will
 * try again with its own retries).
 */

export type Preloader = () => Promise<unknown>;

export interface QueueTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
}

export const GLOBAL_QUEUE_TIMERS: QueueTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
};

interface Entry {
  preload: Preloader;
  priority: number;
  /** Insertion order: equal priorities run first come, first served. */
  order: number;
}

export function createPreloadQueue({
  timers = GLOBAL_QUEUE_TIMERS,
}: { timers?: QueueTimers } = {}) {
  const waiting = new Map<Preloader, Entry>();
  /** Started (running or finished): never queued again. */
  const started = new Set<Preloader>();
  let order = 0;
  let running = false;

  const sleep = (ms: number) => new Promise<void>((resolve) => timers.setTimeout(resolve, ms));

  const start = async (preload: Preloader): Promise<void> => {
    waiting.delete(preload);
    if (started.has(preload)) return;
    started.add(preload);
    try {
      await preload();
    } catch {
      // Preloading is a hint: the screen loads (with retries) when it is opened.
    }
  };

  const takeNext = (): Entry | undefined => {
    let best: Entry | undefined;
    for (const entry of waiting.values()) {
      if (
        !best ||
        entry.priority > best.priority ||
        (entry.priority === best.priority && entry.order < best.order)
      ) {
        best = entry;
      }
    }
    return best;
  };

  return {
    /** Queues a screen; an already queued one keeps the higher of the two priorities. */
    enqueue(preload: Preloader, priority: number): void {
      if (started.has(preload)) return;
      const existing = waiting.get(preload);
      if (existing) {
        existing.priority = Math.max(existing.priority, priority);
        return;
      }
      waiting.set(preload, { preload, priority, order: order++ });
    },

    /** Starts one screen now (a hovered link), whatever is queued before it. */
    runNow(preload: Preloader): Promise<void> {
      return start(preload);
    },

    /** One idle run: up to 3 entries, highest priority first, 100 ms apart. */
    async runIdleBatch(
      maxEntries: number = PRELOAD.idleBatchSize,
      gapMs: number = PRELOAD.idleGapMs,
    ): Promise<number> {
      if (running) return 0;
      running = true;
      let count = 0;
      try {
        while (count < maxEntries) {
          const next = takeNext();
          if (!next) break;
          if (count > 0) await sleep(gapMs);
          count += 1;
          await start(next.preload);
        }
      } finally {
        running = false;
      }
      return count;
    },

    get size(): number {
      return waiting.size;
    },

    /** The queued screens, in the order an idle run would take them (tests, debugging). */
    peek(): { preload: Preloader; priority: number }[] {
      return [...waiting.values()]
        .sort((a, b) => b.priority - a.priority || a.order - b.order)
        .map(({ preload, priority }) => ({ preload, priority }));
    },

    hasStarted(preload: Preloader): boolean {
      return started.has(preload);
    },
  };
}

export type PreloadQueue = ReturnType<typeof createPreloadQueue>;

/**
 * Runs `onIdle` after 2 s without user activity; every activity starts the wait again. After an
 * idle run it waits for the next quiet period, as long as `hasWork` says there is more.
 */
export function createIdleScheduler({
  timers = GLOBAL_QUEUE_TIMERS,
  idleAfterMs = PRELOAD.idleAfterMs,
  onIdle,
  hasWork,
}: {
  timers?: QueueTimers;
  idleAfterMs?: number;
  onIdle: () => Promise<unknown>;
  hasWork: () => boolean;
}) {
  let timer: unknown = null;
  let busy = false;
  let stopped = false;

  const arm = () => {
    if (stopped || busy) return;
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    if (!hasWork()) return;
    timer = timers.setTimeout(() => {
      timer = null;
      if (!hasWork()) return;
      busy = true;
      void onIdle().finally(() => {
        busy = false;
        arm();
      });
    }, idleAfterMs);
  };

  return {
    /** User activity: the quiet period starts again. */
    activity: arm,
    /** New work was queued: make sure an idle run will come. */
    wake(): void {
      if (timer === null) arm();
    },
    stop(): void {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
