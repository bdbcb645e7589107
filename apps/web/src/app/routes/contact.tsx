import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { ArrowRightIcon, MailIcon } from '../../components/icons';
import { useConfig } from '../../config/use-config';
import { ContactForm } from '../../features/site/components/contact-form';

const LINK =
  'inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline underline-offset-4 hover:text-primary-800';

/**
 * /contact: the contact form (stored and e-mailed to the support address), the support address
 * itself (`GET /api/v1/config`), the help centre, and where to go when a patient needs blood now.
 */
export default function ContactPage() {
  const { t } = useTranslation(['pages', 'site']);
  const { supportEmail, flags } = useConfig();

  return (
    <Page
      title={t('pages:contact.title')}
      description={t('pages:contact.description')}
      lead={t('pages:contact.intro')}
    >
      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:gap-12">
        <section aria-labelledby="contact-form-heading" className="max-w-2xl">
          <h2 id="contact-form-heading" className="mb-4 text-2xl font-bold text-slate-900">
            {t('site:contact.formHeading')}
          </h2>
          <ContactForm />
        </section>

        <aside aria-labelledby="contact-other-heading" className="flex flex-col gap-6">
          <h2 id="contact-other-heading" className="text-2xl font-bold text-slate-900">
            {t('site:contact.otherWaysHeading')}
          </h2>
          {supportEmail && (
            <div>
              <h3 className="text-lg font-semibold text-slate-900">{t('site:contact.emailUs')}</h3>
              <a href={`mailto:${supportEmail}`} className={`${LINK} break-all`}>
                <MailIcon className="size-5 shrink-0" />
                {supportEmail}
              </a>
            </div>
          )}
          <div>
            <h3 className="text-lg font-semibold text-slate-900">{t('site:contact.helpTitle')}</h3>
            <p className="mt-1 text-slate-700">{t('site:contact.helpText')}</p>
            <Link to="/help" className={LINK}>
              {t('site:contact.helpLink')}
              <ArrowRightIcon className="size-5" />
            </Link>
          </div>
          {flags.emergencyServices && (
            <div className="rounded-xl border-2 border-primary-700 bg-primary-50 p-5">
              <h3 className="text-lg font-semibold text-slate-900">
                {t('site:contact.emergencyTitle')}
              </h3>
              <p className="mt-1 text-slate-800">{t('site:contact.emergencyText')}</p>
              <Link to="/emergency" className={LINK}>
                {t('site:contact.emergencyLink')}
                <ArrowRightIcon className="size-5" />
              </Link>
            </div>
          )}
        </aside>
      </div>
    </Page>
  );
}
