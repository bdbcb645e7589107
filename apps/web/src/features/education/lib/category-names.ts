import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCategories } from '../api/education';

/**
 * Category slug → name in the visitor's language. English names are the server's (the content is
 * the source); other languages use `education:categories.<slug>`, falling back to the server's
 * English name for a category added to the content since.
 */
export function useCategoryNames(): ReadonlyMap<string, string> {
  const { t, i18n } = useTranslation('education');
  const { data } = useCategories();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const translated =
      language === 'en'
        ? {}
        : (t('categories', { returnObjects: true }) as unknown as Record<string, string>);
    return new Map(
      (data ?? []).map((category) => [
        category.slug,
        Object.hasOwn(translated, category.slug) ? translated[category.slug]! : category.name,
      ]),
    );
  }, [data, language, t]);
}
