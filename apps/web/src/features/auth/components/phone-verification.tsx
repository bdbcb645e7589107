import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH, formatIndianPhone } from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { useToast } from '../../../components/toast';
import { useFeatureFlag } from '../../../config/use-config';
import { useErrorMessage } from '../../../lib/use-error-message';
import { sendPhoneVerification, verifyPhone } from '../api/auth-api';
import { useAuthActions } from '../auth-context';
import type { User } from '../types';

/**
 * With `phoneVerification` on, an account whose phone is not verified is told what that costs
 * (no sign-in by SMS code, no SMS alerts) and confirms it with the code sent at registration,
 * or a new one (issue #16).
 */
export function PhoneVerification({ user }: { user: User }) {
  const { t } = useTranslation('auth');
  const enabled = useFeatureFlag('phoneVerification');
  const errorMessage = useErrorMessage();
  const toast = useToast();
  const { updateUser } = useAuthActions();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<unknown>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const [isSending, setSending] = useState(false);

  if (!enabled || !user.phone || user.phoneVerifiedAt) return null;
  const phone = user.phone;

  const send = async () => {
    setFailure(null);
    setSending(true);
    try {
      setSentTo((await sendPhoneVerification(user.id)).phone);
    } catch (caught) {
      setFailure(caught);
    } finally {
      setSending(false);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code)) {
      setError(
        t(code ? 'validation.codeInvalid' : 'validation.codeRequired', { length: OTP_LENGTH }),
      );
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      const { user: verified } = await verifyPhone(user.id, code);
      await updateUser(verified as User);
      toast.success(t('profile.phoneVerification.verified'));
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-4 rounded-lg border border-warning-700 bg-warning-50 p-4"
    >
      <h2 className="text-lg font-semibold text-slate-900">
        {t('profile.phoneVerification.title')}
      </h2>
      <p className="text-slate-900">
        {t('profile.phoneVerification.why', { phone: formatIndianPhone(phone) })}
      </p>
      <p role="status" className="text-slate-900">
        {sentTo
          ? t('profile.phoneVerification.sent', { phone: formatIndianPhone(sentTo) })
          : t('profile.phoneVerification.enter')}
      </p>
      {failure !== null && (
        <Alert variant="error" dismissible={false} message={errorMessage(failure)} />
      )}
      <Field
        label={t('profile.phoneChange.code')}
        hint={t('profile.phoneChange.codeHint')}
        error={error}
      >
        <Input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          className="max-w-40"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
        />
      </Field>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isLoading={isSubmitting}>
          {t('profile.phoneVerification.verify')}
        </Button>
        <Button variant="secondary" isLoading={isSending} onClick={() => void send()}>
          {t('profile.phoneVerification.send')}
        </Button>
      </div>
    </form>
  );
}
