import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { HospitalDashboard } from '../../features/hospitals/components/hospital-dashboard';

/** /hospital/dashboard (hospital accounts): the hospital's blood requests and donations. */
export default function HospitalDashboardPage() {
  const { t } = useTranslation('pages');
  return (
    <Page
      title={t('hospitalDashboard.title')}
      description={t('hospitalDashboard.description')}
      lead={t('hospitalDashboard.intro')}
    >
      <HospitalDashboard />
    </Page>
  );
}
