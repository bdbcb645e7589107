import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { CONTACT_LIMITS, type ContactReceipt } from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Field, Input, Textarea } from '../../../components/field';
import { CheckCircleIcon } from '../../../components/icons';
import { isApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useErrorMessage } from '../../../lib/use-error-message';
import { sendContactMessage } from '../api/contact-api';
import {
  CONTACT_VALIDATION_PARAMS,
  contactFormSchema,
  contactValidationKey,
  invalidContactFields,
  isContactValidationKey,
  withContactMessageKeys,
  type ContactField,
  type ContactFormValues,
} from '../forms/contact-form-schema';

const EMPTY: ContactFormValues = { name: '', email: '', subject: '', message: '' };

/**
 * The contact form (`POST /api/v1/contact`): validated with the shared schema, messages
 * translated; a 400 lands on its fields; a 429 says how many minutes to wait; any other failure
 * is shown above the form and the typed text stays. On success, a thank-you with the reference.
 */
export function ContactForm() {
  const { t } = useTranslation('site');
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<{ receipt: ContactReceipt; email: string } | null>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const counterId = useId();
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues>({
    resolver: withContactMessageKeys(zodResolver(contactFormSchema)),
    defaultValues: EMPTY,
  });

  const messageLength = watch('message').length;
  const over = messageLength - CONTACT_LIMITS.message.max;

  const message = (field: ContactField): string | undefined => {
    const error = errors[field] as FieldError | undefined;
    if (!error) return undefined;
    const key = isContactValidationKey(error.message) ? error.message : 'invalid';
    return t(`contact.validation.${key}`, CONTACT_VALIDATION_PARAMS[key]);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const receipt = await sendContactMessage(values);
      setSent({ receipt, email: values.email });
    } catch (error) {
      const fields = invalidContactFields(error);
      if (fields.length > 0) {
        fields.forEach((field, index) =>
          setError(
            field,
            { type: 'server', message: contactValidationKey(field, getValues(field)) },
            { shouldFocus: index === 0 },
          ),
        );
        return;
      }
      if (isApiError(error) && error.status === 429) {
        const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60));
        setFailure(t('contact.tooManyRequests', { count: minutes }));
      } else {
        setFailure(errorMessage(error));
      }
      requestAnimationFrame(() => failureRef.current?.focus());
    }
  });

  if (sent) {
    return (
      <SentPanel
        id={sent.receipt.id}
        email={sent.email}
        onSendAnother={() => {
          reset(EMPTY);
          setSent(null);
        }}
      />
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <div ref={failureRef} tabIndex={-1} className="outline-none">
        {failure && (
          <Alert variant="error" dismissible={false} title={t('contact.failedTitle')}>
            <p className="mt-1">{failure}</p>
            <p className="mt-1">{t('contact.keptText')}</p>
          </Alert>
        )}
      </div>
      <p className="text-sm text-slate-700">{t('contact.required')}</p>
      <Field label={t('contact.fields.name')} error={message('name')} isRequired>
        <Input autoComplete="name" maxLength={CONTACT_LIMITS.name.max} {...register('name')} />
      </Field>
      <Field
        label={t('contact.fields.email')}
        hint={t('contact.fields.emailHint')}
        error={message('email')}
        isRequired
      >
        <Input type="email" autoComplete="email" inputMode="email" {...register('email')} />
      </Field>
      <Field label={t('contact.fields.subject')} error={message('subject')} isRequired>
        <Input autoComplete="off" maxLength={CONTACT_LIMITS.subject.max} {...register('subject')} />
      </Field>
      <Field
        label={t('contact.fields.message')}
        hint={t('contact.fields.messageHint', { min: CONTACT_LIMITS.message.min })}
        error={message('message')}
        isRequired
      >
        <Textarea rows={8} aria-describedby={counterId} {...register('message')} />
      </Field>
      <p
        id={counterId}
        className={cn(
          '-mt-3 text-end text-sm tabular-nums',
          over > 0 ? 'font-semibold text-primary-700' : 'text-slate-700',
        )}
      >
        {over > 0
          ? t('contact.counterOver', { count: over })
          : t('contact.counter', { count: messageLength, max: CONTACT_LIMITS.message.max })}
      </p>
      <Button type="submit" size="lg" isLoading={isSubmitting} className="sm:self-start">
        {isSubmitting ? t('contact.sending') : t('contact.submit')}
      </Button>
    </form>
  );
}

function SentPanel({
  id,
  email,
  onSendAnother,
}: {
  id: string;
  email: string;
  onSendAnother: () => void;
}) {
  const { t } = useTranslation('site');
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form is gone: take keyboard and screen-reader users to what replaced it.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div
      role="status"
      className="flex flex-col gap-4 rounded-xl border-2 border-success-700 bg-success-50 p-5 sm:p-6"
    >
      <h2
        ref={headingRef}
        tabIndex={-1}
        className="flex items-start gap-2 text-xl font-semibold text-success-800 outline-none"
      >
        <CheckCircleIcon className="mt-0.5 size-6 shrink-0" />
        {t('contact.successTitle')}
      </h2>
      <div>
        <p className="text-slate-900">{t('contact.successReference')}</p>
        <p className="mt-1 font-mono text-lg font-semibold break-all text-slate-900">{id}</p>
        <p className="mt-1 text-sm text-slate-700">{t('contact.successReferenceHint')}</p>
      </div>
      <p className="break-words text-slate-900">{t('contact.successReply', { email })}</p>
      <Button variant="secondary" onClick={onSendAnother} className="sm:self-start">
        {t('contact.sendAnother')}
      </Button>
    </div>
  );
}
