/**
 * A job that runs `runOnce` every `intervalMs` (and once at start), never two runs at a time,
 * logging failures instead of crashing; `stop()` waits for a run in progress. The timer is
 * unref'd so it never keeps the process alive.
 */
export function createPeriodicJob<T>(options: {
  name: string;
  intervalMs: number;
  runOnce: () => Promise<T>;
  logger?: { error(obj: object, msg: string): void } | undefined;
}) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  function tick(): void {
    if (running) return;
    running = options
      .runOnce()
      .catch((error: unknown) => options.logger?.error({ err: error }, `${options.name} failed`))
      .finally(() => {
        running = null;
      });
  }

  return {
    runOnce: options.runOnce,
    start(): void {
      if (timer) return;
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
      tick();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      while (running) await running;
    },
  };
}
