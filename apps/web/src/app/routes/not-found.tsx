import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../components/link-button';
import { Page } from '../../components/page';

export default function NotFoundPage() {
  const { t } = useTranslation('errors');
  return (
    <Page
      title={t('notFound.title')}
      description={t('notFound.description')}
      lead={t('notFound.message')}
    >
      <LinkButton to="/" className="mt-6">
        {t('notFound.goHome')}
      </LinkButton>
    </Page>
  );
}
