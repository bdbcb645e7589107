import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TIME_RANGES, type AnalyticsDashboard, type TimeRange } from '@bdms/shared';
import { Spinner } from '../../../../components/spinner';
import { cn } from '../../../../lib/cn';
import { intlLocale } from '../../../../lib/intl';
import { useAnalytics } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { bucketFor, groupSeries, METRICS, type Bucket, type Point } from '../../lib/series';
import { AdminSection } from '../section';
import { ErrorState, Skeleton } from '../states';
import { BarChart, type BarDatum } from './bar-chart';

export const DEFAULT_TIME_RANGE: TimeRange = '30d';

/** The time range as a row of radio buttons: arrow keys move between them. */
function TimeRangePicker({
  value,
  onChange,
}: {
  value: TimeRange;
  onChange: (value: TimeRange) => void;
}) {
  const { t } = useTranslation('admin');
  const name = useId();
  return (
    <fieldset>
      <legend className="sr-only">{t('dashboard.analytics.timeRange')}</legend>
      <div className="inline-flex rounded-lg border-2 border-slate-300 bg-white p-0.5">
        {TIME_RANGES.map((range) => (
          <label
            key={range}
            className={cn(
              'relative inline-flex min-h-10 min-w-12 cursor-pointer items-center justify-center rounded-md px-3 text-sm font-semibold has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-focus',
              value === range ? 'bg-slate-800 text-white' : 'text-slate-800 hover:bg-slate-100',
            )}
          >
            <input
              type="radio"
              name={name}
              value={range}
              checked={value === range}
              onChange={() => onChange(range)}
              className="sr-only"
            />
            <span aria-hidden="true">{t(`timeRange.short.${range}`)}</span>
            <span className="sr-only">{t(`timeRange.long.${range}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function usePointLabels(bucket: Bucket) {
  const { t, i18n } = useTranslation('admin');
  return useMemo(() => {
    const short = new Intl.DateTimeFormat(
      intlLocale(i18n.language),
      bucket === 'month'
        ? { month: 'short', timeZone: 'UTC' }
        : { day: 'numeric', month: 'short', timeZone: 'UTC' },
    );
    const long = new Intl.DateTimeFormat(
      intlLocale(i18n.language),
      bucket === 'month'
        ? { month: 'long', year: 'numeric', timeZone: 'UTC' }
        : { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' },
    );
    return (point: Point) => {
      const date = new Date(`${point.start}T00:00:00Z`);
      const label = short.format(date);
      const fullLabel =
        bucket === 'week'
          ? t('dashboard.analytics.weekOf', { date: long.format(date) })
          : long.format(date);
      return { label, fullLabel };
    };
  }, [bucket, i18n.language, t]);
}

function Charts({ data }: { data: AnalyticsDashboard }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const bucket = bucketFor(data.timeRange);
  const labels = usePointLabels(bucket);
  const points = useMemo(() => groupSeries(data.series, bucket), [data.series, bucket]);
  const range = t(`timeRange.long.${data.timeRange}`);

  return (
    <div className="grid gap-6 md:grid-cols-3">
      {METRICS.map((metric) => {
        const bars: BarDatum[] = points.map((point) => ({
          key: point.start,
          ...labels(point),
          value: point[metric],
        }));
        const total = data.totals[metric];
        const peak = bars.reduce<BarDatum | null>(
          (best, bar) => (bar.value > (best?.value ?? 0) ? bar : best),
          null,
        );
        const title = t(`dashboard.analytics.metrics.${metric}`);
        const summary = peak
          ? t('dashboard.analytics.summary', {
              title,
              range,
              total: format.number(total),
              peak: peak.fullLabel,
              peakValue: format.number(peak.value),
            })
          : t('dashboard.analytics.summaryNone', { title, range });
        return (
          <BarChart
            key={metric}
            title={title}
            total={format.number(total)}
            summary={summary}
            data={bars}
            formatValue={format.number}
          />
        );
      })}
      <p className="text-sm text-slate-700 md:col-span-3">
        {t(`dashboard.analytics.per.${bucket}`)}
      </p>
    </div>
  );
}

/** `GET /analytics/dashboard?timeRange=`: registrations, requests and donations over time. */
export function AnalyticsPanel() {
  const { t } = useTranslation('admin');
  const [timeRange, setTimeRange] = useState<TimeRange>(DEFAULT_TIME_RANGE);
  const analytics = useAnalytics(timeRange);
  const isUpdating = analytics.isPlaceholderData && analytics.isFetching;

  return (
    <AdminSection
      title={t('dashboard.analytics.title')}
      description={t('dashboard.analytics.description')}
      actions={
        <>
          {isUpdating && <Spinner size="sm" label={t('dashboard.analytics.updating')} />}
          <TimeRangePicker value={timeRange} onChange={setTimeRange} />
        </>
      }
    >
      {analytics.isPending ? (
        <Skeleton lines={6} />
      ) : analytics.isError && !analytics.data ? (
        <ErrorState error={analytics.error} onRetry={() => void analytics.refetch()} />
      ) : analytics.data ? (
        <div aria-busy={isUpdating || undefined}>
          <Charts data={analytics.data} />
        </div>
      ) : null}
    </AdminSection>
  );
}
