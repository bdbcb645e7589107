import { useTranslation } from 'react-i18next';
import { BLOOD_TYPES } from '@bdms/shared';
import { useAnalytics } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { ErrorState, Skeleton } from '../states';
import { DEFAULT_TIME_RANGE } from './analytics-panel';

/**
 * Approved donors by blood type, now (`bloodTypeDistribution` of the analytics reply, the same
 * whatever the range: the default range's query is shared with the charts). Bars of text: every
 * count is on screen, nothing to decode.
 */
export function BloodTypePanel() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const analytics = useAnalytics(DEFAULT_TIME_RANGE);
  const counts = analytics.data?.bloodTypeDistribution ?? {};
  const total = BLOOD_TYPES.reduce((sum, type) => sum + (counts[type] ?? 0), 0);
  const max = Math.max(1, ...BLOOD_TYPES.map((type) => counts[type] ?? 0));

  return (
    <AdminSection
      title={t('dashboard.bloodTypes.title')}
      description={t('dashboard.bloodTypes.description')}
    >
      {analytics.isPending ? (
        <Skeleton lines={4} />
      ) : analytics.isError && !analytics.data ? (
        <ErrorState error={analytics.error} onRetry={() => void analytics.refetch()} />
      ) : total === 0 ? (
        <p className="text-sm text-slate-700">{t('dashboard.bloodTypes.empty')}</p>
      ) : (
        <ul className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
          {BLOOD_TYPES.map((type) => {
            const count = counts[type] ?? 0;
            return (
              <li key={type} className="flex items-center gap-3">
                <span className="w-9 shrink-0 font-bold text-primary-800">{type}</span>
                <span aria-hidden="true" className="h-3 flex-1 rounded bg-slate-100">
                  <span
                    className="block h-3 rounded bg-slate-600"
                    style={{ width: `${(count / max) * 100}%` }}
                  />
                </span>
                <span className="w-20 shrink-0 text-end text-sm text-slate-800 tabular-nums">
                  {t('dashboard.bloodTypes.count', {
                    count: format.number(count),
                    share: format.number(Math.round((count / total) * 100)),
                  })}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </AdminSection>
  );
}
