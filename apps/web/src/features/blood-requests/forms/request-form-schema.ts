import { z } from 'zod';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import {
  BLOOD_REQUEST_LIMITS,
  BLOOD_TYPES,
  URGENCIES,
  createBloodRequestSchema,
  hasUnsafeCharacters,
  contactPhoneSchema,
  requiredBySchema,
} from '@bdms/shared';
import { isApiError } from '../../../lib/api-client';

/**
 * The emergency request form: the shared `createBloodRequestSchema` fields, adapted where a form
 * differs from the payload (an empty optional input is '', `requiredBy` is a local date-time).
 * Only lazily loaded screens import this file.
 */
const shape = createBloodRequestSchema.shape;
const blankToUndefined = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value));

export const requestFormSchema = z.object({
  bloodType: z.enum(BLOOD_TYPES),
  unitsNeeded: shape.unitsNeeded,
  urgency: z.enum(URGENCIES),
  hospitalName: shape.hospitalName,
  facilityId: blankToUndefined,
  city: shape.city,
  state: shape.state,
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  patientName: blankToUndefined.pipe(shape.patientName),
  contactName: shape.contactName,
  contactPhone: contactPhoneSchema,
  /** `<input type="datetime-local">`: local time, sent as ISO with a zone. */
  requiredBy: blankToUndefined
    .transform((value) => {
      if (value === undefined) return undefined;
      const time = new Date(value);
      return Number.isNaN(time.getTime()) ? value : time.toISOString();
    })
    .pipe(requiredBySchema.optional()),
  notes: blankToUndefined.pipe(shape.notes),
});
export type RequestFormInput = z.input<typeof requestFormSchema>;
export type RequestFormOutput = z.output<typeof requestFormSchema>;
export type RequestFormField = keyof RequestFormInput;

export const REQUEST_FORM_FIELDS = Object.keys(requestFormSchema.shape) as RequestFormField[];

export const REQUEST_VALIDATION_KEYS = [
  'unsafeCharacters',
  'bloodTypeRequired',
  'unitsInvalid',
  'urgencyRequired',
  'hospitalRequired',
  'cityRequired',
  'stateRequired',
  'patientNameInvalid',
  'contactNameRequired',
  'contactNameInvalid',
  'phoneRequired',
  'phoneInvalid',
  'requiredByInvalid',
  'notesTooLong',
  'invalid',
] as const;
export type RequestValidationKey = (typeof REQUEST_VALIDATION_KEYS)[number];

export const REQUEST_VALIDATION_PARAMS: Partial<
  Record<RequestValidationKey, Record<string, number>>
> = {
  unitsInvalid: { min: BLOOD_REQUEST_LIMITS.minUnits, max: BLOOD_REQUEST_LIMITS.maxUnits },
  requiredByInvalid: { days: BLOOD_REQUEST_LIMITS.requiredByMaxDays },
  notesTooLong: { max: BLOOD_REQUEST_LIMITS.notesMax },
};

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A field's message key, from the field and its value (never the schema's English text). */
export function requestValidationKey(field: string, value: unknown): RequestValidationKey {
  const blank = isBlank(value);
  // Notes may hold line feeds and tabs; every other field is one line.
  if (typeof value === 'string' && hasUnsafeCharacters(value, field === 'notes')) {
    return 'unsafeCharacters';
  }
  switch (field) {
    case 'bloodType':
      return 'bloodTypeRequired';
    case 'unitsNeeded':
      return 'unitsInvalid';
    case 'urgency':
      return 'urgencyRequired';
    case 'hospitalName':
    case 'facilityId':
      return 'hospitalRequired';
    case 'city':
      return 'cityRequired';
    case 'state':
      return 'stateRequired';
    case 'patientName':
      return 'patientNameInvalid';
    case 'contactName':
      return blank ? 'contactNameRequired' : 'contactNameInvalid';
    case 'contactPhone':
      return blank ? 'phoneRequired' : 'phoneInvalid';
    case 'requiredBy':
      return 'requiredByInvalid';
    case 'notes':
      return 'notesTooLong';
    default:
      return 'invalid';
  }
}

export function isRequestValidationKey(value: unknown): value is RequestValidationKey {
  return (
    typeof value === 'string' && (REQUEST_VALIDATION_KEYS as readonly string[]).includes(value)
  );
}

/** Wraps a resolver so each error's `message` is a `requests:validation.*` key. */
export function withRequestMessageKeys<TValues extends FieldValues, TContext, TTransformed>(
  resolver: Resolver<TValues, TContext, TTransformed>,
): Resolver<TValues, TContext, TTransformed> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    for (const [name, error] of Object.entries(result.errors) as [string, FieldError][]) {
      if (error && typeof error === 'object') {
        error.message = requestValidationKey(name, values[name]);
      }
    }
    return result;
  };
}

/** `[{path: 'body.contactPhone'}]` → the form fields a 400 VALIDATION_ERROR names. */
export function invalidRequestFields(error: unknown): RequestFormField[] {
  if (!isApiError(error) || error.code !== 'VALIDATION_ERROR' || !Array.isArray(error.details)) {
    return [];
  }
  return error.details.flatMap((detail: unknown) => {
    const path = (detail as { path?: unknown } | null)?.path;
    if (typeof path !== 'string') return [];
    const field = path.replace(/^body\./, '').split('.')[0] as RequestFormField;
    return REQUEST_FORM_FIELDS.includes(field) ? [field] : [];
  });
}
