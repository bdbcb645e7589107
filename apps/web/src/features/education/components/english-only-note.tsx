import { useTranslation } from 'react-i18next';
import type { ContentLanguage } from '@bdms/shared';
import { InfoIcon } from '../../../components/icons';
import { useIsEnglishFallback } from '../lib/content-language';

/**
 * Said to visitors reading in another language when the text below is the English one (it has
 * not been translated into their language).
 */
export function EnglishOnlyNote({
  textLanguage,
  className,
}: {
  /** The language the text is served in (its `language`). */
  textLanguage: ContentLanguage;
  className?: string;
}) {
  const { t } = useTranslation('education');
  if (!useIsEnglishFallback(textLanguage)) return null;
  return (
    <p
      className={
        className ??
        'mt-4 flex max-w-prose items-start gap-2 rounded-lg bg-info-50 p-3 text-info-800'
      }
    >
      <InfoIcon className="mt-0.5 size-5 shrink-0" />
      <span>{t('englishOnly')}</span>
    </p>
  );
}
