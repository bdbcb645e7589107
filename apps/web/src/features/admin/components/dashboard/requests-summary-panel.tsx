import { useTranslation } from 'react-i18next';
import { BLOOD_REQUEST_STATUSES } from '@bdms/shared';
import { isApiError } from '../../../../lib/api-client';
import { useRequestsSummary } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { StatGrid } from '../stat-grid';
import { EmptyState, ErrorState, Skeleton } from '../states';
import { useRequestStatusLabel } from '../status-badges';

/** `GET /admin/requests/summary`: open critical requests first, then how fast they are met. */
export function RequestsSummaryPanel() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const statusLabel = useRequestStatusLabel();
  const summary = useRequestsSummary();

  let content;
  if (summary.isPending) {
    content = <Skeleton lines={3} />;
  } else if (summary.isError) {
    content =
      isApiError(summary.error) && summary.error.status === 404 ? (
        <EmptyState
          title={t('dashboard.requests.unavailableTitle')}
          message={t('dashboard.requests.unavailableMessage')}
        />
      ) : (
        <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
      );
  } else {
    const data = summary.data;
    const statuses = BLOOD_REQUEST_STATUSES.filter((status) => (data.byStatus[status] ?? 0) > 0);
    content = (
      <>
        <StatGrid
          stats={[
            {
              key: 'openCritical',
              label: t('dashboard.requests.openCritical'),
              value: format.number(data.openCritical),
              tone: data.openCritical > 0 ? 'alert' : 'default',
              to: data.openCritical > 0 ? '/admin/requests?urgency=critical' : undefined,
              linkLabel: t('dashboard.requests.seeCritical'),
            },
            {
              key: 'total',
              label: t('dashboard.requests.total'),
              value: format.number(data.total),
            },
            {
              key: 'fulfilled',
              label: t('dashboard.requests.fulfilledLast30d'),
              value: format.number(data.fulfilledLast30d),
            },
            {
              key: 'median',
              label: t('dashboard.requests.medianHours'),
              value:
                data.medianHoursToFulfil === null ? (
                  <>
                    <span aria-hidden="true">—</span>
                    <span className="sr-only">{t('dashboard.requests.noMedian')}</span>
                  </>
                ) : (
                  t('dashboard.requests.hours', {
                    count: Math.round(data.medianHoursToFulfil * 10) / 10,
                    value: format.number(Math.round(data.medianHoursToFulfil * 10) / 10),
                  })
                ),
            },
          ]}
        />
        {statuses.length > 0 && (
          <div className="mt-4">
            <h3 className="text-base font-semibold text-slate-900">
              {t('dashboard.requests.byStatus')}
            </h3>
            <ul className="mt-2 flex flex-wrap gap-2">
              {statuses.map((status) => (
                <li
                  key={status}
                  className="rounded-full border border-slate-300 bg-white px-3 py-1 text-sm text-slate-800"
                >
                  {statusLabel(status)}:{' '}
                  <span className="font-semibold tabular-nums">
                    {format.number(data.byStatus[status] ?? 0)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </>
    );
  }

  return (
    <AdminSection
      title={t('dashboard.requests.title')}
      description={t('dashboard.requests.description')}
    >
      {content}
    </AdminSection>
  );
}
