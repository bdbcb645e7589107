import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AVAILABILITY_TTL_DAYS, isIsoDate, type Availability } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { Field, Input } from '../../../../components/field';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { Switch } from '../../../../components/switch';
import { useToast } from '../../../../components/toast';
import {
  addDaysToIsoDate,
  calendarDaysUntil,
  localIsoDate,
  useFormatDate,
} from '../../../../lib/dates';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { useAvailability, useSetAvailability } from '../../api/donations';

/** The `until` day as YYYY-MM-DD for the date input (the server sends a date or a date-time). */
function untilInputValue(availability: Availability): string {
  return availability.until ? availability.until.slice(0, 10) : '';
}

/**
 * Available / not available, with an optional last day (up to 90 days ahead), when it was
 * confirmed and when it lapses. From 7 days before it lapses the server asks for a
 * reconfirmation: then "Are you still available?" comes first, with one-tap answers.
 * `hiddenUntil` (after a donation) is said here too: a donor who just gave is not matched.
 */
export function AvailabilityCard({
  userId,
  hiddenUntil,
}: {
  userId: string;
  hiddenUntil?: string | null | undefined;
}) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const query = useAvailability(userId);
  const mutation = useSetAvailability(userId);
  const headingId = useId();
  const switchLabelId = useId();
  const [until, setUntil] = useState('');
  const [untilError, setUntilError] = useState<string | null>(null);
  const today = localIsoDate();
  const latest = addDaysToIsoDate(today, AVAILABILITY_TTL_DAYS);

  const availability = query.data;
  useEffect(() => {
    if (availability) setUntil(untilInputValue(availability));
  }, [availability]);

  const save = async (available: boolean, untilDate: string | null, kind: 'save' | 'reconfirm') => {
    try {
      const result = await mutation.mutateAsync({ available, until: available ? untilDate : null });
      if (kind === 'reconfirm' && result.available && result.expiresAt) {
        toast.success(
          t('availability.reconfirm.confirmed', {
            date: formatDate(result.until ?? result.expiresAt, 'long'),
          }),
        );
      } else if (!result.available) {
        toast.success(t('availability.saved.off'));
      } else if (result.until) {
        toast.success(t('availability.saved.onUntil', { date: formatDate(result.until, 'long') }));
      } else {
        toast.success(t('availability.saved.on'));
      }
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  const saveUntil = () => {
    const value = until.trim();
    if (value && !isIsoDate(value)) {
      setUntilError(t('availability.errors.invalid'));
      return;
    }
    if (value && (value < today || value > latest)) {
      setUntilError(t('availability.errors.range', { date: formatDate(latest, 'long') }));
      return;
    }
    setUntilError(null);
    void save(true, value || null, 'save');
  };

  const isHidden = hiddenUntil ? calendarDaysUntil(hiddenUntil) > 0 : false;

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('availability.title')}
      </h2>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingState />}
      {availability && (
        <>
          {availability.needsReconfirmation && (
            <div className="rounded-lg border-2 border-warning-700 bg-warning-50 p-4 text-warning-800">
              <h3 className="text-lg font-bold">{t('availability.reconfirm.title')}</h3>
              {availability.expiresAt && (
                <p className="mt-1">
                  {t('availability.reconfirm.message', {
                    date: formatDate(availability.expiresAt, 'long'),
                  })}
                </p>
              )}
              <div className="mt-3 flex flex-col gap-2 sm:flex-row">
                <Button
                  isLoading={mutation.isPending && mutation.variables?.available === true}
                  disabled={mutation.isPending}
                  onClick={() =>
                    void save(true, untilInputValue(availability) || null, 'reconfirm')
                  }
                >
                  {t('availability.reconfirm.yes')}
                </Button>
                <Button
                  variant="secondary"
                  disabled={mutation.isPending}
                  onClick={() => void save(false, null, 'reconfirm')}
                >
                  {t('availability.reconfirm.no')}
                </Button>
              </div>
            </div>
          )}

          <div className="flex items-center gap-4">
            <Switch
              isOn={availability.available}
              isBusy={mutation.isPending}
              aria-labelledby={switchLabelId}
              onChange={(isOn) => void save(isOn, isOn ? until || null : null, 'save')}
            />
            <div>
              <p id={switchLabelId} className="font-semibold text-slate-900">
                {t('availability.switchLabel')}
              </p>
              <p className="text-slate-700">
                {availability.available ? t('availability.on') : t('availability.off')}
              </p>
            </div>
          </div>

          {availability.available && (
            <div className="flex flex-col gap-2">
              <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
                <Field
                  label={t('availability.until')}
                  hint={t('availability.untilHint')}
                  error={untilError ?? undefined}
                  className="sm:max-w-64"
                >
                  <Input
                    type="date"
                    min={today}
                    max={latest}
                    value={until}
                    onChange={(event) => setUntil(event.target.value)}
                  />
                </Field>
                <Button
                  variant="secondary"
                  disabled={mutation.isPending || until === untilInputValue(availability)}
                  onClick={saveUntil}
                >
                  {t('availability.saveUntil')}
                </Button>
              </div>
            </div>
          )}

          <ul className="flex flex-col gap-1 text-slate-700">
            {availability.available && availability.until && (
              <li>{t('availability.untilOn', { date: formatDate(availability.until, 'long') })}</li>
            )}
            {availability.confirmedAt && (
              <li>
                {t('availability.confirmedOn', {
                  date: formatDate(availability.confirmedAt, 'long'),
                })}
              </li>
            )}
            {availability.available && availability.expiresAt && (
              <li>
                {t('availability.expiresOn', { date: formatDate(availability.expiresAt, 'long') })}
              </li>
            )}
          </ul>
        </>
      )}
      {isHidden && hiddenUntil && (
        <p className="rounded-lg bg-info-50 p-3 text-info-800">
          {t('availability.hiddenUntil', { date: formatDate(hiddenUntil, 'long') })}
        </p>
      )}
    </section>
  );
}
