import type { BloodRequestsService } from './blood-requests.service';

export const BLOOD_REQUESTS_JOB_INTERVAL_MS = 60_000;

export interface BloodRequestsJobDeps {
  service: Pick<BloodRequestsService, 'expireDue' | 'widenDue'>;
  logger?: { error(obj: object, msg: string): void };
  intervalMs?: number;
}

/**
 * Every minute: expires open requests past their time, and widens matching for verified
 * requests still short of donors 30 minutes after their last round. The clock is the
 * service's (`now`), so tests drive it with `runOnce()` and a fake clock. Safe on several
 * servers at once: each request is locked (FOR UPDATE) and re-checked before it is changed.
 */
export function createBloodRequestsJob(deps: BloodRequestsJobDeps) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function runOnce(): Promise<{ expired: number; widened: number }> {
    const expired = await deps.service.expireDue();
    const widened = await deps.service.widenDue();
    return { expired, widened };
  }

  function tick(): void {
    if (running) return;
    running = runOnce()
      .catch((error: unknown) => deps.logger?.error({ err: error }, 'blood requests job failed'))
      .finally(() => {
        running = null;
      });
  }

  return {
    runOnce,
    start(): void {
      if (timer) return;
      timer = setInterval(tick, deps.intervalMs ?? BLOOD_REQUESTS_JOB_INTERVAL_MS);
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

export type BloodRequestsJob = ReturnType<typeof createBloodRequestsJob>;
