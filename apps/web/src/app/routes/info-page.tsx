import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import type pages from '../../i18n/locales/en/pages.json';

export type InfoPageKey = keyof typeof pages;

/**
 * A route whose feature arrives in a later issue: its real heading and what it is for.
 * Each feature replaces its entry in the router with its own page.
 */
export function InfoPage({ page }: { page: InfoPageKey }) {
  const { t } = useTranslation('pages');
  return (
    <Page
      title={t(`${page}.title`)}
      description={t(`${page}.description`)}
      lead={t(`${page}.intro`)}
    />
  );
}
