import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export default function ForgotPasswordPage() {
  const { t } = useTranslation('pages');
  return (
    <Page
      title={t('forgotPassword.title')}
      description={t('forgotPassword.description')}
      lead={t('forgotPassword.intro')}
    >
      <div className="mt-8 max-w-md">
        <ForgotPasswordForm />
      </div>
    </Page>
  );
}
