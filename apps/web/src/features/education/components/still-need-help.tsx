import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MailIcon } from '../../../components/icons';
import { LinkButton } from '../../../components/link-button';

/** "Still need help?": the way to the contact form when no answer fits. */
export function StillNeedHelp() {
  const { t } = useTranslation('education');
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mt-12 flex flex-col items-start gap-3 rounded-xl border-2 border-primary-200 bg-primary-50 p-6"
    >
      <h2 id={headingId} className="flex items-center gap-2 text-2xl font-bold text-slate-900">
        <MailIcon className="size-6 text-primary-700" />
        {t('help.stillNeedHelp')}
      </h2>
      <p className="max-w-prose text-slate-800">{t('help.stillNeedHelpText')}</p>
      <LinkButton to="/contact">{t('help.contactUs')}</LinkButton>
    </section>
  );
}
