import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../components/page';
import { useAuth } from '../../features/auth';
import { RegistrationStatus } from '../../features/hospitals/components/registration-status';
import { useFeatureFlag } from '../../config/use-config';
import { StockFinder } from '../../features/facilities';
import { HospitalDashboard } from '../../features/hospitals/components/hospital-dashboard';

/** /hospital/dashboard (hospital accounts): the hospital's blood requests and donations. */
export default function HospitalDashboardPage() {
  const { t } = useTranslation(['pages', 'hospital']);
  const showStock = useFeatureFlag('inventoryManagement');
  const hospital = useAuth().user?.hospital;
  // Issue #17: a registration not (or no longer) verified waits instead of the work screens.
  const onHold =
    hospital?.verificationStatus === 'pending' || hospital?.verificationStatus === 'rejected'
      ? hospital.verificationStatus
      : null;
  if (onHold) {
    return (
      <Page
        title={t('pages:hospitalDashboard.title')}
        description={t('pages:hospitalDashboard.description')}
      >
        <RegistrationStatus
          verificationStatus={onHold}
          rejectionReason={hospital?.rejectionReason}
        />
      </Page>
    );
  }
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
