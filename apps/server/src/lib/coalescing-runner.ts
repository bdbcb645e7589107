/**
 * Runs `run` on demand, one run at a time: a `kick()` during a run asks for exactly one more run
 * afterwards, so work queued meanwhile is never missed and bursts of kicks cost one extra pass.
 * Used by the outbox workers (mail, notifications), whose state lives in the database.
 */
export function createCoalescingRunner(options: {
  run: () => Promise<unknown>;
  /** False once stopped (or while not configured): kicks are ignored and no new pass starts. */
  canRun: () => boolean;
  onError: (error: unknown) => void;
}) {
  let running: Promise<void> | null = null;
  let runAgain = false;

  return {
    kick(): void {
      if (!options.canRun()) return;
      if (running) {
        runAgain = true;
        return;
      }
      running = (async () => {
        do {
          runAgain = false;
          try {
            await options.run();
          } catch (error) {
            options.onError(error);
          }
        } while (runAgain && options.canRun());
      })().finally(() => {
        running = null;
      });
    },
    /** Resolves once no run is in progress. */
    async idle(): Promise<void> {
      while (running) await running;
    },
  };
}
