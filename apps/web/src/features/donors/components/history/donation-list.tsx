import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../../components/badge';
import { Pagination } from '../../../../components/pagination';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { useFormatDate } from '../../../../lib/dates';
import { useDonations } from '../../api/donations';
import { DownloadCertificateButton } from '../certificates/download-certificate-button';

const PAGE_SIZE = 10;

/** Every donation, newest first: verified by a hospital or reported by the donor, 10 a page. */
export function DonationList({ userId }: { userId: string }) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const [page, setPage] = useState(1);
  const query = useDonations(userId, page, PAGE_SIZE);

  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <LoadingState />;
  if (query.data.items.length === 0) {
    return <p className="rounded-lg bg-slate-50 p-4 text-slate-700">{t('history.empty')}</p>;
  }
  return (
    <div>
      <ol className="flex flex-col gap-3" aria-busy={query.isFetching || undefined}>
        {query.data.items.map((donation) => (
          <li
            key={donation.id}
            className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="flex flex-col gap-1">
              <p className="text-lg font-semibold text-slate-900">
                <time dateTime={donation.donatedAt}>{formatDate(donation.donatedAt, 'long')}</time>
              </p>
              <p className="text-slate-800">{donation.place}</p>
              <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                <Badge variant={donation.verified ? 'success' : 'neutral'}>
                  {donation.verified ? t('history.verified') : t('history.selfReported')}
                </Badge>
                {donation.verified && <span>{t('history.verifiedHint')}</span>}
                <span>{t('history.units', { count: donation.units })}</span>
              </p>
            </div>
            {donation.certificateAvailable && (
              <DownloadCertificateButton donation={donation} variant="secondary" />
            )}
          </li>
        ))}
      </ol>
      <Pagination
        page={page}
        pageSize={PAGE_SIZE}
        total={query.data.total}
        onPageChange={setPage}
        label={t('history.pagesLabel')}
        isLoading={query.isFetching}
      />
    </div>
  );
}
