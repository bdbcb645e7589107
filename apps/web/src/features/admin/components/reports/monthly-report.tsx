import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  REPORT_MONTH_PATTERN,
  REQUEST_OUTCOMES,
  URGENCIES,
  todayInIndia,
  type MonthlyReport,
} from '@bdms/shared';
import { Button } from '../../../../components/button';
import { ScrollRegion } from '../../../../components/scroll-region';
import { Spinner } from '../../../../components/spinner';
import { useToast } from '../../../../components/toast';
import { useFeatureFlag } from '../../../../config/use-config';
import { intlLocale } from '../../../../lib/intl';
import { saveFile } from '../../../../lib/save-file';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { downloadMonthlyReport, useMonthlyReport } from '../../api/admin-api';
import { fileNameFromDisposition } from '../../lib/download';
import { useFormat } from '../../lib/format';
import { BarChart, type BarDatum } from '../dashboard/bar-chart';
import { AdminSection } from '../section';
import { StatGrid } from '../stat-grid';
import { EmptyState, ErrorState, Skeleton } from '../states';

/** How many months the picker offers, the current one included. */
const MONTHS_OFFERED = 24;

/** The current Indian month and the ones before it, newest first (YYYY-MM). */
export function recentMonths(now = Date.now(), count = MONTHS_OFFERED): string[] {
  const [year, month] = todayInIndia(now).slice(0, 7).split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(year, month - 1 - index, 1)).toISOString().slice(0, 7),
  );
}

function useMonthLabel() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(intlLocale(i18n.language), {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    return (month: string) => format.format(new Date(`${month}-15T00:00:00Z`));
  }, [i18n.language]);
}

