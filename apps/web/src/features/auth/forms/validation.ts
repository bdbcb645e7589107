import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  FieldError,
  FieldValues,
  Path,
  Resolver,
  UseFormGetValues,
  UseFormSetError,
} from 'react-hook-form';
import {
  DONOR_MAX_AGE,
  DONOR_MIN_AGE,
  OTP_LENGTH,
  PASSWORD_MAX,
  PASSWORD_MIN,
  hasUnsafeCharacters,
  isIsoDate,
} from '@bdms/shared';
import { isApiError } from '../../../lib/api-client';
import { useErrorMessage } from '../../../lib/use-error-message';
import type auth from '../../../i18n/locales/en/auth.json';

/**
 * Client validation uses the shared zod schemas (one schema per payload), but their messages are
 * English. A field's message is therefore chosen here, from the field and what is wrong with its
 * value, when it is validated (`withMessageKeys`), and read from `auth:validation.*` in the user's
 * language when shown. The schema's text is never shown.
 */
export type FormField =
  | 'email'
  | 'password'
  | 'newPassword'
  | 'confirmPassword'
  | 'currentPassword'
  | 'fullName'
  | 'phone'
  | 'bloodType'
  | 'dateOfBirth'
  | 'gender'
  | 'city'
  | 'state'
  | 'pincode'
  | 'consent'
  | 'code';

export type ValidationKey = keyof (typeof auth)['validation'];

/** The numbers some messages mention. */
const VALIDATION_PARAMS: Partial<Record<ValidationKey, Record<string, number>>> = {
  passwordTooShort: { min: PASSWORD_MIN },
  passwordTooLong: { max: PASSWORD_MAX },
  dateOfBirthAge: { min: DONOR_MIN_AGE, max: DONOR_MAX_AGE },
  codeInvalid: { length: OTP_LENGTH },
};

/**
 * Error types set by the forms themselves (next to zod's issue codes): `api` carries an error code
 * in `message` (shown from the errors namespace), `server` is the server's verdict on the field.
 */
export const API_ERROR_TYPE = 'api';
export const SERVER_ERROR_TYPE = 'server';

const isBlank = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === false ||
  (typeof value === 'string' && value.trim() === '');

export function validationKey(
  field: FormField | (string & {}),
  type: string | undefined,
  value: unknown,
): ValidationKey {
  const blank = isBlank(value);
  // A control character or a text-direction override anywhere is the reason, whatever the field.
  if (typeof value === 'string' && hasUnsafeCharacters(value)) return 'unsafeCharacters';
  switch (field) {
    case 'email':
      return blank ? 'emailRequired' : 'emailInvalid';
    case 'password':
    case 'newPassword':
      if (blank) return 'passwordRequired';
      if (type === 'too_big' || (typeof value === 'string' && value.length > PASSWORD_MAX)) {
        return 'passwordTooLong';
      }
      return 'passwordTooShort';
    case 'confirmPassword':
      return blank ? 'confirmPasswordRequired' : 'confirmPasswordMismatch';
    case 'currentPassword':
      return blank ? 'currentPasswordRequired' : 'currentPasswordWrong';
    case 'fullName':
      return blank ? 'fullNameRequired' : 'fullNameInvalid';
    case 'phone':
      return blank ? 'phoneRequired' : 'phoneInvalid';
    case 'bloodType':
      return 'bloodTypeRequired';
    case 'dateOfBirth':
      if (blank) return 'dateOfBirthRequired';
      if (typeof value !== 'string' || !isIsoDate(value)) return 'dateOfBirthInvalid';
      return 'dateOfBirthAge';
    case 'gender':
      return 'genderRequired';
    case 'city':
      return blank ? 'cityRequired' : 'cityInvalid';
    case 'state':
      return 'stateRequired';
    case 'pincode':
      return 'pincodeInvalid';
    case 'consent':
      return 'consentRequired';
    case 'code':
      return blank ? 'codeRequired' : 'codeInvalid';
    default:
      return 'invalid';
  }
}

const VALIDATION_KEYS = [
  'emailRequired',
  'emailInvalid',
  'passwordRequired',
  'passwordTooShort',
  'passwordTooLong',
  'confirmPasswordRequired',
  'confirmPasswordMismatch',
  'currentPasswordRequired',
  'currentPasswordWrong',
  'fullNameRequired',
  'fullNameInvalid',
  'phoneRequired',
  'phoneInvalid',
  'bloodTypeRequired',
  'dateOfBirthRequired',
  'dateOfBirthInvalid',
  'dateOfBirthAge',
  'genderRequired',
  'cityRequired',
  'cityInvalid',
  'stateRequired',
  'pincodeInvalid',
  'consentRequired',
  'codeRequired',
  'codeInvalid',
  'unsafeCharacters',
  'invalid',
] as const satisfies readonly ValidationKey[];

