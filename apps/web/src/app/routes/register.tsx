import { useState } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { roleHome } from '@bdms/shared';
import { PageLoader } from '../../components/full-screen-loader';
import { Page } from '../../components/page';
import { useAuth } from '../../features/auth';
import { RegisterForm } from '../../features/auth/components/register-form';

/** A new registration continues at onboarding (spec section 2: "reached after registering"). */
export const AFTER_REGISTER_PATH = '/donor/onboarding';

export default function RegisterPage() {
  const { t } = useTranslation(['pages', 'auth', 'common']);
  const { status, user } = useAuth();
  const [isRegistering, setIsRegistering] = useState(false);

  if (status === 'loading') {
    return <PageLoader label={t('common:loading.authenticating')} />;
  }
  if (status === 'authenticated' && user) {
    // Just registered: onboarding. Already signed in: home.
    return <Navigate to={isRegistering ? AFTER_REGISTER_PATH : roleHome(user.role)} replace />;
  }
  return (
    <Page
      title={t('pages:register.title')}
      description={t('pages:register.description')}
      lead={t('pages:register.intro')}
    >
      <div className="mt-8 max-w-xl">
        <RegisterForm onSubmitting={setIsRegistering} />
      </div>
    </Page>
  );
}
