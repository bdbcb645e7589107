import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../../components/badge';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { useFormatDate } from '../../../../lib/dates';
import { useDonations } from '../../api/donations';

const LINK = 'inline-flex min-h-11 items-center font-semibold text-primary-700 underline';

/** The 3 latest donations, with the way to all of them and to report one made elsewhere. */
export function DonationsCard({ userId }: { userId: string }) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const query = useDonations(userId, 1, 3);
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('cards.donations.title')}
      </h2>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingState />}
      {query.data &&
        (query.data.items.length === 0 ? (
          <p className="text-slate-700">{t('cards.donations.empty')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100">
            {query.data.items.map((donation) => (
              <li
                key={donation.id}
                className="flex flex-wrap items-center justify-between gap-2 py-2"
              >
                <span>
                  <span className="block font-semibold text-slate-900">
                    {formatDate(donation.donatedAt, 'long')}
                  </span>
                  <span className="block text-slate-700">{donation.place}</span>
                </span>
                <Badge variant={donation.verified ? 'success' : 'neutral'}>
                  {donation.verified ? t('history.verified') : t('history.selfReported')}
                </Badge>
              </li>
            ))}
          </ul>
        ))}
      <div className="flex flex-col gap-x-5 sm:flex-row sm:flex-wrap">
        <Link to="/donor/history" className={LINK}>
          {t('cards.donations.seeAll')}
        </Link>
        <Link to="/donor/history#report-donation" className={LINK}>
          {t('cards.donations.report')}
        </Link>
      </div>
    </section>
  );
}
