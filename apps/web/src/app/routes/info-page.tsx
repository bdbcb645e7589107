import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import type pages from '../../i18n/locales/en/pages.json';

type Pages = typeof pages;
/** Every page with a bundled title (a page that fails to load is named by it). */
export type PageKey = keyof Pages;
/** The pages that can stand in as an info page: those with a description and an intro. */
export type InfoPageKey = {
  [Key in PageKey]: Pages[Key] extends { description: string; intro: string } ? Key : never;
}[PageKey];

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
