import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

function setMetaDescription(content: string): void {
  let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.content = content;
}

/** Sets `<title>` to "<page> · <app name>" and the meta description, in the current language. */
export function usePageMeta(title: string, description: string): void {
  const { t } = useTranslation();
  const appName = t('appName');
  useEffect(() => {
    document.title = t('pageTitle', { page: title, appName });
    setMetaDescription(description);
  }, [t, title, description, appName]);
}
