import { useId, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Facility } from '@bdms/shared';
import { buttonClasses } from '../../../components/button';
import { LinkButton } from '../../../components/link-button';
import { Page } from '../../../components/page';
import { LoadError } from '../../../components/query-state';
import { isApiError } from '../../../lib/api-client';
import { useFacility } from '../api/facilities-api';
import {
  addressLine,
  directionsUrl,
  displayName,
  emailAddresses,
  placeLine,
  websiteHref,
} from '../lib/format';
import { splitPhoneNumbers } from '../lib/phone-numbers';
import { DataAttribution, DataNotice } from './data-notice';
import { FacilityBadges } from './facility-badges';
import { ArrowLeftIcon, DirectionsIcon, ExternalIcon } from './icons';
import { LazyFacilityMap } from './lazy-facility-map';
import { PhoneLinks } from './phone-links';
import { FacilityStockSection } from './stock-table';

const FACILITY_ID = /^bb-\d{1,6}$/;
const LINK = 'font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800';

/** The directory view the visitor came from (its filters kept), else the directory. */
function useBackTarget(): { to: string; isFromList: boolean } {
  const state = useLocation().state as { from?: unknown } | null;
  const from = state?.from;
  return typeof from === 'string' && /^\/blood-banks(\?|$)/.test(from)
    ? { to: from, isFromList: true }
    : { to: '/blood-banks', isFromList: false };
}

function BackLink() {
  const { t } = useTranslation('facilities');
  const back = useBackTarget();
  return (
    <Link to={back.to} className={`inline-flex min-h-11 items-center gap-2 ${LINK}`}>
      <ArrowLeftIcon />
      {back.isFromList ? t('detail.backToResults') : t('detail.backToDirectory')}
    </Link>
  );
}

