import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { PasswordResetResult } from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { LinkButton } from '../../../components/link-button';
import { isApiError } from '../../../lib/api-client';
import { resetPassword } from '../api/auth-api';
import { resetPasswordFormSchema } from '../forms/schemas';
import {
  applyServerErrors,
  invalidFields,
  useFieldMessage,
  withMessageKeys,
} from '../forms/validation';
import { NewPasswordFields } from './new-password-fields';
import { FormError } from './sign-in-form';

/** The link is unknown, expired (1 hour) or used: explain, and offer a new one. */
export function InvalidResetLink() {
  const { t } = useTranslation('auth');
  return (
    <div className="flex flex-col gap-4">
      <Alert
        variant="error"
        dismissible={false}
        title={t('reset.invalidTitle')}
        message={t('reset.invalid')}
      />
      <LinkButton to="/forgot-password" size="lg" className="self-start">
        {t('reset.requestNew')}
      </LinkButton>
    </div>
  );
}

/** `POST /auth/reset-password` with `{token, password}` from the e-mailed link. */
export function ResetPasswordForm({
  token,
  onReset,
}: {
  token: string;
  /** The reply: with `user` and `tokens` the reset signed this device in (issue #32 item 13). */
  onReset: (result: PasswordResetResult) => void | Promise<void>;
}) {
  const { t } = useTranslation('auth');
  const fieldMessage = useFieldMessage();
  const [isInvalid, setIsInvalid] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: withMessageKeys(zodResolver(resetPasswordFormSchema)),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      await onReset(await resetPassword(token, password));
    } catch (error) {
      if (
        isApiError(error) &&
        (error.code === 'INVALID_RESET_TOKEN' || invalidFields(error).includes('token'))
      ) {
        setIsInvalid(true);
      } else if (!applyServerErrors(error, { setError, getValues }, ['password'])) {
        setFailure(error);
      }
    }
  });

  if (isInvalid) return <InvalidResetLink />;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <FormError error={failure} />
      <NewPasswordFields
        password={register('password')}
        passwordValue={watch('password')}
        passwordError={fieldMessage(errors.password)}
        confirm={register('confirmPassword')}
        confirmError={fieldMessage(errors.confirmPassword)}
      />
      <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
        {t('reset.submit')}
      </Button>
    </form>
  );
}
