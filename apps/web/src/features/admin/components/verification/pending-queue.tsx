import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PENDING_PAGE_SIZE, usePendingDonors } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { Pagination } from '../../../../components/pagination';
import { AdminSection } from '../section';
import { EmptyState, ErrorState, Skeleton } from '../states';
import { DonorList } from './donor-list';

/** `GET /admin/donors/pending`: onboarding completed first, so ready reviews come first. */
export function PendingQueue({
  selectedId,
  onSelect,
}: {
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [page, setPage] = useState(1);
  const pending = usePendingDonors(page);
  const total = pending.data?.total ?? pending.data?.donors.length ?? 0;

  return (
    <AdminSection
      title={t('verification.queue.title')}
      description={
        pending.data
          ? t('verification.queue.count', { count: total, value: format.number(total) })
          : t('verification.queue.description')
      }
    >
      {pending.isPending ? (
        <Skeleton lines={5} />
      ) : pending.isError ? (
        <ErrorState error={pending.error} onRetry={() => void pending.refetch()} />
      ) : pending.data.donors.length === 0 ? (
        <EmptyState
          title={t('verification.queue.emptyTitle')}
          message={t('verification.queue.emptyMessage')}
        />
      ) : (
        <>
          <DonorList
            donors={pending.data.donors}
            selectedId={selectedId}
            onSelect={onSelect}
            showOnboarding
            label={t('verification.queue.title')}
          />
          <Pagination
            page={pending.data.page ?? page}
            pageSize={pending.data.pageSize ?? PENDING_PAGE_SIZE}
            total={total}
            onPageChange={setPage}
            isLoading={pending.isFetching}
            label={t('verification.queue.pages')}
          />
        </>
      )}
    </AdminSection>
  );
}
