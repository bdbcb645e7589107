import { useId, useLayoutEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  BLOOD_COMPONENTS,
  BLOOD_TYPES,
  isStockStale,
  type BloodComponent,
  type BloodType,
  type StockCentre,
} from '@bdms/shared';
import { Button } from '../../../components/button';
import { Field, Input, Select } from '../../../components/field';
import { LoadingState } from '../../../components/query-state';
import { isApiError } from '../../../lib/api-client';
import { formatCount } from '../../../lib/intl';
import { takeTypedValues } from '../../../lib/typed-before-hydration';
import type { NearbyOrigin } from '../api/facilities-api';
import { useStockAvailability } from '../api/stock-api';
import { splitPhoneNumbers } from '../lib/phone-numbers';
import { PhoneLinks } from './phone-links';
import { Freshness } from './stock-table';

const PIN = /^[1-9]\d{5}$/;
/**
 * Without JavaScript the finder opens the directory, which lists each centre's stock; with it,
 * the answer appears here. Also the name under which a choice made before the app took over
 * the prerendered page is kept (lib/typed-before-hydration.ts).
 */
const FINDER_ACTION = '/blood-banks';
const isBloodType = (value: string | undefined): value is BloodType =>
  (BLOOD_TYPES as readonly string[]).includes(value ?? '');
const isComponent = (value: string | undefined): value is BloodComponent =>
  (BLOOD_COMPONENTS as readonly string[]).includes(value ?? '');

function toOrigin(text: string): NearbyOrigin | null {
  const value = text.trim();
  if (value.length < 2) return null;
  return PIN.test(value) ? { kind: 'pincode', pincode: value } : { kind: 'place', place: value };
}

function CentreCard({ centre, asked }: { centre: StockCentre; asked: BloodType }) {
  const { t, i18n } = useTranslation('facilities');
  const newest = centre.stock.reduce(
    (max, line) => (line.updatedAt > max ? line.updatedAt : max),
    centre.stock[0]?.updatedAt ?? '',
  );
  const numbers = splitPhoneNumbers(centre.phone, centre.mobile);
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-300 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Link
          to={`/blood-banks/${centre.id}`}
          className="text-lg font-semibold text-primary-700 underline underline-offset-2"
        >
          {centre.name}
        </Link>
        <span className="text-sm text-slate-700">
          {t('stock.finder.distance', { km: centre.distanceKm })}
        </span>
      </div>
      <ul className="flex flex-wrap gap-2" aria-label={t('stock.title')}>
        {centre.stock.map((line) => (
          <li
            key={line.bloodType}
            className={`rounded-md px-2 py-1 text-sm font-semibold ${
              line.bloodType === asked
                ? 'bg-primary-50 text-primary-900 ring-1 ring-primary-200'
                : 'bg-slate-100 text-slate-900'
            }`}
          >
            {t('stock.finder.unitsOf', {
              bloodType: line.bloodType,
              units: formatCount(line.units, i18n.language),
            })}
          </li>
        ))}
      </ul>
      {/* The server lists fresh figures only; a page left open past 24 hours says they aged. */}
      {newest && <Freshness updatedAt={newest} stale={isStockStale(newest, Date.now())} />}
      <PhoneLinks numbers={numbers} />
    </li>
  );
}

/**
 * "Who holds this blood now": centres near a PIN code or place with fresh stock of the group,
 * nearest first, then those holding only compatible groups, with the rule that makes them so.
 * `initial` prefills it (a request just sent); otherwise the visitor chooses.
 */
