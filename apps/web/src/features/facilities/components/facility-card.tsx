import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Facility } from '@bdms/shared';
import { addressLine, formatDistance, placeLine } from '../lib/format';
import { splitPhoneNumbers } from '../lib/phone-numbers';
import { FacilityBadges } from './facility-badges';
import { PhoneLinks } from './phone-links';
import { StockNow, type StockNowFigure } from './stock-now';

/** Enough numbers for a card; the facility page lists them all. */
const CARD_NUMBERS = 4;

export function facilityPath(id: string): string {
  return `/blood-banks/${encodeURIComponent(id)}`;
}

/**
 * One result: name (to its page), category and services, address, tap-to-call numbers and, in a
 * "near" list, the distance; with the stock filter, the units of the group asked and their age.
 * `from` is where its page's back link returns to.
 */
export function FacilityCard({
  facility,
  distanceKm,
  stock,
  from,
}: {
  facility: Facility;
  distanceKm?: number;
  stock?: StockNowFigure;
  from: string;
}) {
  const { t, i18n } = useTranslation('facilities');
  const titleId = useId();
  const numbers = splitPhoneNumbers(facility.phone, facility.mobile);
  const shown = numbers.slice(0, CARD_NUMBERS);
  const address = addressLine(facility.address);
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id={titleId} className="text-lg leading-snug font-semibold text-slate-900">
          <Link
            to={facilityPath(facility.id)}
            state={{ from }}
            className="underline-offset-2 hover:text-primary-700 hover:underline"
          >
            {facility.name}
          </Link>
        </h3>
        {distanceKm !== undefined && (
          <p className="shrink-0 rounded-full bg-info-50 px-2.5 py-0.5 text-sm font-semibold whitespace-nowrap text-info-800 ring-1 ring-info-200 ring-inset">
            {t('card.distance', { distance: formatDistance(distanceKm, i18n.language) })}
          </p>
        )}
      </div>
      {stock && <StockNow figure={stock} />}
      <FacilityBadges facility={facility} />
      <div className="text-slate-700">
        {address && <p>{address}</p>}
        <p>{placeLine(facility)}</p>
      </div>
      {shown.length > 0 ? (
        <PhoneLinks numbers={shown} />
      ) : (
        <p className="text-slate-700">{t('card.noPhone')}</p>
      )}
      {numbers.length > shown.length && (
        <p className="text-sm text-slate-700">
          {t('card.moreNumbers', { count: numbers.length - shown.length })}
        </p>
      )}
    </article>
  );
}
