import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { MonthlyReportView } from '../../features/admin/components/reports/monthly-report';

/** /admin/reports: the monthly report (feature flag analyticsReporting). */
export default function AdminReportsPage() {
  const { t } = useTranslation('pages');
  return (
    <Page
      title={t('adminReports.title')}
      description={t('adminReports.description')}
      lead={t('adminReports.intro')}
    >
      <AdminNav />
      <div className="mt-6">
        <MonthlyReportView />
      </div>
    </Page>
  );
}
