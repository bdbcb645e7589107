import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { NotificationList } from '../../features/notifications/components/notification-list';
import { PhoneChannelSettings } from '../../features/notifications/components/phone-channels';
import { PushSettings } from '../../features/notifications/components/push-settings';

/** /notifications: the list (read, mark all) and push notifications for this device. */
export default function NotificationsPage() {
  const { t } = useTranslation('pages');
  return (
    <Page title={t('notifications.title')} description={t('notifications.description')}>
      <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <NotificationList />
        <div className="grid gap-6">
          <PushSettings />
          <PhoneChannelSettings />
        </div>
      </div>
    </Page>
  );
}
