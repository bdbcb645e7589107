import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { MailIcon } from '../../../components/icons';
import { LinkButton } from '../../../components/link-button';
import { requestPasswordReset } from '../api/auth-api';
import { forgotPasswordFormSchema } from '../forms/schemas';
import { useFieldMessage, withMessageKeys } from '../forms/validation';
import { FormError } from './sign-in-form';

/**
 * `POST /auth/reset-password` with `{email}`. The answer is the same whether or not an account
 * exists, so the confirmation never reveals who is registered (a donor's privacy).
 */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const fieldMessage = useFieldMessage();
  const [isSent, setIsSent] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: withMessageKeys(zodResolver(forgotPasswordFormSchema)),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await requestPasswordReset(email);
      setIsSent(true);
    } catch (error) {
      setFailure(error);
    }
  });

  if (isSent) {
    return (
      <SentNotice
        onTryAgain={() => {
          reset();
          setIsSent(false);
        }}
      />
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <FormError error={failure} />
      <Field label={t('fields.email')} error={fieldMessage(errors.email)} isRequired>
        <Input type="email" autoComplete="email" inputMode="email" {...register('email')} />
      </Field>
      <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
        {t('forgot.submit')}
      </Button>
      <LinkButton to="/login" variant="ghost" fullWidth>
        {t('forgot.backToSignIn')}
      </LinkButton>
    </form>
  );
}

function SentNotice({ onTryAgain }: { onTryAgain: () => void }) {
  const { t } = useTranslation('auth');
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form is gone: take keyboard and screen-reader users to what replaced it.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div
      role="status"
      className="flex flex-col gap-4 rounded-xl border-2 border-success-700 bg-success-50 p-5"
    >
      <h2
        ref={headingRef}
        tabIndex={-1}
        className="flex items-center gap-2 text-xl font-semibold text-success-800"
      >
        <MailIcon className="size-6 shrink-0" />
        {t('forgot.sentTitle')}
      </h2>
      <p className="text-slate-900">{t('forgot.sent')}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <LinkButton to="/login">{t('forgot.backToSignIn')}</LinkButton>
        <Button variant="secondary" onClick={onTryAgain}>
          {t('forgot.tryAgain')}
        </Button>
      </div>
    </div>
  );
}
