import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '@bdms/shared';
import { Field } from '../../../components/field';
import { PasswordInput } from './password-input';
import { PasswordStrengthMeter } from './password-strength-meter';

/** "New password" with its strength meter and "Confirm new password": reset and change alike. */
export function NewPasswordFields({
  password,
  passwordValue,
  passwordError,
  confirm,
  confirmError,
}: {
  password: UseFormRegisterReturn;
  passwordValue: string;
  passwordError: string | undefined;
  confirm: UseFormRegisterReturn;
  confirmError: string | undefined;
}) {
  const { t } = useTranslation('auth');
  const strengthId = useId();
  return (
    <>
      <Field
        label={t('fields.newPassword')}
        hint={t('password.hint', { min: PASSWORD_MIN })}
        error={passwordError}
        isRequired
      >
        <PasswordInput autoComplete="new-password" aria-describedby={strengthId} {...password} />
      </Field>
      <PasswordStrengthMeter id={strengthId} password={passwordValue} />
      <Field label={t('fields.confirmPassword')} error={confirmError} isRequired>
        <PasswordInput autoComplete="new-password" {...confirm} />
      </Field>
    </>
  );
}
