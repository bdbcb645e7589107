import { useTranslation } from 'react-i18next';
import { InfoIcon } from '../../../components/icons';
import { useReadsContentLanguage } from '../lib/content-language';

/** Said to visitors reading in another language: the text below is in English. */
export function EnglishOnlyNote({ className }: { className?: string }) {
  const { t } = useTranslation('education');
  const readsEnglish = useReadsContentLanguage();
  if (readsEnglish) return null;
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
