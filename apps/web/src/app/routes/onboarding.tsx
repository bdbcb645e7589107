import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { useAuthActions } from '../../features/auth';
import { OnboardingFlow } from '../../features/donors/components/onboarding/onboarding-flow';
import { DonorOnly } from './donor-only';

/** /onboarding and /donor/onboarding (the same screen, titled by its path): the registration. */
export default function OnboardingPage() {
  const { t } = useTranslation(['pages', 'onboarding']);
  const page = useLocation().pathname.startsWith('/donor/') ? 'donorOnboarding' : 'onboarding';
  const { refreshUser } = useAuthActions();

  // The status decides what this screen shows: ask the server (the 5-minute cache decides).
  useEffect(() => {
    void refreshUser();
  }, [refreshUser]);

  return (
    <Page
      title={t(`pages:${page}.title`)}
      description={t(`pages:${page}.description`)}
      lead={t('onboarding:lead')}
    >
      <DonorOnly>
        {(user) => (
          <OnboardingFlow donor={user} onStatusChange={() => refreshUser({ force: true })} />
        )}
      </DonorOnly>
    </Page>
  );
}
