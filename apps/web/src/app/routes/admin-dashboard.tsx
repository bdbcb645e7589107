import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { useFeatureFlag } from '../../config/use-config';
import { useAuth } from '../../features/auth';
import { AdminNav } from '../../features/admin/components/admin-nav';
import { ActivityFeed } from '../../features/admin/components/dashboard/activity-feed';
import { AnalyticsPanel } from '../../features/admin/components/dashboard/analytics-panel';
import { BloodTypePanel } from '../../features/admin/components/dashboard/blood-type-panel';
import { ClientLogsPanel } from '../../features/admin/components/dashboard/client-logs-panel';
import { DebugPanel } from '../../features/admin/components/dashboard/debug-panel';
import { DonorStatsPanel } from '../../features/admin/components/dashboard/donor-stats-panel';
import { ChannelsPanel } from '../../features/admin/components/dashboard/channels-panel';
import { EmailPanel } from '../../features/admin/components/dashboard/email-panel';
import { FlagsPanel } from '../../features/admin/components/dashboard/flags-panel';
import { HospitalsPanel } from '../../features/admin/components/dashboard/hospitals-panel';
import { NotificationSettingsPanel } from '../../features/admin/components/dashboard/notification-settings-panel';
import { ReferralsPanel } from '../../features/admin/components/dashboard/referrals-panel';
import { RequestsSummaryPanel } from '../../features/admin/components/dashboard/requests-summary-panel';
import { StockPanel } from '../../features/admin/components/dashboard/stock-panel';

/**
 * /admin: the numbers, blood stock (with inventoryManagement), the activity, what browsers reported, and the platform's settings (product
 * spec sections 2, 6).
 */
export default function AdminDashboardPage() {
  const { t } = useTranslation(['pages', 'admin']);
  const { user } = useAuth();
  const showStock = useFeatureFlag('inventoryManagement');
  return (
    <Page
      title={t('pages:admin.title')}
      description={t('pages:admin.description')}
      lead={t('pages:admin.intro')}
    >
      <AdminNav />
      <div className="mt-6 grid gap-6">
        <div className="grid items-start gap-6 xl:grid-cols-2">
          <DonorStatsPanel />
          <div className="grid gap-6">
            <RequestsSummaryPanel />
            <BloodTypePanel />
          </div>
        </div>
        {showStock && <StockPanel />}
        <AnalyticsPanel />
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <ActivityFeed />
          <EmailPanel defaultTestAddress={user?.email ?? ''} />
        </div>
        <ChannelsPanel />
        <ReferralsPanel />
        <ClientLogsPanel />
        <DebugPanel />
        <h2 className="mt-4 text-2xl font-bold text-slate-900">
          {t('admin:dashboard.settingsHeading')}
        </h2>
        <NotificationSettingsPanel />
        <HospitalsPanel />
        <FlagsPanel />
      </div>
    </Page>
  );
}
