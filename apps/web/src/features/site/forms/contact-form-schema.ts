import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import {
  CONTACT_LIMITS,
  contactMessageSchema,
  hasUnsafeCharacters,
  type ContactMessage,
} from '@bdms/shared';
import { isApiError } from '../../../lib/api-client';

/**
 * The contact form validates with the shared `contactMessageSchema` (one schema per payload), but
 * its messages are English. A field's message is chosen here from the field and its value, and
 * read from `site:contact.validation.*` in the user's language; the schema's text is never shown.
 * Only the contact page's lazy chunk imports this file.
 */
export const contactFormSchema = contactMessageSchema;
export type ContactFormValues = ContactMessage;
export type ContactField = keyof ContactMessage;
export const CONTACT_FIELDS = [
  'name',
  'email',
  'subject',
  'message',
] as const satisfies readonly ContactField[];

export const CONTACT_VALIDATION_KEYS = [
  'unsafeCharacters',
  'nameRequired',
  'nameTooShort',
  'nameTooLong',
  'nameInvalid',
  'emailRequired',
  'emailInvalid',
  'subjectRequired',
  'subjectTooShort',
  'subjectTooLong',
  'subjectInvalid',
  'messageRequired',
  'messageTooShort',
  'messageTooLong',
  'messageInvalid',
  'invalid',
] as const;
export type ContactValidationKey = (typeof CONTACT_VALIDATION_KEYS)[number];

/** The numbers a message mentions (`{{min}}`, `{{max}}`). */
export const CONTACT_VALIDATION_PARAMS: Partial<
  Record<ContactValidationKey, { min?: number; max?: number }>
> = {
  nameTooShort: { min: CONTACT_LIMITS.name.min },
  nameTooLong: { max: CONTACT_LIMITS.name.max },
  subjectTooShort: { min: CONTACT_LIMITS.subject.min },
  subjectTooLong: { max: CONTACT_LIMITS.subject.max },
  messageTooShort: { min: CONTACT_LIMITS.message.min },
  messageTooLong: { max: CONTACT_LIMITS.message.max },
};

/** Why a field is wrong, from its value (the same answer for the browser's check and a 400). */
export function contactValidationKey(field: string, value: unknown): ContactValidationKey {
  const text = typeof value === 'string' ? value.trim() : '';
  if (hasUnsafeCharacters(text, field === 'message')) return 'unsafeCharacters';
  if (field === 'email') return text === '' ? 'emailRequired' : 'emailInvalid';
  if (field !== 'name' && field !== 'subject' && field !== 'message') return 'invalid';
  const { min, max } = CONTACT_LIMITS[field];
  if (text === '') return `${field}Required`;
  if (text.length < min) return `${field}TooShort`;
  if (text.length > max) return `${field}TooLong`;
  return `${field}Invalid`;
}

export function isContactValidationKey(value: unknown): value is ContactValidationKey {
  return (
    typeof value === 'string' && (CONTACT_VALIDATION_KEYS as readonly string[]).includes(value)
  );
}

/** Wraps a resolver (zodResolver) so each error's `message` is a `contact.validation.*` key. */
export function withContactMessageKeys<TValues extends FieldValues, TContext, TTransformed>(
  resolver: Resolver<TValues, TContext, TTransformed>,
): Resolver<TValues, TContext, TTransformed> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    for (const [name, error] of Object.entries(result.errors) as [string, FieldError][]) {
      if (error && typeof error === 'object') {
        error.message = contactValidationKey(name, values[name]);
      }
    }
    return result;
  };
}

/** `[{path: 'body.email'}]` → the form fields a 400 VALIDATION_ERROR names, in form order. */
export function invalidContactFields(error: unknown): ContactField[] {
  if (!isApiError(error) || error.code !== 'VALIDATION_ERROR' || !Array.isArray(error.details)) {
    return [];
  }
  const fields = error.details.flatMap((detail: unknown) => {
    const path = (detail as { path?: unknown } | null)?.path;
    if (typeof path !== 'string') return [];
    const field = path.replace(/^body\./, '').split('.')[0];
    return (CONTACT_FIELDS as readonly string[]).includes(field ?? '')
      ? [field as ContactField]
      : [];
  });
  // In the form's order, so the first one named is the first one on screen (it takes focus).
  return CONTACT_FIELDS.filter((field) => fields.includes(field));
}
