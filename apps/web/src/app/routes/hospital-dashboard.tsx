import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../components/page';
import { useFeatureFlag } from '../../config/use-config';
import { StockFinder } from '../../features/facilities';
import { HospitalDashboard } from '../../features/hospitals/components/hospital-dashboard';

/** /hospital/dashboard (hospital accounts): the hospital's blood requests and donations. */
export default function HospitalDashboardPage() {
  const { t } = useTranslation(['pages', 'hospital']);
  const showStock = useFeatureFlag('inventoryManagement');
  return (
    <Page
      title={t('pages:hospitalDashboard.title')}
      description={t('pages:hospitalDashboard.description')}
      lead={t('pages:hospitalDashboard.intro')}
    >
      {showStock && (
        <div className="mt-4 flex max-w-4xl flex-col gap-4">
          <Link
            to="/hospital/stock"
            className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline"
          >
            {t('hospital:stock.dashboardLink')}
          </Link>
          <StockFinder />
        </div>
      )}
      <HospitalDashboard />
    </Page>
  );
}
