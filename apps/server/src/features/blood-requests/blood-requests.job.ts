import { createPeriodicJob } from '../../lib/periodic-job';
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
  return createPeriodicJob({
    name: 'blood requests job',
    intervalMs: deps.intervalMs ?? BLOOD_REQUESTS_JOB_INTERVAL_MS,
    logger: deps.logger,
    async runOnce(): Promise<{ expired: number; widened: number }> {
      const expired = await deps.service.expireDue();
      const widened = await deps.service.widenDue();
      return { expired, widened };
    },
  });
}

export type BloodRequestsJob = ReturnType<typeof createBloodRequestsJob>;
