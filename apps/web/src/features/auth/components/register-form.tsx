import { useCallback, useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useForm, type FieldError, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  BLOOD_TYPES,
  DONOR_MAX_AGE,
  DONOR_MIN_AGE,
  GENDERS,
  LANGUAGES,
  PASSWORD_MIN,
  REFERRAL_CODE_PATTERN,
  addIsoMonths,
  normalizeIndianPhone,
  todayInIndia,
} from '@bdms/shared';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { CheckCircleIcon, ErrorCircleIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast';
import { useFeatureFlag } from '../../../config/use-config';
import { useErrorMessage } from '../../../lib/use-error-message';
import { checkEmail, checkPhone } from '../api/auth-api';
import { useAuthActions } from '../auth-context';
import {
  registerFormSchema,
  type RegisterFormInput,
  type RegisterFormOutput,
} from '../forms/schemas';
import { useAvailability, type AvailabilityStatus } from '../forms/use-availability';
import {
  API_ERROR_TYPE,
  applyServerErrors,
  useFieldMessage,
  type FormField,
  withMessageKeys,
} from '../forms/validation';
import { ChoiceGroup } from '../../../components/choice-group';
import { PasswordInput } from './password-input';
import { PasswordStrengthMeter } from './password-strength-meter';
import { FormError } from './sign-in-form';
import { StateSelect } from './state-select';
import { TaggedText } from '../../../components/tagged-text';

const FIELDS = [
  'fullName',
  'email',
  'phone',
  'password',
  'bloodType',
  'dateOfBirth',
  'gender',
  'city',
  'state',
  'pincode',
  'consent',
] as const satisfies readonly FormField[];

/** Good enough to ask the server about; the schema decides on submit. */
const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CONTENT_LANGUAGES = LANGUAGES;
const LINK = 'font-semibold text-primary-700 underline';

/** YYYY-MM-DD of today in India minus `years`, for the date input's min and max. */
function yearsAgo(years: number): string {
  return addIsoMonths(todayInIndia(), -12 * years);
}

function SectionHeading({ children }: { children: ReactNode }) {
  return (
    <h2 className="border-b border-slate-200 pb-2 text-xl font-semibold text-slate-900">
      {children}
    </h2>
  );
}

/** The live availability answer under the e-mail and phone inputs (always present: a live region). */
function AvailabilityNote({
  id,
  kind,
  status,
}: {
  id: string;
  kind: 'email' | 'phone';
  status: AvailabilityStatus;
}) {
  const { t } = useTranslation('auth');
  let content: ReactNode = null;
  if (status === 'checking') {
    content = (
      <span className="flex items-center gap-1.5 text-slate-600">
        <Spinner size="sm" />
        {t('register.checking')}
      </span>
    );
  } else if (status === 'available') {
    content = (
      <span className="flex items-center gap-1.5 text-success-700">
        <CheckCircleIcon className="size-4 shrink-0" />
        {t(`register.${kind}Available`)}
      </span>
    );
  } else if (status === 'taken') {
    content = (
      <span className="flex flex-wrap items-center gap-x-1.5 font-medium text-primary-700">
        <ErrorCircleIcon className="size-4 shrink-0" />
        {t(`register.${kind}Taken`)}
        <Link to="/login" className={`${LINK} inline-flex min-h-11 items-center`}>
          {t('register.signInInstead')}
        </Link>
      </span>
    );
  }
  return (
    <div id={id} aria-live="polite" className="text-sm">
      {content}
    </div>
  );
}

/**
 * Donor registration (`POST /auth/register`), every field of the register body. Validated with
 * the shared schema, messages translated; e-mail and phone are checked live; a 409 from the
 * server lands on its field. `onSubmitting(true)` runs before the call, so the page knows that
 * the sign-in that follows is a new registration (and goes to onboarding, not home).
 */
export function RegisterForm({ onSubmitting }: { onSubmitting: (isSubmitting: boolean) => void }) {
  const { t, i18n } = useTranslation('auth');
  const { register: registerAccount } = useAuthActions();
  const toast = useToast();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<unknown>(null);
  // An invitation link (/register?ref=CODE) while referralSystem is on: the code goes with the
  // registration, and the new donor chooses whether the inviter may see them.
  const [searchParams] = useSearchParams();
  const referralsOn = useFeatureFlag('referralSystem');
  const askedCode = searchParams.get('ref')?.trim().toUpperCase() ?? '';
  const referralCode = referralsOn && REFERRAL_CODE_PATTERN.test(askedCode) ? askedCode : null;
  const [shareWithReferrer, setShareWithReferrer] = useState(false);
  const shareId = useId();
  const emailNoteId = useId();
  const phoneNoteId = useId();
  const strengthId = useId();
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<RegisterFormInput, unknown, RegisterFormOutput>({
    resolver: withMessageKeys(zodResolver(registerFormSchema)),
    defaultValues: {
      fullName: '',
      email: '',
      phone: '',
      password: '',
      dateOfBirth: '',
      city: '',
      state: '',
      pincode: '',
    },
  });

  const email = watch('email');
  const phone = watch('phone');
  const password = watch('password');
  const emailCheck = useAvailability(
    useCallback((value: string, signal: AbortSignal) => checkEmail(value, signal), []),
    EMAIL_LIKE.test(email.trim()) ? email.trim().toLowerCase() : null,
  );
  const phoneCheck = useAvailability(
    useCallback((value: string, signal: AbortSignal) => checkPhone(value, signal), []),
    normalizeIndianPhone(phone),
  );

  /** A field's message; a conflict (already registered) also offers to sign in instead. */
  const messageFor = (field: (typeof FIELDS)[number]): ReactNode => {
    const error = errors[field] as FieldError | undefined;
    const message = fieldMessage(error);
    if (error?.type !== API_ERROR_TYPE) return message;
    return (
      <>
        {errorMessage({ code: error.message })}{' '}
        <Link to="/login" className={LINK}>
          {t('register.signInInstead')}
        </Link>
      </>
    );
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    // Known to be taken already: say so on the field instead of asking the server to refuse.
    if (emailCheck.status === 'taken' || phoneCheck.status === 'taken') {
      if (emailCheck.status === 'taken') {
        setError('email', { type: API_ERROR_TYPE, message: 'EMAIL_TAKEN' }, { shouldFocus: true });
      }
      if (phoneCheck.status === 'taken') {
        setError(
          'phone',
          { type: API_ERROR_TYPE, message: 'PHONE_TAKEN' },
          { shouldFocus: emailCheck.status !== 'taken' },
        );
      }
      return;
    }
    const language = CONTENT_LANGUAGES.find((code) => code === i18n.language);
    onSubmitting(true);
    try {
      const invitation = referralCode ? { referralCode, shareWithReferrer } : {};
      await registerAccount(
        language ? { ...values, ...invitation, language } : { ...values, ...invitation },
      );
      toast.success(t('register.welcome'));
    } catch (error) {
      onSubmitting(false);
      if (!applyServerErrors(error, { setError, getValues }, FIELDS)) setFailure(error);
    }
  });

  const showEmailNote = !errors.email;
  const showPhoneNote = !errors.phone;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-8">
      <FormError error={failure} />

      <section className="flex flex-col gap-5">
        <SectionHeading>{t('register.account')}</SectionHeading>
        <Field label={t('fields.fullName')} error={messageFor('fullName')} isRequired>
          <Input autoComplete="name" {...register('fullName')} />
        </Field>
        <Field label={t('fields.email')} error={messageFor('email')} isRequired>
          <Input
            type="email"
            autoComplete="email"
            inputMode="email"
            aria-describedby={emailCheck.status === 'idle' ? undefined : emailNoteId}
            aria-invalid={emailCheck.status === 'taken' || undefined}
            {...register('email', { onBlur: emailCheck.checkNow })}
          />
        </Field>
        <AvailabilityNote
          id={emailNoteId}
          kind="email"
          status={showEmailNote ? emailCheck.status : 'idle'}
        />
        <Field
          label={t('fields.phone')}
          hint={t('fields.phoneHint')}
          error={messageFor('phone')}
          isRequired
        >
          <Input
            type="tel"
            autoComplete="tel-national"
            inputMode="tel"
            aria-describedby={phoneCheck.status === 'idle' ? undefined : phoneNoteId}
            aria-invalid={phoneCheck.status === 'taken' || undefined}
            {...register('phone', { onBlur: phoneCheck.checkNow })}
          />
        </Field>
        <AvailabilityNote
          id={phoneNoteId}
          kind="phone"
          status={showPhoneNote ? phoneCheck.status : 'idle'}
        />
        <Field
          label={t('fields.password')}
          hint={t('password.hint', { min: PASSWORD_MIN })}
          error={messageFor('password')}
          isRequired
        >
          <PasswordInput
            autoComplete="new-password"
            aria-describedby={strengthId}
            {...register('password')}
          />
        </Field>
        <PasswordStrengthMeter id={strengthId} password={password} />
      </section>

      <section className="flex flex-col gap-5">
        <SectionHeading>{t('register.aboutYou')}</SectionHeading>
        <ChoiceGroup
          legend={t('fields.bloodType')}
          hint={t('fields.bloodTypeHint')}
          error={messageFor('bloodType')}
          options={BLOOD_TYPES.map((type) => ({ value: type, label: type }))}
          optionsClassName="grid-cols-4"
          registration={register('bloodType')}
          isRequired
        />
        <Field
          label={t('fields.dateOfBirth')}
          hint={t('fields.dateOfBirthHint', { min: DONOR_MIN_AGE, max: DONOR_MAX_AGE })}
          error={messageFor('dateOfBirth')}
          isRequired
        >
          <Input
            type="date"
            autoComplete="bday"
            min={yearsAgo(DONOR_MAX_AGE + 1)}
            max={yearsAgo(DONOR_MIN_AGE)}
            {...register('dateOfBirth')}
          />
        </Field>
        <ChoiceGroup
          legend={t('fields.gender')}
          error={messageFor('gender')}
          options={GENDERS.map((gender) => ({ value: gender, label: t(`genders.${gender}`) }))}
          optionsClassName="grid-cols-3"
          registration={register('gender')}
          isRequired
        />
      </section>

      <section className="flex flex-col gap-5">
        <SectionHeading>{t('register.location')}</SectionHeading>
        <Field label={t('fields.state')} error={messageFor('state')} isRequired>
          <StateSelect autoComplete="address-level1" {...register('state')} />
        </Field>
        <Field label={t('fields.city')} error={messageFor('city')} isRequired>
          <Input autoComplete="address-level2" {...register('city')} />
        </Field>
        <Field
          label={t('fields.pincode')}
          hint={t('fields.pincodeHint')}
          error={messageFor('pincode')}
        >
          <Input
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={6}
            className="max-w-40"
            {...register('pincode')}
          />
        </Field>
      </section>

      <section className="flex flex-col gap-5">
        <p className="flex items-start gap-2 rounded-lg bg-slate-50 p-4 text-slate-800">
          {t('register.privacyNote')}
        </p>
        <ConsentCheckbox error={messageFor('consent')} registration={register('consent')} />
        {referralCode && (
          <div className="flex flex-col gap-1 rounded-lg border border-slate-200 p-3">
            <p className="text-slate-800">{t('register.invited', { code: referralCode })}</p>
            <div className="flex items-start gap-1">
              <span className="flex size-11 shrink-0 items-center justify-center">
                <input
                  id={shareId}
                  type="checkbox"
                  checked={shareWithReferrer}
                  onChange={(event) => setShareWithReferrer(event.target.checked)}
                  className="size-6 accent-primary-700"
                />
              </span>
              <label htmlFor={shareId} className="py-2.5 text-slate-900">
                {t('register.shareWithReferrer')}
              </label>
            </div>
          </div>
        )}
        <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
          {t('register.submit')}
        </Button>
        <p className="text-slate-700">
          {t('register.haveAccount')}{' '}
          <Link to="/login" className={`${LINK} inline-flex min-h-11 items-center`}>
            {t('register.signIn')}
          </Link>
        </p>
      </section>
    </form>
  );
}

function ConsentCheckbox({
  error,
  registration,
}: {
  error: ReactNode;
  registration: UseFormRegisterReturn;
}) {
  const { t } = useTranslation('auth');
  const id = useId();
  const errorId = `${id}-error`;
  const newTab = (href: string) => (text: string) => (
    <a href={href} target="_blank" rel="noopener noreferrer" className={LINK}>
      {text}
    </a>
  );
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-start gap-1">
        <span className="flex size-11 shrink-0 items-center justify-center">
          <input
            id={id}
            type="checkbox"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            aria-required
            className="size-6 accent-primary-700"
            {...registration}
          />
        </span>
        <label htmlFor={id} className="py-2.5 text-slate-900">
          <TaggedText
            text={t('register.consent')}
            tags={{ privacy: newTab('/privacy'), terms: newTab('/terms') }}
          />{' '}
          <span className="sr-only">{t('register.opensInNewTab')}</span>
        </label>
      </div>
      {error && (
        <p id={errorId} className="flex items-start gap-1.5 text-sm font-medium text-primary-700">
          <ErrorCircleIcon className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}
