import { useId, useRef, useState } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isIsoDate } from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { Field, Input } from '../../../../components/field';
import { isApiError } from '../../../../lib/api-client';
import { calendarDaysUntil, localIsoDate, useFormatDate } from '../../../../lib/dates';
import { useErrorMessage } from '../../../../lib/use-error-message';
import type donors from '../../../../i18n/locales/en/donors.json';
import { useReportDonation } from '../../api/donations';

type ErrorKey = keyof (typeof donors)['history']['report']['errors'];

interface ReportValues {
  donatedAt: string;
  place: string;
}

/**
 * "Report a donation made elsewhere" (`POST /users/{id}/donations`): a date not in the future
 * and the place. It becomes the last donation, so the donor is told until when they are now
 * hidden from blood requests.
 */
export function ReportDonationForm({ userId, id }: { userId: string; id?: string }) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const errorMessage = useErrorMessage();
  const report = useReportDonation(userId);
  const headingId = useId();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  const today = localIsoDate();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ReportValues>({ defaultValues: { donatedAt: '', place: '' } });

  const message = (error: FieldError | undefined) =>
    error?.message ? t(`history.report.errors.${error.message as ErrorKey}`) : undefined;

  const onSubmit = handleSubmit(async ({ donatedAt, place }) => {
    setDone(null);
    setFailure(null);
    try {
      const { stats } = await report.mutateAsync({ donatedAt, place: place.trim() });
      const hiddenUntil = stats.nextEligibleAt;
      setDone(
        hiddenUntil && calendarDaysUntil(hiddenUntil) > 0
          ? t('history.report.success', { date: formatDate(hiddenUntil, 'long') })
          : t('history.report.successNoDate'),
      );
      reset();
      requestAnimationFrame(() => doneRef.current?.focus());
    } catch (error) {
      const paths =
        isApiError(error) && Array.isArray(error.details)
          ? (error.details as { path?: string }[]).map((detail) => detail.path)
          : [];
      if (paths.includes('body.donatedAt')) {
        setError('donatedAt', { message: 'dateInvalid' }, { shouldFocus: true });
      } else if (paths.includes('body.place')) {
        setError('place', { message: 'placeLength' }, { shouldFocus: true });
      } else {
        setFailure(error);
      }
    }
  });

  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="scroll-mt-4 flex flex-col gap-4 rounded-xl border border-slate-200 bg-slate-50 p-5"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('history.report.title')}
      </h2>
      <p className="text-slate-700">{t('history.report.intro')}</p>
      {done && (
        <div ref={doneRef} tabIndex={-1}>
          <Alert variant="success" message={done} onDismiss={() => setDone(null)} />
        </div>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <Field
          label={t('history.report.date')}
          hint={t('history.report.dateHint')}
          error={message(errors.donatedAt)}
          isRequired
          className="max-w-64"
        >
          <Input
            type="date"
            max={today}
            {...register('donatedAt', {
              validate: (value) => {
                if (!value) return 'dateRequired';
                if (!isIsoDate(value)) return 'dateInvalid';
                return value <= localIsoDate() || 'dateFuture';
              },
            })}
          />
        </Field>
        <Field
          label={t('history.report.place')}
          hint={t('history.report.placeHint')}
          error={message(errors.place)}
          isRequired
          className="max-w-xl"
        >
          <Input
            autoComplete="off"
            maxLength={200}
            {...register('place', {
              validate: (value) => {
                const text = value.trim();
                if (!text) return 'placeRequired';
                return (text.length >= 2 && text.length <= 200) || 'placeLength';
              },
            })}
          />
        </Field>
        {failure !== null && (
          <Alert variant="error" dismissible={false} message={errorMessage(failure)} />
        )}
        <Button type="submit" isLoading={isSubmitting} className="self-start">
          {t('history.report.submit')}
        </Button>
      </form>
    </section>
  );
}
