import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { RequestsList } from '../../features/admin/components/requests/requests-list';
import { useFilterParams } from '../../features/admin/lib/search-params';

const FILTERS = ['status', 'urgency', 'bloodType', 'city'] as const;

/** /admin/requests: every blood request, filtered, with the status changes each one allows. */
export default function AdminRequestsPage() {
  const { t } = useTranslation('pages');
  const { filters, setFilters } = useFilterParams(FILTERS);
  return (
    <Page
      title={t('adminRequests.title')}
      description={t('adminRequests.description')}
      lead={t('adminRequests.intro')}
    >
      <AdminNav />
      <div className="mt-6">
        <RequestsList filters={filters} onFiltersChange={setFilters} />
      </div>
    </Page>
  );
}
