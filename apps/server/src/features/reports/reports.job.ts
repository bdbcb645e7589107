import { createPeriodicJob } from '../../lib/periodic-job';
import type { ReportsService } from './reports.service';

export const REPORTS_JOB_INTERVAL_MS = 60 * 60_000;

/**
 * Hourly: on the 1st of a month in India (Asia/Kolkata), e-mails last month's report to the
 * administrators when `analyticsReporting` is on and SMTP is configured. Once per month however
 * many servers run it: reports.service.ts `sendDue` claims the month in report_deliveries.
 */
export function createReportsJob(deps: {
  service: Pick<ReportsService, 'sendDue'>;
  logger?: { error(obj: object, msg: string): void };
  intervalMs?: number;
}) {
  return createPeriodicJob({
    name: 'monthly report job',
    intervalMs: deps.intervalMs ?? REPORTS_JOB_INTERVAL_MS,
    logger: deps.logger,
    runOnce: () => deps.service.sendDue(),
  });
}

export type ReportsJob = ReturnType<typeof createReportsJob>;
