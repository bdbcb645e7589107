import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminReferrals } from '@bdms/shared';
import { useFeatureFlag } from '../../../../config/use-config';
import { api } from '../../../../lib/api-client';
import { adminKeys } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { StatGrid } from '../stat-grid';
import { EmptyState, ErrorState, Skeleton } from '../states';

/**
 * `GET /admin/referrals` (flag `referralSystem`): how many joined through invitations, who
 * invited most, and addresses many accounts registered from (possible abuse). Hidden while off.
 */
export function ReferralsPanel() {
  const enabled = useFeatureFlag('referralSystem');
  if (!enabled) return null;
  return <ReferralsPanelBody />;
}

function ReferralsPanelBody() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const query = useQuery({
    queryKey: [...adminKeys.all, 'referrals'] as const,
    queryFn: () => api.get<AdminReferrals>('/admin/referrals'),
  });
  const data = query.data;
  return (
    <AdminSection title={t('referrals.title')} description={t('referrals.description')}>
      {query.isPending ? (
        <Skeleton lines={4} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : data ? (
        <div className="flex flex-col gap-6">
          <StatGrid
            stats={[
              {
                key: 'referred',
                label: t('referrals.referred'),
                value: format.number(data.totals.referred),
              },
              {
                key: 'donated',
                label: t('referrals.donated'),
                value: format.number(data.totals.donated),
              },
              {
                key: 'referrers',
                label: t('referrals.referrers'),
                value: format.number(data.totals.referrers),
              },
            ]}
          />
          {data.topReferrers.length > 0 && (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <caption className="mb-2 text-start font-semibold text-slate-900">
                  {t('referrals.top')}
                </caption>
                <thead>
                  <tr className="border-b border-slate-300">
                    <th scope="col" className="py-2 text-start font-semibold">
                      {t('referrals.donor')}
                    </th>
                    <th scope="col" className="py-2 text-end font-semibold">
                      {t('referrals.joined')}
                    </th>
                    <th scope="col" className="py-2 text-end font-semibold">
                      {t('referrals.donated')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.topReferrers.map((row) => (
                    <tr key={row.id} className="border-b border-slate-100">
                      <th scope="row" className="py-2 text-start font-normal">
                        {row.name}
                      </th>
                      <td className="py-2 text-end tabular-nums">{format.number(row.joined)}</td>
                      <td className="py-2 text-end tabular-nums">{format.number(row.donated)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className="flex flex-col gap-3">
            <h3 className="font-semibold text-slate-900">{t('referrals.clusters')}</h3>
            <p className="text-sm text-slate-700">{t('referrals.clustersHint')}</p>
            {data.clusters.length === 0 ? (
              <EmptyState title={t('referrals.noClusters')} />
            ) : (
              <ul className="flex flex-col gap-3">
                {data.clusters.map((cluster) => (
                  <li
                    key={cluster.key}
                    className="rounded-lg border border-amber-300 bg-amber-50 p-3"
                  >
                    <p className="font-semibold text-amber-900">
                      {t('referrals.cluster', {
                        key: cluster.key,
                        accounts: format.number(cluster.accounts),
                        referred: format.number(cluster.referred),
                        from: format.dateTime(cluster.firstAt),
                        to: format.dateTime(cluster.lastAt),
                      })}
                    </p>
                    <ul className="mt-2 flex flex-col gap-1 text-sm text-slate-800">
                      {cluster.members.map((member) => (
                        <li key={member.id}>
                          {member.referrerName
                            ? t('referrals.memberInvited', {
                                name: member.name,
                                date: format.dateTime(member.createdAt),
                                referrer: member.referrerName,
                              })
                            : t('referrals.member', {
                                name: member.name,
                                date: format.dateTime(member.createdAt),
                              })}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : null}
    </AdminSection>
  );
}
