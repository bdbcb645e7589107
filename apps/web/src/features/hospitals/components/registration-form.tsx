import { useState, type ComponentType, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { registerHospitalSchema, type Facility, type RegisterHospital } from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { isApiError } from '../../../lib/api-client';
import { useErrorMessage } from '../../../lib/use-error-message';

const FIELDS = [
  'name',
  'licenceNumber',
  'facilityId',
  'contactName',
  'email',
  'phone',
  'password',
] as const;
type RegistrationField = (typeof FIELDS)[number];
type Errors = Partial<Record<RegistrationField, string>>;

/** The directory combobox, composed in by the route (features do not import each other). */
export type FacilityPickerComponent = ComponentType<{
  label: string;
  hint?: string;
  error?: string | undefined;
  value: Facility | null;
  onChange: (facility: Facility | null) => void;
  isRequired?: boolean;
}>;

export interface RegistrationFormProps {
  FacilityPicker: FacilityPickerComponent;
  language: string;
  /** Sends the registration; resolves once the session is stored. */
  onSubmit: (body: RegisterHospital) => Promise<unknown>;
}

const isField = (value: string): value is RegistrationField =>
  (FIELDS as readonly string[]).includes(value);

/** `body.email` (server) or `email` (zod) → the form's field. */
function fieldOf(path: string | readonly PropertyKey[]): RegistrationField | null {
  const name = typeof path === 'string' ? path.replace(/^body\./, '').split('.')[0] : path[0];
  return typeof name === 'string' && isField(name) ? name : null;
}

/**
 * A blood centre or hospital registers itself (issue #17): its name and licence, the directory
 * entry it is (chosen by search), a contact person, the official e-mail and mobile, a password.
 */
export function RegistrationForm({ FacilityPicker, language, onSubmit }: RegistrationFormProps) {
  const { t } = useTranslation('hospital');
  const errorMessage = useErrorMessage();
  const [values, setValues] = useState({
    name: '',
    licenceNumber: '',
    contactName: '',
    email: '',
    phone: '',
    password: '',
  });
  const [facility, setFacility] = useState<Facility | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);

  const fieldMessage = (field: RegistrationField) => t(`register.errors.${field}`);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = registerHospitalSchema.safeParse({
      ...values,
      facilityId: facility?.id ?? '',
      language,
    });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path);
        if (field && !next[field]) next[field] = fieldMessage(field);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setIsSubmitting(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      const next: Errors = {};
      if (isApiError(error) && Array.isArray(error.details)) {
        for (const detail of error.details as { path?: unknown }[]) {
          const field = typeof detail.path === 'string' ? fieldOf(detail.path) : null;
          if (field && !next[field]) {
            next[field] =
              error.code === 'VALIDATION_ERROR' ? fieldMessage(field) : errorMessage(error);
          }
        }
      }
      setErrors(next);
      if (Object.keys(next).length === 0) setFormError(errorMessage(error));
    } finally {
      setIsSubmitting(false);
    }
  }

  const input = (field: Exclude<RegistrationField, 'facilityId'>) => ({
    value: values[field],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [field]: event.target.value })),
    required: true,
  });

  return (
    <form noValidate onSubmit={submit} className="flex max-w-2xl flex-col gap-5">
      {formError && <Alert variant="error" message={formError} />}
      <Field
        label={t('register.name')}
        hint={t('register.nameHint')}
        error={errors.name}
        isRequired
      >
        <Input autoComplete="organization" {...input('name')} />
      </Field>
      <FacilityPicker
        label={t('register.facility')}
        hint={t('register.facilityHint')}
        error={errors.facilityId}
        value={facility}
        onChange={(chosen) => {
          setFacility(chosen);
          setErrors((current) => ({ ...current, facilityId: undefined }));
        }}
        isRequired
      />
      <Field
        label={t('register.licenceNumber')}
        hint={t('register.licenceHint')}
        error={errors.licenceNumber}
        isRequired
      >
        <Input {...input('licenceNumber')} />
      </Field>
      <Field
        label={t('register.contactName')}
        hint={t('register.contactHint')}
        error={errors.contactName}
        isRequired
      >
        <Input autoComplete="name" {...input('contactName')} />
      </Field>
      <Field
        label={t('register.email')}
        hint={t('register.emailHint')}
        error={errors.email}
        isRequired
      >
        <Input type="email" autoComplete="email" {...input('email')} />
      </Field>
      <Field
        label={t('register.phone')}
        hint={t('register.phoneHint')}
        error={errors.phone}
        isRequired
      >
        <Input type="tel" autoComplete="tel" {...input('phone')} />
      </Field>
      <Field
        label={t('register.password')}
        hint={t('register.passwordHint')}
        error={errors.password}
        isRequired
      >
        <Input type="password" autoComplete="new-password" {...input('password')} />
      </Field>
      <div>
        <Button type="submit" isLoading={isSubmitting}>
          {t('register.submit')}
        </Button>
      </div>
    </form>
  );
}
