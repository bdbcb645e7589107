import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { roleHome, type PasswordResetResult, type Role } from '@bdms/shared';
import { Page } from '../../components/page';
import { useAuthActions } from '../../features/auth';
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
  const { adoptSession } = useAuthActions();
  const token = searchParams.get('token');
  const onReset = async (result: PasswordResetResult) => {
    // Issue #32 item 13: the reset signed this device in; go to the account's home at once.
    if (result.user && result.tokens) {
      const user = await adoptSession({ user: result.user, tokens: result.tokens });
      await navigate(roleHome(user.role), { replace: true });
      return;
    }
    // No session (an account on hold): each account to its own sign-in.
    const state: SignInState = { notice: 'passwordReset' };
    await navigate(SIGN_IN_PATHS[result.role], { replace: true, state });
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
