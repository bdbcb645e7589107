import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, type BadgeVariant } from '../../components/badge';
import { Page } from '../../components/page';
import { useAuth, useAuthActions } from '../../features/auth';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { ProfileForm } from '../../features/auth/components/profile-form';
import { YourDataSection } from '../../features/auth/components/your-data-section';
import { useDisplayNames } from '../../features/auth/display-name';

const STATUS_BADGES: Record<string, BadgeVariant> = {
  pending: 'warning',
  approved: 'success',
  active: 'success',
  rejected: 'primary',
  suspended: 'primary',
};

const KNOWN_STATUSES = ['pending', 'approved', 'active', 'rejected', 'suspended'] as const;

/** /profile and /donor/profile (protected): one's own details and password. */
function ProfileScreen({ page }: { page: 'profile' | 'donorProfile' }) {
  const { t } = useTranslation(['pages', 'auth']);
  const { user } = useAuth();
  const { refreshUser } = useAuthActions();
  const names = useDisplayNames(user);

  // Show what the server has now (the 5-minute cache decides whether to ask).
  useEffect(() => {
    void refreshUser();
  }, [refreshUser]);

  if (!user) return null;
  const status = user.status ?? 'pending';
  const knownStatus = KNOWN_STATUSES.find((value) => value === status);

  return (
    <Page title={t(`pages:${page}.title`)} description={t(`pages:${page}.description`)}>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-4">
        <p className="text-xl text-slate-800">
          {t('auth:profile.greeting', {
            name: user.role === 'donor' ? names.donor : names.header,
          })}
        </p>
        <p className="flex items-center gap-2">
          <span className="text-slate-700">{t('auth:profile.status')}:</span>
          <Badge variant={STATUS_BADGES[status] ?? 'neutral'}>
            {knownStatus ? t(`auth:profile.statuses.${knownStatus}`) : status}
          </Badge>
        </p>
      </div>
      <div className="mt-8 grid max-w-xl gap-12">
        <section aria-labelledby="profile-details-heading" className="flex flex-col gap-5">
          <h2 id="profile-details-heading" className="text-2xl font-bold text-slate-900">
            {t('auth:profile.details')}
          </h2>
          <ProfileForm user={user} />
        </section>
        <section aria-labelledby="profile-password-heading" className="flex flex-col gap-5">
          <h2 id="profile-password-heading" className="text-2xl font-bold text-slate-900">
            {t('auth:profile.changePassword')}
          </h2>
          <ChangePasswordForm userId={user.id} />
        </section>
        <YourDataSection userId={user.id} />
      </div>
    </Page>
  );
}

export default function ProfilePage() {
  return <ProfileScreen page="profile" />;
}

export function DonorProfilePage() {
  return <ProfileScreen page="donorProfile" />;
}
