import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Role } from '@bdms/shared';
import { Page } from '../../components/page';
import type { SignInState } from '../../features/auth/redirect';
import {
  InvalidResetLink,
  ResetPasswordForm,
} from '../../features/auth/components/reset-password-form';

const SIGN_IN_PATHS: Record<Role, string> = {
  donor: '/login',
  admin: '/admin/login',
  hospital: '/hospital/login',
};

/** `/reset-password?token=…`, the link from the reset e-mail (valid 1 hour, single use). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('pages');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const token = searchParams.get('token');
  // Each account to its own sign-in: a hospital's invitation ends on the hospital sign-in.
  const onReset = (role: Role) => {
    const state: SignInState = { notice: 'passwordReset' };
    void navigate(SIGN_IN_PATHS[role], { replace: true, state });
  };
  return (
    <Page
      title={t('resetPassword.title')}
      description={t('resetPassword.description')}
      lead={token ? t('resetPassword.intro') : undefined}
    >
      <div className="mt-8 max-w-md">
        {token ? <ResetPasswordForm token={token} onReset={onReset} /> : <InvalidResetLink />}
      </div>
    </Page>
  );
}
