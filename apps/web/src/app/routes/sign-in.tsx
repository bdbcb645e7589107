import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Role } from '@bdms/shared';
import { Alert } from '../../components/alert';
import { PageLoader } from '../../components/full-screen-loader';
import { Page } from '../../components/page';
import { useFeatureFlag } from '../../config/use-config';
import { useAuth } from '../../features/auth';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { afterSignInPath, type SignInState } from '../../features/auth/redirect';

const LINK = 'inline-flex min-h-11 items-center font-semibold text-primary-700 underline';

const PAGE_KEYS = { donor: 'login', admin: 'adminLogin', hospital: 'hospitalLogin' } as const;

/** Shows `children` to visitors; a signed-in user goes where they were headed, or home. */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { status, user } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <PageLoader label={t('loading.authenticating')} />;
  if (status === 'authenticated' && user) {
    return <Navigate to={afterSignInPath(location.state, user)} replace />;
  }
  return children;
}

/**
 * /login and /signin (any account), /admin/login and /hospital/login (they send their role; the
 * server refuses another with ROLE_MISMATCH). After sign-in: back to the remembered origin, else
 * the role's home.
 */
function SignInScreen({ role = 'donor' }: { role?: Role }) {
  const { t } = useTranslation(['pages', 'auth']);
  const location = useLocation();
  const key = PAGE_KEYS[role];
  const notice = (location.state as SignInState | null)?.notice;
  const canRegisterHospital = useFeatureFlag('hospitalRegistration');

  return (
    <SignedOutOnly>
      <Page
        title={t(`pages:${key}.title`)}
        description={t(`pages:${key}.description`)}
        lead={t(`pages:${key}.intro`)}
      >
        <div className="mt-8 flex max-w-md flex-col gap-6">
          {notice === 'passwordReset' && (
            <Alert variant="success" dismissible={false} message={t('auth:login.passwordReset')} />
          )}
          <SignInForm role={role === 'donor' ? undefined : role} />
          <p className="text-slate-700">
            {t('auth:login.noAccount')}{' '}
            <Link to="/register" className={LINK}>
              {t('auth:login.register')}
            </Link>
          </p>
          <div className="border-t border-slate-200 pt-4 text-slate-700">
            {role === 'donor' ? (
              <>
                <p>{t('auth:login.otherRoleLinks')}</p>
                <p className="flex flex-wrap gap-x-5">
                  <Link to="/hospital/login" className={LINK}>
                    {t('auth:login.hospitalLink')}
                  </Link>
                  <Link to="/admin/login" className={LINK}>
                    {t('auth:login.adminLink')}
                  </Link>
                </p>
              </>
            ) : (
              <>
                {role === 'hospital' && canRegisterHospital && (
                  <p>
                    {t('auth:login.hospitalRegisterPrompt')}{' '}
                    <Link to="/hospital/register" className={LINK}>
                      {t('auth:login.hospitalRegisterLink')}
                    </Link>
                  </p>
                )}
                <Link to="/login" className={LINK}>
                  {t('auth:login.donorLink')}
                </Link>
              </>
            )}
          </div>
        </div>
      </Page>
    </SignedOutOnly>
  );
}

export default function SignInPage() {
  return <SignInScreen />;
}

export function AdminSignInPage() {
  return <SignInScreen role="admin" />;
}

export function HospitalSignInPage() {
  return <SignInScreen role="hospital" />;
}