// Every key of auth:validation is listed above (a compile error otherwise).
const LISTS_EVERY_KEY: [Exclude<ValidationKey, (typeof VALIDATION_KEYS)[number]>] extends [never]
  ? true
  : never = true;
void LISTS_EVERY_KEY;

function isValidationKey(value: unknown): value is ValidationKey {
  return typeof value === 'string' && (VALIDATION_KEYS as readonly string[]).includes(value);
}

/**
 * Wraps a resolver (zodResolver) so that each error's `message` is a validation key chosen from
 * the field and its value. The message changes when the reason does, so the form re-renders with
 * the right text while the user types.
 */
export function withMessageKeys<TValues extends FieldValues, TContext, TTransformed>(
  resolver: Resolver<TValues, TContext, TTransformed>,
): Resolver<TValues, TContext, TTransformed> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    for (const [name, error] of Object.entries(result.errors) as [string, FieldError][]) {
      if (error && typeof error === 'object') {
        error.message = validationKey(name, error.type, values[name]);
      }
    }
    return result;
  };
}

/** `error → translated message`, for a Field's `error` prop. */
export function useFieldMessage() {
  const { t } = useTranslation('auth');
  const errorMessage = useErrorMessage();
  return useCallback(
    (error: FieldError | undefined): string | undefined => {
      if (!error) return undefined;
      if (error.type === API_ERROR_TYPE) return errorMessage({ code: error.message });
      const key = isValidationKey(error.message) ? error.message : 'invalid';
      return t(`validation.${key}`, VALIDATION_PARAMS[key]);
    },
    [t, errorMessage],
  );
}

/** `[{path: 'body.phone'}]` → `['phone']` (API.md "Conventions", VALIDATION_ERROR). */
export function invalidFields(error: unknown): string[] {
  if (!isApiError(error) || !Array.isArray(error.details)) return [];
  return error.details.flatMap((detail: unknown) => {
    const path = (detail as { path?: unknown } | null)?.path;
    return typeof path === 'string' ? [path.replace(/^body\./, '').split('.')[0]!] : [];
  });
}

/**
 * Refusals about one field, whose `details` name it: shown on that field as `errors:<code>`
 * (e.g. WEAK_PASSWORD: the server alone checks passwords against the breach lists, which are too
 * big for the app's bundle).
 */
const FIELD_ERROR_CODES = new Set(['WEAK_PASSWORD', 'SMS_UNAVAILABLE', 'INVALID_PHONE_CODE']);

/**
 * Puts a server refusal on the fields it names: VALIDATION_ERROR details, the 409 conflicts
 * EMAIL_TAKEN / PHONE_TAKEN, and the field codes above. Returns whether any field took it (else
 * show it above the form).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  form: { setError: UseFormSetError<T>; getValues: UseFormGetValues<T> },
  fields: readonly Path<T>[],
): boolean {
  if (!isApiError(error)) return false;
  const conflicts: Record<string, string> = { EMAIL_TAKEN: 'email', PHONE_TAKEN: 'phone' };
  const conflictField = conflicts[error.code];
  if (conflictField && fields.includes(conflictField as Path<T>)) {
    form.setError(
      conflictField as Path<T>,
      { type: API_ERROR_TYPE, message: error.code },
      { shouldFocus: true },
    );
    return true;
  }
  if (FIELD_ERROR_CODES.has(error.code)) {
    const named = invalidFields(error).filter((field): field is Path<T> =>
      fields.includes(field as Path<T>),
    );
    named.forEach((field, index) =>
      form.setError(
        field,
        { type: API_ERROR_TYPE, message: error.code },
        { shouldFocus: index === 0 },
      ),
    );
    return named.length > 0;
  }
  if (error.code !== 'VALIDATION_ERROR') return false;
  const named = invalidFields(error).filter((field): field is Path<T> =>
    fields.includes(field as Path<T>),
  );
  named.forEach((field, index) =>
    form.setError(
      field,
      {
        type: SERVER_ERROR_TYPE,
        message: validationKey(field, SERVER_ERROR_TYPE, form.getValues(field)),
      },
      { shouldFocus: index === 0 },
    ),
  );
  return named.length > 0;
}