export function StockFinder({
  initial,
  headingLevel = 2,
}: {
  initial?: { bloodType?: BloodType; where?: string };
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation('facilities');
  const headingId = useId();
  const [bloodType, setBloodType] = useState<BloodType | ''>(initial?.bloodType ?? '');
  const [component, setComponent] = useState<BloodComponent>('prbc');
  const [where, setWhere] = useState(initial?.where ?? '');
  const [asked, setAsked] = useState<{
    bloodType: BloodType;
    component: BloodComponent;
    origin: NearbyOrigin;
  } | null>(() => {
    const origin = toOrigin(initial?.where ?? '');
    return initial?.bloodType && origin
      ? { bloodType: initial.bloodType, component: 'prbc', origin }
      : null;
  });
  const [error, setError] = useState<string | undefined>();
  const query = useStockAvailability(asked);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  // A group chosen or a place typed on the prerendered page while the app was taking it over
  // (a slow phone): the first render would reset it. Once, before the browser paints.
  useLayoutEffect(() => {
    const typed = takeTypedValues(FINDER_ACTION);
    if (isBloodType(typed.bloodType)) setBloodType(typed.bloodType);
    if (isComponent(typed.component)) setComponent(typed.component);
    if (typed.where) setWhere(typed.where);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const origin = toOrigin(where);
    if (!bloodType || !origin) {
      setError(t('stock.finder.missing'));
      return;
    }
    setError(undefined);
    setAsked({ bloodType, component, origin });
  };

  const data = query.data;
  const unknownPlace = isApiError(query.error) && query.error.status === 404;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-lg border border-slate-300 p-5"
    >
      <Heading id={headingId} className="text-xl font-semibold text-slate-900">
        {t('stock.finder.title')}
      </Heading>
      <form
        noValidate
        action={FINDER_ACTION}
        method="get"
        onSubmit={submit}
        className="grid gap-3 sm:grid-cols-3"
      >
        <Field label={t('stock.finder.bloodType')} isRequired>
          <Select
            name="bloodType"
            value={bloodType}
            onChange={(event) => setBloodType(event.target.value as BloodType | '')}
          >
            <option value="">{t('stock.finder.choose')}</option>
            {BLOOD_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t('stock.finder.component')}>
          <Select
            name="component"
            value={component}
            onChange={(event) => setComponent(event.target.value as BloodComponent)}
          >
            {BLOOD_COMPONENTS.map((value) => (
              <option key={value} value={value}>
                {t(`stock.components.${value}`)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t('stock.finder.where')} error={error} isRequired>
          <Input
            name="where"
            value={where}
            autoComplete="postal-code"
            onChange={(event) => setWhere(event.target.value)}
          />
        </Field>
        <Button type="submit" className="sm:col-span-3">
          {t('stock.finder.search')}
        </Button>
      </form>
      {asked && query.isPending && <LoadingState />}
      {unknownPlace && <p className="text-danger-800">{t('stock.finder.unknownPlace')}</p>}
      {data && (
        <div className="flex flex-col gap-4" aria-live="polite">
          {data.items.length === 0 ? (
            <p className="text-slate-800">
              {t('stock.finder.none', {
                bloodType: data.bloodType,
                component: t(`stock.components.${data.component}`),
                km: data.origin.radiusKm,
              })}
            </p>
          ) : (
            <div className="flex flex-col gap-2">
              <h3 className="text-lg font-semibold text-slate-900">
                {t('stock.finder.exact', { bloodType: data.bloodType })}
              </h3>
              <ol className="flex flex-col gap-3">
                {data.items.map((centre) => (
                  <CentreCard key={centre.id} centre={centre} asked={data.bloodType} />
                ))}
              </ol>
            </div>
          )}
          {data.compatible.length > 0 && (
            <div className="flex flex-col gap-2">
              <h3 className="text-lg font-semibold text-slate-900">
                {t('stock.finder.compatible', { groups: data.compatibleTypes.join(', ') })}
              </h3>
              <p className="text-sm text-slate-700">{t(`stock.rules.${data.rule}`)}</p>
              <ol className="flex flex-col gap-3">
                {data.compatible.map((centre) => (
                  <CentreCard key={centre.id} centre={centre} asked={data.bloodType} />
                ))}
              </ol>
            </div>
          )}
          <p className="text-xs text-slate-600">{t('stock.finder.crossmatch')}</p>
        </div>
      )}
    </section>
  );
}
