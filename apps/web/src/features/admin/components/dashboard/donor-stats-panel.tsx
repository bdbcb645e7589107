import { useTranslation } from 'react-i18next';
import { useDonorStats } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { StatGrid, StatPlaceholder } from '../stat-grid';
import { ErrorState } from '../states';

/** `GET /admin/donors/stats`: how many donors, in which state, and who can help now. */
export function DonorStatsPanel() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const stats = useDonorStats();

  return (
    <AdminSection
      title={t('dashboard.donors.title')}
      description={t('dashboard.donors.description')}
    >
      {stats.isError ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : stats.isPending ? (
        // The grid itself, its numbers grey bars: as tall as the loaded one (issue #18).
        <div role="status">
          <span className="sr-only">{t('loading.generic', { ns: 'common' })}</span>
          <StatGrid
            stats={[
              { key: 'total', label: t('dashboard.donors.total') },
              {
                key: 'pending',
                label: t('dashboard.donors.pending'),
                to: '/admin/verification',
                linkLabel: t('dashboard.donors.review'),
              },
              { key: 'approved', label: t('dashboard.donors.approved') },
              { key: 'availableNow', label: t('dashboard.donors.availableNow') },
              { key: 'newLast7d', label: t('dashboard.donors.newLast7d') },
              { key: 'rejected', label: t('dashboard.donors.rejected'), tone: 'muted' as const },
              { key: 'suspended', label: t('dashboard.donors.suspended'), tone: 'muted' as const },
            ].map((stat) => ({ ...stat, value: <StatPlaceholder /> }))}
          />
        </div>
      ) : (
        <StatGrid
          stats={[
            {
              key: 'total',
              label: t('dashboard.donors.total'),
              value: format.number(stats.data.total),
            },
            {
              key: 'pending',
              label: t('dashboard.donors.pending'),
              value: format.number(stats.data.byStatus.pending),
              tone: stats.data.byStatus.pending > 0 ? 'alert' : 'default',
              to: '/admin/verification',
              linkLabel: t('dashboard.donors.review'),
            },
            {
              key: 'approved',
              label: t('dashboard.donors.approved'),
              value: format.number(stats.data.byStatus.approved),
            },
            {
              key: 'availableNow',
              label: t('dashboard.donors.availableNow'),
              value: format.number(stats.data.availableNow),
            },
            {
              key: 'newLast7d',
              label: t('dashboard.donors.newLast7d'),
              value: format.number(stats.data.newLast7d),
            },
            {
              key: 'rejected',
              label: t('dashboard.donors.rejected'),
              value: format.number(stats.data.byStatus.rejected),
              tone: 'muted',
            },
            {
              key: 'suspended',
              label: t('dashboard.donors.suspended'),
              value: format.number(stats.data.byStatus.suspended),
              tone: 'muted',
            },
          ]}
        />
      )}
    </AdminSection>
  );
}
