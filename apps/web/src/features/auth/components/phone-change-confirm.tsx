import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH, formatIndianPhone } from '@bdms/shared';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { useToast } from '../../../components/toast';
import { useErrorMessage } from '../../../lib/use-error-message';
import { confirmPhoneChange } from '../api/auth-api';
import { useAuthActions } from '../auth-context';
import type { User } from '../types';

/**
 * After `PATCH /users/{id}` with a new phone: the code sent by SMS to that number confirms it
 * (issue #14). Until then the account keeps its current number.
 */
export function PhoneChangeConfirm({
  userId,
  phone,
  onDone,
}: {
  userId: string;
  /** The new number (E.164) the code went to. */
  phone: string;
  onDone: () => void;
}) {
  const { t } = useTranslation('auth');
  const errorMessage = useErrorMessage();
  const toast = useToast();
  const { updateUser } = useAuthActions();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [isSubmitting, setSubmitting] = useState(false);

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
      const { user } = await confirmPhoneChange(userId, code);
      await updateUser(user as User);
      toast.success(t('profile.phoneChange.changed'));
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-4 rounded-lg border border-primary-200 bg-primary-50 p-4"
    >
      <p role="status" className="text-slate-900">
        {t('profile.phoneChange.codeSent', { phone: formatIndianPhone(phone) })}
      </p>
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
      <Button type="submit" isLoading={isSubmitting} className="self-start">
        {t('profile.phoneChange.confirm')}
      </Button>
    </form>
  );
}
