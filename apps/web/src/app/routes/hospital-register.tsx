import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Page } from '../../components/page';
import { useFeatureFlag } from '../../config/use-config';
import { useAuthActions } from '../../features/auth';
import { FacilityPicker } from '../../features/facilities';
import { registerHospital } from '../../features/hospitals/api/registration-api';
import { RegistrationForm } from '../../features/hospitals/components/registration-form';
import NotFoundPage from './not-found';
import { SignedOutOnly } from './sign-in';

const LINK = 'inline-flex min-h-11 items-center font-semibold text-primary-700 underline';

/**
 * /hospital/register (flag `hospitalRegistration`): a blood centre or hospital registers itself
 * and lands on its dashboard, which says it waits for an administrator. Flag off: not found.
 */
export default function HospitalRegisterPage() {
  const { t, i18n } = useTranslation(['pages', 'hospital']);
  const isOpen = useFeatureFlag('hospitalRegistration');
  const { adoptSession } = useAuthActions();
  const navigate = useNavigate();
  if (!isOpen) return <NotFoundPage />;
  return (
    <SignedOutOnly>
      <Page
        title={t('pages:hospitalRegister.title')}
        description={t('pages:hospitalRegister.description')}
        lead={t('pages:hospitalRegister.intro')}
      >
        <div className="mt-8 flex flex-col gap-6">
          <RegistrationForm
            FacilityPicker={FacilityPicker}
            language={i18n.resolvedLanguage ?? 'en'}
            onSubmit={async (body) => {
              const result = await registerHospital(body);
              await adoptSession(result);
              await navigate('/hospital/dashboard', { replace: true });
            }}
          />
          <p className="text-slate-700">
            {t('hospital:register.haveAccount')}{' '}
            <Link to="/hospital/login" className={LINK}>
              {t('hospital:register.signIn')}
            </Link>
          </p>
        </div>
      </Page>
    </SignedOutOnly>
  );
}