/** Publishing tools wrote some apostrophes as HTML entities ("Sunday&#39;s"). */
function decodeEntities(text: string): string {
  return text
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** /blood-banks/:id: everything the directory has on one blood bank, calls first. */
export function FacilityDetails({ id }: { id: string }) {
  const { t } = useTranslation(['facilities', 'pages']);
  const isValidId = FACILITY_ID.test(id);
  const query = useFacility(id, isValidId);

  const isNotFound =
    !isValidId || (isApiError(query.error) && [400, 404].includes(query.error.status));
  if (isNotFound) return <FacilityNotFound />;

  if (!query.data) {
    return (
      <Page title={t('pages:facility.title')} description={t('pages:facility.description')}>
        <div className="mt-6 flex flex-col gap-6">
          <BackLink />
          {query.isError ? (
            <LoadError error={query.error} onRetry={() => void query.refetch()} />
          ) : (
            <div role="status" className="flex max-w-3xl animate-pulse flex-col gap-4">
              <span className="sr-only">{t('detail.loading')}</span>
              <div aria-hidden="true" className="h-6 w-1/3 rounded bg-slate-200" />
              <div aria-hidden="true" className="h-14 w-full rounded-lg bg-slate-200" />
              <div aria-hidden="true" className="h-4 w-2/3 rounded bg-slate-200" />
              <div aria-hidden="true" className="h-4 w-1/2 rounded bg-slate-200" />
            </div>
          )}
        </div>
      </Page>
    );
  }
  return <FacilityView facility={query.data.facility} />;
}

function FacilityView({ facility }: { facility: Facility }) {
  const { t } = useTranslation(['facilities', 'pages']);
  const place = [facility.city ?? facility.district, facility.state]
    .filter((part): part is string => Boolean(part))
    .map(displayName)
    .join(', ');
  const numbers = splitPhoneNumbers(facility.phone, facility.mobile);
  const emails = emailAddresses(facility.email);
  const website = websiteHref(facility.website);
  const address = addressLine(facility.address);
  const hasPoint = facility.latitude !== null && facility.longitude !== null;
  const yesNo = (value: boolean | null) =>
    value === null ? t('detail.unknown') : value ? t('detail.yes') : t('detail.no');

  return (
    <Page title={facility.name} description={t('detail.description', { place })}>
      <div className="mt-2 flex flex-col gap-6">
        <FacilityBadges facility={facility} />
        <BackLink />
        <DataNotice className="max-w-4xl" withSource={false} />

        <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <div className="flex flex-col gap-8">
            <Section title={t('detail.call')}>
              {numbers.length > 0 ? (
                <PhoneLinks numbers={numbers} variant="buttons" className="max-w-md" />
              ) : (
                <p className="text-slate-700">{t('detail.noPhone')}</p>
              )}
            </Section>

            <FacilityStockSection id={facility.id} />

            <Section title={t('detail.address')}>
              <address className="text-slate-800 not-italic">
                {address && <span className="block">{address}</span>}
                <span className="block">{placeLine(facility)}</span>
              </address>
              <a
                href={directionsUrl(facility)}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses({ variant: 'secondary', className: 'self-start' })}
              >
                <DirectionsIcon />
                {t('detail.directions')}
                <span className="sr-only"> {t('detail.newTab')}</span>
              </a>
            </Section>

            <Section title={t('detail.services')}>
              <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-slate-800">
                <dt className="font-semibold">{t('services.components')}</dt>
                <dd>{yesNo(facility.components)}</dd>
                <dt className="font-semibold">{t('services.apheresis')}</dt>
                <dd>{yesNo(facility.apheresis)}</dd>
                <dt className="font-semibold">{t('services.open24x7')}</dt>
                <dd>{facility.is24x7 ? t('detail.yes') : t('detail.notSaid')}</dd>
                <dt className="font-semibold">{t('services.serviceTime')}</dt>
                <dd>
                  {facility.serviceTime
                    ? decodeEntities(facility.serviceTime)
                    : t('detail.notPublished')}
                </dd>
              </dl>
            </Section>

            {(emails.length > 0 || website) && (
              <Section title={t('detail.online')}>
                <ul className="flex flex-col gap-1">
                  {emails.map((email) => (
                    <li key={email}>
                      <a
                        href={`mailto:${email}`}
                        className={`inline-flex min-h-11 items-center break-all ${LINK}`}
                      >
                        {email}
                      </a>
                    </li>
                  ))}
                  {website && (
                    <li>
                      <a
                        href={website}
                        target="_blank"
                        rel="noopener noreferrer"
                        className={`inline-flex min-h-11 items-center gap-2 break-all ${LINK}`}
                      >
                        {t('detail.website')}
                        <ExternalIcon className="size-4 shrink-0" />
                        <span className="sr-only"> {t('detail.newTab')}</span>
                      </a>
                    </li>
                  )}
                </ul>
              </Section>
            )}
          </div>

          {hasPoint && (
            <Section title={t('detail.map')}>
              <LazyFacilityMap
                points={[
                  {
                    id: facility.id,
                    name: facility.name,
                    latitude: facility.latitude!,
                    longitude: facility.longitude!,
                    href: `/blood-banks/${encodeURIComponent(facility.id)}`,
                    detail: placeLine(facility),
                  },
                ]}
                label={t('map.facilityLabel', { name: facility.name })}
                tilesFailedText={t('map.tilesFailedFacility')}
                whenNearScreen
                className="h-64 sm:h-80"
              />
            </Section>
          )}
        </div>
        <DataAttribution className="max-w-4xl border-t border-slate-200 pt-4 text-sm text-slate-700" />
      </div>
    </Page>
  );
}

function FacilityNotFound() {
  const { t } = useTranslation('facilities');
  return (
    <Page
      title={t('detail.notFoundTitle')}
      description={t('detail.notFoundMessage')}
      lead={t('detail.notFoundMessage')}
    >
      <LinkButton to="/blood-banks" className="mt-6">
        {t('detail.backToDirectory')}
      </LinkButton>
    </Page>
  );
}
