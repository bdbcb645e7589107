import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { DonorPanel } from '../../features/admin/components/verification/donor-panel';
import { DonorSearch } from '../../features/admin/components/verification/donor-search';
import { PendingQueue } from '../../features/admin/components/verification/pending-queue';
import { useFilterParams } from '../../features/admin/lib/search-params';
import { cn } from '../../lib/cn';

const FILTERS = ['status', 'bloodType', 'q'] as const;

/**
 * /admin/verification: the queue of pending donors and a search over all donors; the chosen one
 * (`?donor=`) opens beside the lists, or instead of them on a phone.
 */
export default function AdminVerificationPage() {
  const { t } = useTranslation(['pages', 'admin']);
  const { filters, setFilters, params, setParams } = useFilterParams(FILTERS);
  const donorId = params.get('donor');

  const select = useCallback(
    (id: string | null) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('donor', id);
        else next.delete('donor');
        return next;
      }),
    [setParams],
  );

  return (
    <Page
      title={t('pages:adminVerification.title')}
      description={t('pages:adminVerification.description')}
      lead={t('pages:adminVerification.intro')}
    >
      <AdminNav />
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className={cn('flex flex-col gap-6', donorId && 'hidden lg:flex')}>
          <PendingQueue selectedId={donorId} onSelect={select} />
          <DonorSearch
            filters={filters}
            onFiltersChange={setFilters}
            selectedId={donorId}
            onSelect={select}
          />
        </div>
        {donorId ? (
          <DonorPanel key={donorId} donorId={donorId} onBack={() => select(null)} />
        ) : (
          <div className="hidden rounded-xl border border-dashed border-slate-300 bg-slate-50 p-8 text-center text-slate-700 lg:block">
            <p className="font-semibold text-slate-900">
              {t('admin:verification.panel.noneTitle')}
            </p>
            <p className="mt-1 text-sm">{t('admin:verification.panel.noneMessage')}</p>
          </div>
        )}
      </div>
    </Page>
  );
}
