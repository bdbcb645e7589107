import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ELIGIBILITY_RULES, FACILITY_DATA } from '@bdms/shared';
import { Page } from '../../components/page';
import { ArrowRightIcon } from '../../components/icons';
import { useConfig } from '../../config/use-config';
import { TaggedText } from '../../components/tagged-text';

const LINK =
  'inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline underline-offset-4 hover:text-primary-800';
const INLINE_LINK =
  'font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800';

const strong = (text: string) => <strong className="font-semibold text-slate-900">{text}</strong>;

function Section({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-2xl font-bold text-slate-900">
        {heading}
      </h2>
      {children}
    </section>
  );
}

function ArrowLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={LINK}>
      {children}
      <ArrowRightIcon className="size-5" />
    </Link>
  );
}

/**
 * /about: what the service is and for whom, how privacy works, that it is free, where the blood
 * bank data comes from (with its licence), and how to reach the team. Only facts the product
 * itself implements or its data sources state.
 */
export default function AboutPage() {
  const { t } = useTranslation(['pages', 'site']);
  const { flags } = useConfig();
  const intervals = ELIGIBILITY_RULES.donationIntervalDays;

  const audiences = ['forDonors', 'forRequesters', 'forHospitals', 'forVisitors'] as const;
  const promises = [
    'privacyContacts',
    'privacyVerified',
    'privacyAccept',
    'privacyRest',
    'privacyRights',
  ] as const;

  return (
    <Page
      title={t('pages:about.title')}
      description={t('pages:about.description')}
      lead={t('pages:about.intro')}
    >
      <div className="mt-10 flex max-w-3xl flex-col gap-10 text-lg text-slate-800">
        <Section id="about-what" heading={t('site:about.whatHeading')}>
          <p>{t('site:about.what')}</p>
          <h3 className="mt-2 text-xl font-semibold text-slate-900">
            {t('site:about.forWhomHeading')}
          </h3>
          <ul className="flex list-disc flex-col gap-2 ps-6">
            {audiences.map((key) => (
              <li key={key}>
                <TaggedText text={t(`site:about.${key}`)} tags={{ strong }} />
              </li>
            ))}
          </ul>
        </Section>

        <Section id="about-privacy" heading={t('site:about.privacyHeading')}>
          <p>{t('site:about.privacyIntro')}</p>
          <ul className="flex list-disc flex-col gap-2 ps-6">
            {promises.map((key) => (
              <li key={key}>
                <TaggedText
                  text={t(`site:about.${key}`, { male: intervals.male, female: intervals.female })}
                  tags={{ strong }}
                />
              </li>
            ))}
          </ul>
          <ArrowLink to="/privacy">{t('site:about.privacyPolicy')}</ArrowLink>
        </Section>

        <Section id="about-free" heading={t('site:about.freeHeading')}>
          <p>{t('site:about.free')}</p>
        </Section>

        <Section id="about-data" heading={t('site:about.dataHeading')}>
          <p>
            <TaggedText
              text={t('site:about.data', {
                source: FACILITY_DATA.sourceName,
                date: t('facilityDataDate', { ns: 'common' }),
                licence: FACILITY_DATA.licence,
              })}
              tags={{
                source: (text) => (
                  <a href={FACILITY_DATA.sourceUrl} className={INLINE_LINK}>
                    {text}
                  </a>
                ),
                licence: (text) => (
                  <a href={FACILITY_DATA.licenceUrl} className={INLINE_LINK}>
                    {text}
                  </a>
                ),
              }}
            />
          </p>
          <p>{t('site:about.dataPincodes', { source: FACILITY_DATA.pincodeSource })}</p>
          <p className="rounded-lg border-s-4 border-warning-700 bg-warning-50 p-4 text-base">
            {t('site:about.dataWarning')}
          </p>
          {flags.bloodBankDirectory && (
            <ArrowLink to="/blood-banks">{t('site:about.dataDirectory')}</ArrowLink>
          )}
        </Section>

        <Section id="about-content" heading={t('site:about.contentHeading')}>
          <p>{t('site:about.content')}</p>
          <ArrowLink to="/education">{t('site:about.contentLink')}</ArrowLink>
        </Section>

        <Section id="about-reach" heading={t('site:about.reachHeading')}>
          <p>{t('site:about.reach')}</p>
          <div className="flex flex-col gap-1 sm:flex-row sm:gap-6">
            <ArrowLink to="/help">{t('site:about.helpLink')}</ArrowLink>
            <ArrowLink to="/contact">{t('site:about.contactLink')}</ArrowLink>
          </div>
          {flags.emergencyServices && (
            <div className="mt-2 rounded-xl border-2 border-primary-700 bg-primary-50 p-5 text-base">
              <p className="text-slate-900">{t('site:about.emergency')}</p>
              <ArrowLink to="/emergency">{t('site:about.emergencyLink')}</ArrowLink>
            </div>
          )}
        </Section>
      </div>
    </Page>
  );
}
