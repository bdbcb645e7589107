import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../components/button';
import { LinkButton } from '../../components/link-button';
import { DropIcon, FacebookIcon, InstagramIcon, MailIcon, XLogoIcon } from '../../components/icons';
import { useConfig } from '../../config/use-config';
import { isStandaloneDisplay } from '../pwa/standalone';

const SOCIAL_LINKS: {
  href: string;
  nameKey: 'socialX' | 'socialFacebook' | 'socialInstagram';
  icon: ReactNode;
}[] = [
  { href: 'https://x.com', nameKey: 'socialX', icon: <XLogoIcon /> },
  { href: 'https://www.facebook.com', nameKey: 'socialFacebook', icon: <FacebookIcon /> },
  { href: 'https://www.instagram.com', nameKey: 'socialInstagram', icon: <InstagramIcon /> },
];

/**
 * "Install app": the browser's install dialog, or the spec's install alerts (no prompt available,
 * installation failed, with the instructions). The install code (app/pwa/pwa-layer.tsx, which
 * shows the alerts) comes after the first page; the button only asks it to run.
 */
function installApp(): void {
  import('../pwa/pwa-layer').then(
    (pwa) => pwa.requestInstall('button'),
    () => {},
  );
}

const LINK_CLASS =
  'inline-flex min-h-11 items-center rounded text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline';

export function Footer() {
  const { t } = useTranslation();
  const { supportEmail, flags } = useConfig();
  const appName = t('appName');

  const links = [
    { to: '/', label: t('footer.home') },
    { to: '/about', label: t('footer.about') },
    { to: '/help', label: t('footer.help') },
    { to: '/contact', label: t('footer.contact') },
    { to: '/privacy', label: t('footer.privacy') },
    { to: '/terms', label: t('footer.terms') },
  ];

  return (
    <footer className="mt-auto border-t border-slate-200 bg-slate-50">
      <div className="container-page grid gap-10 py-10 md:grid-cols-2 lg:grid-cols-4">
        <div className="flex flex-col gap-3">
          <p className="flex items-center gap-2 font-bold text-slate-900">
            <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary-700 text-white">
              <DropIcon className="size-5" />
            </span>
            {appName}
          </p>
          <p className="text-slate-700">{t('footer.tagline', { appName })}</p>
          <h2 className="mt-2 text-base font-semibold text-slate-900">
            {t('footer.partnersHeading')}
          </h2>
          <ul className="list-disc ps-5 text-slate-700">
            <li>{t('footer.partnerBloodCentres')}</li>
            <li>{t('footer.partnerHospitals')}</li>
            <li>{t('footer.partnerVoluntary')}</li>
          </ul>
        </div>

        <nav aria-label={t('footer.linksHeading')}>
          <h2 className="text-base font-semibold text-slate-900">{t('footer.linksHeading')}</h2>
          <ul className="mt-2 grid grid-cols-2 gap-x-4 md:grid-cols-1">
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={LINK_CLASS}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex flex-col gap-3">
          {supportEmail && (
            <>
              <h2 className="text-base font-semibold text-slate-900">
                {t('footer.contactHeading')}
              </h2>
              <a href={`mailto:${supportEmail}`} className={`${LINK_CLASS} mb-2 gap-2 break-all`}>
                <MailIcon className="size-5 shrink-0" />
                <span>
                  <span className="sr-only">{t('footer.emailLabel')}: </span>
                  {supportEmail}
                </span>
              </a>
            </>
          )}
          <h2 className="text-base font-semibold text-slate-900">{t('footer.socialHeading')}</h2>
          <ul className="flex gap-2">
            {SOCIAL_LINKS.map(({ href, nameKey, icon }) => (
              <li key={href}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={t('footer.opensInNewTab', { name: t(`footer.${nameKey}`) })}
                  className="inline-flex size-11 items-center justify-center rounded-lg border-2 border-slate-300 bg-white text-slate-800 hover:border-slate-400 hover:text-slate-900"
                >
                  {icon}
                </a>
              </li>
            ))}
          </ul>
        </div>

        <div className="flex flex-col items-start gap-3 self-start rounded-xl border-2 border-primary-200 bg-white p-5">
          <h2 className="text-lg font-semibold text-slate-900">{t('footer.ctaHeading')}</h2>
          <p className="text-slate-700">{t('footer.ctaText')}</p>
          <LinkButton to="/register">{t('footer.ctaButton')}</LinkButton>
        </div>
      </div>
      <div className="border-t border-slate-200">
        <div className="container-page flex flex-wrap items-center justify-between gap-3 py-4">
          <p className="text-sm text-slate-700">
            {t('footer.copyright', { year: new Date().getFullYear(), appName })}
          </p>
          {flags.pwaSupport && !isStandaloneDisplay() && (
            <button
              type="button"
              onClick={installApp}
              className={buttonClasses({ variant: 'secondary' })}
            >
              {t('footer.installApp')}
            </button>
          )}
        </div>
      </div>
    </footer>
  );
}
