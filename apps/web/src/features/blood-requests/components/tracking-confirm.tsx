import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH, SECOND, type BloodRequestTracking } from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { isApiError } from '../../../lib/api-client';
import { useErrorMessage } from '../../../lib/use-error-message';
import { confirmBloodRequest, resendBloodRequestCode, trackingQueryKey } from '../api/requests-api';

/** A new code may be asked for 30 s after the last one (the server caps them per request). */
const RESEND_AFTER_MS = 30 * SECOND;

/**
 * An `unconfirmed` request's tracking page: the code sent by SMS to the contact phone sends it
 * to review (issue #16). The phone is shown masked, as the server gives it.
 */
export function TrackingConfirm({ tracking }: { tracking: BloodRequestTracking }) {
  const { t } = useTranslation('requests');
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const codeId = useId();
  const inputRef = useRef<HTMLInputElement | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [isResending, setIsResending] = useState(false);
  const [resent, setResent] = useState(false);
  const [resendAt, setResendAt] = useState(() => Date.now() + RESEND_AFTER_MS);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (resendAt <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), SECOND);
    return () => clearInterval(timer);
  }, [resendAt]);
  const secondsLeft = Math.max(0, Math.ceil((resendAt - now) / SECOND));

  const store = (next: BloodRequestTracking) =>
    queryClient.setQueryData(trackingQueryKey(tracking.trackingCode), next);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code)) {
      setCodeError(t('confirm.codeInvalid', { digits: OTP_LENGTH }));
      inputRef.current?.focus();
      return;
    }
    setCodeError(null);
    setIsSubmitting(true);
    try {
      store(await confirmBloodRequest(tracking.trackingCode, code));
    } catch (error) {
      if (isApiError(error) && error.code === 'INVALID_PHONE_CODE') {
        setCodeError(t('confirm.wrongCode'));
        inputRef.current?.focus();
      } else {
        setFailure(error);
        if (isApiError(error) && error.status === 409) {
          void queryClient.invalidateQueries({ queryKey: trackingQueryKey(tracking.trackingCode) });
        }
      }
    } finally {
      setIsSubmitting(false);
    }
  };

  const resend = async () => {
    setFailure(null);
    setIsResending(true);
    try {
      store(await resendBloodRequestCode(tracking.trackingCode));
      setResent(true);
      setResendAt(Date.now() + RESEND_AFTER_MS);
      setNow(Date.now());
    } catch (error) {
      setFailure(error);
    } finally {
      setIsResending(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-4 rounded-lg border-2 border-primary-600 p-4"
      aria-labelledby={`${codeId}-title`}
    >
      <h3 id={`${codeId}-title`} className="text-lg font-semibold text-slate-900">
        {t('confirm.title')}
      </h3>
      <p role="status" className="text-slate-800">
        {resent
          ? t('confirm.resent', { phone: tracking.confirmation?.phoneHint ?? '' })
          : t('confirm.sent', { phone: tracking.confirmation?.phoneHint ?? '' })}
      </p>
      {failure !== null && (
        <Alert variant="error" dismissible={false} message={errorMessage(failure)} />
      )}
      <Field
        label={t('confirm.code')}
        hint={t('confirm.codeHint')}
        error={codeError ?? undefined}
        isRequired
      >
        <Input
          ref={inputRef}
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          className="text-xl tracking-widest"
        />
      </Field>
      <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
        {t('confirm.submit')}
      </Button>
      <Button
        variant="ghost"
        fullWidth
        disabled={secondsLeft > 0}
        isLoading={isResending}
        onClick={() => void resend()}
      >
        {t('confirm.resend')}
      </Button>
      {secondsLeft > 0 && (
        <p className="text-center text-sm text-slate-600">
          {t('confirm.resendIn', { seconds: secondsLeft })}
        </p>
      )}
    </form>
  );
}
