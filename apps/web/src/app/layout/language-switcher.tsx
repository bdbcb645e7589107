import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGE_NAMES, LANGUAGES } from '@bdms/shared';
import { controlClasses } from '../../components/control-classes';
import { changeLanguage, isLanguage } from '../../i18n';
import { cn } from '../../lib/cn';

/** Lists the ten languages by their own names, whatever the current language is. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = isLanguage(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;

  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = event.target.value;
    if (isLanguage(next)) void changeLanguage(next);
  };

  return (
    <div className={cn('flex items-center gap-2', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-slate-700">
        {t('language.label')}
      </label>
      {/* A plain select with the form controls' look: the first page needs no form code. */}
      <select
        id={id}
        value={current}
        onChange={onChange}
        className={controlClasses(false, 'w-auto min-w-32 py-1.5 text-sm')}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
