import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import type { SignInState } from '../../features/auth/redirect';
import {
  InvalidResetLink,
  ResetPasswordForm,
} from '../../features/auth/components/reset-password-form';

/** `/reset-password?token=…`, the link from the reset e-mail (valid 1 hour, single use). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('pages');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const token = searchParams.get('token');
  const onReset = () => {
    const state: SignInState = { notice: 'passwordReset' };
    void navigate('/login', { replace: true, state });
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