function DownloadButtons({ month }: { month: string }) {
  const { t, i18n } = useTranslation('admin');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  const run = async (format: 'csv' | 'pdf') => {
    setBusy(format);
    try {
      const file = await downloadMonthlyReport(format, month, i18n.language);
      const name =
        fileNameFromDisposition(file.headers.get('Content-Disposition')) ??
        `report-${month}.${format}`;
      saveFile(file.blob, name);
      toast.success(t('reports.downloaded', { name }));
    } catch (error) {
      toast.error(t('reports.downloadFailed'), { message: errorMessage(error) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => void run('csv')} isLoading={busy === 'csv'}>
        {t('reports.downloadCsv')}
      </Button>
      <Button variant="secondary" onClick={() => void run('pdf')} isLoading={busy === 'pdf'}>
        {t('reports.downloadPdf')}
      </Button>
    </div>
  );
}

function DailyCharts({ report }: { report: MonthlyReport }) {
  const { t, i18n } = useTranslation('admin');
  const format = useFormat();
  const labels = useMemo(() => {
    const short = new Intl.DateTimeFormat(intlLocale(i18n.language), {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    const long = new Intl.DateTimeFormat(intlLocale(i18n.language), {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    return (date: string) => {
      const day = new Date(`${date}T00:00:00Z`);
      return { label: short.format(day), fullLabel: long.format(day) };
    };
  }, [i18n.language]);
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {(['registrations', 'requests', 'donations'] as const).map((metric) => {
        const bars: BarDatum[] = report.days.map((day) => ({
          key: day.date,
          ...labels(day.date),
          value: day[metric],
        }));
        const title = t(`reports.totals.${metric}`);
        const total = report.totals[metric];
        const peak = bars.reduce<BarDatum | null>(
          (best, bar) => (bar.value > (best?.value ?? 0) ? bar : best),
          null,
        );
        return (
          <BarChart
            key={metric}
            title={title}
            total={format.number(total)}
            summary={
              peak
                ? t('reports.chartSummary', {
                    title,
                    total: format.number(total),
                    peak: peak.fullLabel,
                    peakValue: format.number(peak.value),
                  })
                : t('reports.chartSummaryNone', { title })
            }
            data={bars}
            formatValue={format.number}
          />
        );
      })}
      <p className="text-sm text-slate-700 md:col-span-3">{t('reports.perDay')}</p>
    </div>
  );
}

function UrgencyTable({ report }: { report: MonthlyReport }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  return (
    <ScrollRegion label={t('reports.urgency.title')}>
      <table className="w-full min-w-[28rem] text-sm">
        <caption className="sr-only">{t('reports.urgency.title')}</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 text-start font-semibold">
              {t('reports.urgency.urgency')}
            </th>
            {REQUEST_OUTCOMES.map((outcome) => (
              <th key={outcome} scope="col" className="py-2 text-end font-semibold">
                {t(`reports.outcome.${outcome}`)}
              </th>
            ))}
            <th scope="col" className="py-2 text-end font-semibold">
              {t('reports.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {URGENCIES.map((urgency) => {
            const counts = report.requestsByUrgency[urgency];
            const total = REQUEST_OUTCOMES.reduce((sum, outcome) => sum + counts[outcome], 0);
            return (
              <tr key={urgency} className="border-b border-slate-100">
                <th scope="row" className="py-2 text-start font-normal">
                  {t(`reports.urgency.${urgency}`)}
                </th>
                {REQUEST_OUTCOMES.map((outcome) => (
                  <td key={outcome} className="py-2 text-end tabular-nums">
                    {format.number(counts[outcome])}
                  </td>
                ))}
                <td className="py-2 text-end font-semibold tabular-nums">{format.number(total)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function StateTable({ report }: { report: MonthlyReport }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  if (report.byState.length === 0) {
    return <EmptyState title={t('reports.byState.empty')} />;
  }
  const metrics = ['registrations', 'approvals', 'requests', 'donations'] as const;
  return (
    <ScrollRegion label={t('reports.byState.title')} className="max-h-[28rem] overflow-auto">
      <table className="w-full min-w-[28rem] text-sm">
        <caption className="sr-only">{t('reports.byState.title')}</caption>
        <thead className="sticky top-0 bg-white">
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 text-start font-semibold">
              {t('reports.byState.state')}
            </th>
            {metrics.map((metric) => (
              <th key={metric} scope="col" className="py-2 text-end font-semibold">
                {t(`reports.totals.${metric}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.byState.map((row) => (
            <tr key={row.state ?? ''} className="border-b border-slate-100">
              <th scope="row" className="py-2 text-start font-normal break-words">
                {row.state ?? t('reports.byState.unknown')}
              </th>
              {metrics.map((metric) => (
                <td key={metric} className="py-2 text-end tabular-nums">
                  {format.number(row[metric])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function ReportBody({ report }: { report: MonthlyReport }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const minutes = (value: number | null) =>
    value === null ? t('reports.none') : t('reports.minutes', { value: format.number(value) });
  return (
    <div className="flex flex-col gap-6">
      {!report.complete && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t('reports.running')}
        </p>
      )}
      <AdminSection title={t('reports.totals.title')}>
        <StatGrid
          stats={(
            ['registrations', 'approvals', 'requests', 'donations', 'donationUnits'] as const
          ).map((metric) => ({
            key: metric,
            label: t(`reports.totals.${metric}`),
            value: format.number(report.totals[metric]),
          }))}
        />
      </AdminSection>
      <AdminSection title={t('reports.daily')}>
        <DailyCharts report={report} />
      </AdminSection>
      <AdminSection title={t('reports.urgency.title')}>
        <UrgencyTable report={report} />
      </AdminSection>
      <AdminSection
        title={t('reports.firstAcceptance.title')}
        description={t('reports.firstAcceptance.description')}
      >
        <StatGrid
          stats={[
            {
              key: 'accepted',
              label: t('reports.firstAcceptance.accepted'),
              value: format.number(report.firstAcceptance.accepted),
            },
            {
              key: 'median',
              label: t('reports.firstAcceptance.median'),
              value: minutes(report.firstAcceptance.medianMinutes),
            },
            {
              key: 'average',
              label: t('reports.firstAcceptance.average'),
              value: minutes(report.firstAcceptance.averageMinutes),
            },
          ]}
        />
      </AdminSection>
      <AdminSection
        title={t('reports.byState.title')}
        description={t('reports.byState.description')}
      >
        <StateTable report={report} />
      </AdminSection>
    </div>
  );
}

/**
 * /admin/reports (flag `analyticsReporting`): one Indian month's report — figures, a chart per
 * day, requests by urgency and outcome, time to the first accepted donor, the states — with
 * CSV and PDF downloads. The month lives in the address (`?month=`), as the e-mail links it.
 */
export function MonthlyReportView() {
  const { t } = useTranslation('admin');
  const enabled = useFeatureFlag('analyticsReporting');
  const [params, setParams] = useSearchParams();
  const asked = params.get('month');
  const months = useMemo(() => recentMonths(), []);
  const month = asked && REPORT_MONTH_PATTERN.test(asked) ? asked : null;
  const report = useMonthlyReport(month, enabled);
  const monthLabel = useMonthLabel();
  const pickerId = useId();
  const shown = report.data?.month ?? month ?? months[1] ?? '';
  const offered = months.includes(shown) ? months : [shown, ...months];

  if (!enabled) {
    return <EmptyState title={t('reports.off.title')} message={t('reports.off.message')} />;
  }
  const isUpdating = report.isPlaceholderData && report.isFetching;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={pickerId} className="font-semibold text-slate-900">
            {t('reports.month')}
          </label>
          <div className="flex items-center gap-2">
            <select
              id={pickerId}
              value={shown}
              onChange={(event) => setParams({ month: event.target.value })}
              className="min-h-11 rounded-lg border-2 border-slate-300 bg-white px-3"
            >
              {offered.map((value) => (
                <option key={value} value={value}>
                  {monthLabel(value)}
                </option>
              ))}
            </select>
            {isUpdating && <Spinner size="sm" label={t('reports.updating')} />}
          </div>
        </div>
        {shown && <DownloadButtons month={shown} />}
      </div>
      <p className="text-sm text-slate-700">{t('reports.emailNote')}</p>
      {report.isPending ? (
        <Skeleton lines={8} />
      ) : report.isError && !report.data ? (
        <ErrorState error={report.error} onRetry={() => void report.refetch()} />
      ) : report.data ? (
        <div aria-busy={isUpdating || undefined}>
          <ReportBody report={report.data} />
        </div>
      ) : null}
    </div>
  );
}
