import type { AnalyticsDashboard, TimeRange } from '@bdms/shared';
import type { Db } from '../../db/client';
import { createAnalyticsRepository, type SeriesSources } from './analytics.repository';

const DAY_MS = 86_400_000;

/** Days per range; 1y is 365 days whatever the calendar says. */
export const TIME_RANGE_DAYS: Record<TimeRange, number> = {
  '7d': 7,
  '30d': 30,
  '90d': 90,
  '1y': 365,
};

export interface AnalyticsServiceDeps {
  db: Db;
  now?: () => number;
  /** Tests and later features plug other series in. */
  sources?: SeriesSources;
}

export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const now = deps.now ?? Date.now;
  const repository = createAnalyticsRepository(deps.db, deps.sources);

  return {
    /**
     * The dashboard over the last N UTC days, today included: daily series counted in SQL and
     * zero-filled, their totals, and approved donors by blood type (now).
     */
    async dashboard(timeRange: TimeRange): Promise<AnalyticsDashboard> {
      const at = now();
      const lastDay = new Date(at).toISOString().slice(0, 10);
      const firstDay = new Date(at - (TIME_RANGE_DAYS[timeRange] - 1) * DAY_MS)
        .toISOString()
        .slice(0, 10);
      const [series, bloodTypeDistribution] = await Promise.all([
        repository.dailySeries(firstDay, lastDay),
        repository.approvedByBloodType(),
      ]);
      const totals = { registrations: 0, requests: 0, donations: 0 };
      for (const day of series) {
        totals.registrations += day.registrations;
        totals.requests += day.requests;
        totals.donations += day.donations;
      }
      return { timeRange, totals, series, bloodTypeDistribution };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
