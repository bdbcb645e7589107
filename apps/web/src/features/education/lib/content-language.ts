import { useTranslation } from 'react-i18next';

/**
 * The articles, answers and policies are written in English only (apps/server/content). Marking
 * them `lang="en"` lets a screen reader set to Hindi or Spanish read them with English voices.
 */
export const CONTENT_LANGUAGE = 'en';

/** Whether the visitor reads the app in the content's language. */
export function useReadsContentLanguage(): boolean {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language) === CONTENT_LANGUAGE;
}
