import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { pincodeSchema, placeNameSchema } from '@bdms/shared';
import { Button } from '../../../components/button';
import { Field, Input, Select } from '../../../components/field';
import { RADIUS_CHOICES, type RadiusKm } from '../lib/directory-params';
import { formatDistance } from '../lib/format';
import type { GeolocationStatus } from '../hooks/use-geolocation';
import { LocateIcon } from './icons';

export interface NearbyFinderProps {
  /** The PIN code or place name in the address, if any. */
  pin: string | undefined;
  radius: RadiusKm;
  /** Shown under the PIN field when the server does not know the PIN code. */
  pinError: string | null;
  /** "Use my location" is offered (the `locationDetection` flag). */
  canLocate: boolean;
  locationStatus: GeolocationStatus;
  onPin: (pin: string) => void;
  /** A place name was typed instead of a PIN code ("Koramangala", #15). */
  onPlace: (place: string) => void;
  onRadius: (radius: RadiusKm) => void;
  onLocate: () => void;
}

/**
 * "Near me": the browser's location (when the flag allows), a PIN code or a place name, and how
 * far to look. What is typed is checked like the server checks it (`pincodeSchema`, or
 * `placeNameSchema` when it has letters) before anything is sent.
 */
export function NearbyFinder({
  pin,
  radius,
  pinError,
  canLocate,
  locationStatus,
  onPin,
  onPlace,
  onRadius,
  onLocate,
}: NearbyFinderProps) {
  const { t, i18n } = useTranslation('facilities');
  const headingId = useId();
  const [value, setValue] = useState(pin ?? '');
  const [formatError, setFormatError] = useState<string | null>(null);

  // Back and forward change the PIN code in the address: the field follows.
  useEffect(() => {
    if (pin) setValue(pin);
  }, [pin]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (/\p{L}/u.test(value)) {
      const place = placeNameSchema.safeParse(value);
      if (!place.success) {
        setFormatError(t('near.pinInvalid'));
        return;
      }
      setFormatError(null);
      setValue(place.data);
      onPlace(place.data);
      return;
    }
    const parsed = pincodeSchema.safeParse(value.replace(/\s+/g, ''));
    if (!parsed.success) {
      setFormatError(t('near.pinInvalid'));
      return;
    }
    setFormatError(null);
    setValue(parsed.data);
    onPin(parsed.data);
  };

  const locationNote: Partial<Record<GeolocationStatus, string>> = {
    locating: t('near.locating'),
    denied: t('near.locationDenied'),
    timeout: t('near.locationTimeout'),
    unavailable: t('near.locationUnavailable'),
    unsupported: t('near.locationUnsupported'),
  };
  const note = locationNote[locationStatus];
  const isLocationProblem = locationStatus !== 'locating' && note !== undefined;

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('near.title')}
      </h2>
      <p className="mt-1 text-slate-700">{t('near.lead')}</p>

      {canLocate && (
        <div className="mt-4">
          <Button
            variant="secondary"
            onClick={onLocate}
            isLoading={locationStatus === 'locating'}
            fullWidth
            className="sm:w-auto"
          >
            {locationStatus !== 'locating' && <LocateIcon />}
            {t('near.useLocation')}
          </Button>
          <p
            aria-live="polite"
            className={
              isLocationProblem ? 'mt-2 font-medium text-primary-800' : 'mt-2 text-slate-700'
            }
          >
            {note}
          </p>
          <p className="flex items-center gap-3 text-sm font-semibold text-slate-600 uppercase">
            <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
            {t('near.or')}
            <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
          </p>
        </div>
      )}

      <form
        noValidate
        onSubmit={submit}
        className="mt-3 grid grid-cols-2 items-start gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]"
      >
        <Field label={t('near.pinLabel')} error={formatError ?? pinError ?? undefined}>
          <Input
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="postal-code"
            maxLength={80}
          />
        </Field>
        <Field label={t('near.radiusLabel')}>
          <Select
            value={radius}
            onChange={(event) => onRadius(Number(event.target.value) as RadiusKm)}
          >
            {RADIUS_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {formatDistance(choice, i18n.language)}
              </option>
            ))}
          </Select>
        </Field>
        {/* Level with the fields: their label is one line (1.5 rem) above a 0.375 rem gap. */}
        <Button type="submit" className="col-span-2 sm:col-span-1 sm:mt-[1.875rem]">
          {t('near.find')}
        </Button>
      </form>
    </section>
  );
}
