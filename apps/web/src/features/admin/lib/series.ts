import type { AnalyticsDashboard, TimeRange } from '@bdms/shared';

export type Metric = 'registrations' | 'requests' | 'donations';
export const METRICS: readonly Metric[] = ['registrations', 'requests', 'donations'];

/** Days for short ranges; weeks for 90 days and months for a year, so bars stay readable. */
export type Bucket = 'day' | 'week' | 'month';

export function bucketFor(timeRange: TimeRange): Bucket {
  if (timeRange === '90d') return 'week';
  if (timeRange === '1y') return 'month';
  return 'day';
}

export interface Point {
  /** The first day of the bucket, YYYY-MM-DD. */
  start: string;
  registrations: number;
  requests: number;
  donations: number;
}

/** Groups the daily series (oldest first) into buckets; weeks start at the range's first day. */
export function groupSeries(series: AnalyticsDashboard['series'], bucket: Bucket): Point[] {
  const points: Point[] = [];
  let current: Point | null = null;
  series.forEach((day, index) => {
    const date = day.date.slice(0, 10);
    const key =
      bucket === 'day'
        ? date
        : bucket === 'week'
          ? String(Math.floor(index / 7))
          : date.slice(0, 7);
    const previousKey =
      current &&
      (bucket === 'day'
        ? current.start
        : bucket === 'week'
          ? String(Math.floor((index - 1) / 7))
          : current.start.slice(0, 7));
    if (!current || previousKey !== key) {
      current = { start: date, registrations: 0, requests: 0, donations: 0 };
      points.push(current);
    }
    current.registrations += day.registrations;
    current.requests += day.requests;
    current.donations += day.donations;
  });
  return points;
}
