import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../../components/error-boundary';
import { ClockIcon, HeartIcon, ShieldIcon } from '../../components/icons';
import { LinkButton } from '../../components/link-button';
import { usePageMeta } from '../../lib/use-page-meta';
import { useFeatureFlag } from '../../config/use-config';
import { LIVE_PLACEHOLDER } from '../../features/site/home-placeholder';
import { loadNamespaces } from '../../i18n';
import { lazyWithRetry } from '../../lib/lazy-with-retry';

/**
 * The live figures and the featured articles: a lazy chunk with its texts (`site`), so the first
 * load stays within its budget. A block of their height holds their place meanwhile.
 */
const LiveSections = lazyWithRetry<object>('home-live', () =>
  Promise.all([import('../../features/site/components/home-live'), loadNamespaces(['site'])]).then(
    ([module]) => module,
  ),
);

const STEPS = ['step1', 'step2', 'step3', 'step4'] as const;

function Steps({ audience }: { audience: 'donors' | 'requesters' }) {
  const { t } = useTranslation('home');
  const headingId = `how-${audience}`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h3 id={headingId} className="text-xl font-semibold text-slate-900">
        {t(`howItWorks.${audience}.heading`)}
      </h3>
      <ol className="mt-4 flex flex-col gap-4">
        {STEPS.map((step, index) => (
          <li key={step} className="flex gap-4">
            <span
              aria-hidden="true"
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-700 font-bold text-white"
            >
              {index + 1}
            </span>
            <div>
              <p className="font-semibold text-slate-900">
                {t(`howItWorks.${audience}.${step}.title`)}
              </p>
              <p className="text-slate-700">{t(`howItWorks.${audience}.${step}.text`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

export default function HomePage() {
  const { t } = useTranslation('home');
  const showEmergency = useFeatureFlag('emergencyServices');
  const showBloodBanks = useFeatureFlag('bloodBankDirectory');
  usePageMeta(t('meta.title'), t('meta.description'));

  const claims: { key: 'free' | 'privacy' | 'rest'; icon: ReactNode }[] = [
    { key: 'free', icon: <HeartIcon className="size-6" /> },
    { key: 'privacy', icon: <ShieldIcon className="size-6" /> },
    { key: 'rest', icon: <ClockIcon className="size-6" /> },
  ];

  return (
    <div className="animate-page-in">
      <section className="border-b border-slate-200 bg-gradient-to-b from-primary-50 to-white">
        <div className="container-page py-10 sm:py-16">
          <p className="inline-flex rounded-full bg-white px-3 py-1 text-sm font-semibold text-primary-800 ring-1 ring-primary-200">
            {t('hero.eyebrow')}
          </p>
          <h1 className="mt-4 max-w-3xl text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl">
            {t('hero.title')}
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-700 sm:text-xl">{t('hero.lead')}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <LinkButton to="/register" size="lg">
              {t('hero.register')}
            </LinkButton>
            {showEmergency && (
              <LinkButton to="/emergency" size="lg" variant="danger">
                {t('hero.emergency')}
              </LinkButton>
            )}
            {showBloodBanks && (
              <LinkButton to="/blood-banks" size="lg" variant="secondary">
                {t('hero.bloodBanks')}
              </LinkButton>
            )}
            {!showEmergency && (
              <a
                href="#how-it-works"
                className="inline-flex min-h-13 items-center justify-center rounded-lg px-6 text-lg font-semibold text-slate-800 underline hover:bg-slate-100"
              >
                {t('hero.howItWorks')}
              </a>
            )}
          </div>
        </div>
      </section>

      <section aria-labelledby="claims-heading" className="container-page py-10 sm:py-14">
        <h2 id="claims-heading" className="text-2xl font-bold text-slate-900 sm:text-3xl">
          {t('claims.heading')}
        </h2>
        <ul className="stagger mt-6 grid gap-4 md:grid-cols-3">
          {claims.map(({ key, icon }) => (
            // Card's markup, inline: the shared Card would be one more request on the first load.
            <li key={key} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="mb-2 flex items-start gap-3">
                <span className="mt-0.5 shrink-0 text-primary-700">{icon}</span>
                <h3 className="text-lg font-semibold text-slate-900">{t(`claims.${key}.title`)}</h3>
              </div>
              <p className="text-slate-700">{t(`claims.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      {showEmergency && (
        <section aria-labelledby="emergency-heading" className="container-page pb-10">
          <div className="flex flex-col gap-4 rounded-xl border-2 border-primary-700 bg-primary-50 p-6 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <h2 id="emergency-heading" className="text-2xl font-bold text-primary-900">
                {t('emergencyCta.heading')}
              </h2>
              <p className="mt-2 max-w-2xl text-slate-800">{t('emergencyCta.text')}</p>
            </div>
            <LinkButton to="/emergency" size="lg" className="shrink-0">
              {t('emergencyCta.button')}
            </LinkButton>
          </div>
        </section>
      )}

      <section
        id="how-it-works"
        aria-labelledby="how-heading"
        className="scroll-mt-4 bg-slate-50 py-10 sm:py-14"
      >
        <div className="container-page">
          <h2 id="how-heading" className="text-2xl font-bold text-slate-900 sm:text-3xl">
            {t('howItWorks.heading')}
          </h2>
          <div className="mt-6 grid gap-6 lg:grid-cols-2">
            <Steps audience="donors" />
            <Steps audience="requesters" />
          </div>
        </div>
      </section>

      {/* Left out if its code cannot load: the rest of the page does not depend on it. */}
      <ErrorBoundary fallback={() => null}>
        <Suspense fallback={<div className={LIVE_PLACEHOLDER} />}>
          <LiveSections />
        </Suspense>
      </ErrorBoundary>

      <section aria-labelledby="register-heading" className="container-page py-10 sm:py-14">
        <div className="flex flex-col items-start gap-4 rounded-xl border border-slate-200 bg-slate-100 p-6 sm:p-8">
          <h2 id="register-heading" className="text-2xl font-bold text-slate-900">
            {t('registerCta.heading')}
          </h2>
          <p className="max-w-2xl text-lg text-slate-700">{t('registerCta.text')}</p>
          <LinkButton to="/register" size="lg">
            {t('registerCta.button')}
          </LinkButton>
        </div>
      </section>
    </div>
  );
}
