import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { useToast } from '../../../components/toast';
import { changePassword } from '../api/auth-api';
import { useAuthActions } from '../auth-context';
import { changePasswordFormSchema } from '../forms/schemas';
import { applyServerErrors, useFieldMessage, withMessageKeys } from '../forms/validation';
import { PasswordInput } from './password-input';
import { NewPasswordFields } from './new-password-fields';
import { FormError } from './sign-in-form';

/**
 * `POST /users/{id}/password`. The server signs every other session out and returns new tokens,
 * which are stored so this device stays signed in.
 */
export function ChangePasswordForm({ userId }: { userId: string }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const { replaceTokens } = useAuthActions();
  const fieldMessage = useFieldMessage();
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    watch,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: withMessageKeys(zodResolver(changePasswordFormSchema)),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setFailure(null);
    try {
      const { tokens } = await changePassword(userId, { currentPassword, newPassword });
      await replaceTokens(tokens);
      reset();
      toast.success(t('profile.passwordChanged'));
    } catch (error) {
      if (!applyServerErrors(error, { setError, getValues }, ['currentPassword', 'newPassword'])) {
        setFailure(error);
      }
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <FormError error={failure} />
      <Field
        label={t('fields.currentPassword')}
        error={fieldMessage(errors.currentPassword)}
        isRequired
      >
        <PasswordInput autoComplete="current-password" {...register('currentPassword')} />
      </Field>
      <NewPasswordFields
        password={register('newPassword')}
        passwordValue={watch('newPassword')}
        passwordError={fieldMessage(errors.newPassword)}
        confirm={register('confirmPassword')}
        confirmError={fieldMessage(errors.confirmPassword)}
      />
      <Button type="submit" size="lg" isLoading={isSubmitting} className="self-start">
        {t('profile.changePasswordSubmit')}
      </Button>
    </form>
  );
}
