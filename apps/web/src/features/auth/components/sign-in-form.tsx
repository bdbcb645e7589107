import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH, SECOND, formatIndianPhone, type Role } from '@bdms/shared';
import { useFeatureFlag } from '../../../config/use-config';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Field, Input } from '../../../components/field';
import { LinkButton } from '../../../components/link-button';
import { useErrorMessage } from '../../../lib/use-error-message';
import { useAuthActions } from '../auth-context';
import {
  loginFormSchema,
  otpCodeFormSchema,
  otpEmailFormSchema,
  otpPhoneFormSchema,
} from '../forms/schemas';
import type { OtpTarget } from '../types';
import {
  API_ERROR_TYPE,
  applyServerErrors,
  useFieldMessage,
  withMessageKeys,
} from '../forms/validation';
import { PasswordInput } from './password-input';

/** A new code may be asked for 30 s after the last one. */
export const OTP_RESEND_AFTER_MS = 30 * SECOND;

const LINK = 'inline-flex min-h-11 items-center font-semibold text-primary-700 underline';

/** An error the form could not put on a field, above the form (announced: role="alert"). */
export function FormError({ error }: { error: unknown }) {
  const errorMessage = useErrorMessage();
  if (!error) return null;
  return <Alert variant="error" dismissible={false} message={errorMessage(error)} />;
}

/** `?method=code` selects the one-time code: linkable, and Back returns to the password. */
const CODE_METHOD = 'code';

/**
 * The sign-in form of /login, /admin/login and /hospital/login: e-mail and password, or a
 * one-time code by e-mail. On success the session is stored; the page then moves on.
 */
export function SignInForm({ role }: { role?: Exclude<Role, 'donor'> }) {
  const [searchParams] = useSearchParams();
  const [hasSwitched, setHasSwitched] = useState(false);
  const isCode = searchParams.get('method') === CODE_METHOD;
  return isCode ? (
    <OtpSignIn onSwitch={() => setHasSwitched(true)} />
  ) : (
    <PasswordSignIn role={role} focusEmail={hasSwitched} onSwitch={() => setHasSwitched(true)} />
  );
}

/** A link to the other sign-in method, keeping the remembered origin. */
function MethodLink({ toCode, onClick }: { toCode: boolean; onClick: () => void }) {
  const { t } = useTranslation('auth');
  const location = useLocation();
  return (
    <LinkButton
      to={{ search: toCode ? `?method=${CODE_METHOD}` : '' }}
      state={location.state}
      variant="secondary"
      fullWidth
      onClick={onClick}
    >
      {toCode ? t('login.useOtp') : t('login.usePassword')}
    </LinkButton>
  );
}

function PasswordSignIn({
  role,
  focusEmail,
  onSwitch,
}: {
  role?: Role;
  focusEmail: boolean;
  onSwitch: () => void;
}) {
  const { t } = useTranslation('auth');
  const { login } = useAuthActions();
  const fieldMessage = useFieldMessage();
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: withMessageKeys(zodResolver(loginFormSchema)),
    defaultValues: { email: '', password: '' },
  });

  // Back from the one-time code: the link that was focused is gone, so start at the e-mail.
  useEffect(() => {
    if (focusEmail) setFocus('email');
  }, [focusEmail, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await login(role ? { ...values, role } : values);
    } catch (error) {
      if (!applyServerErrors(error, { setError, getValues }, ['email', 'password']))
        setFailure(error);
    }
  });

  return (
    <div className="flex flex-col gap-5">
      <FormError error={failure} />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <Field label={t('fields.email')} error={fieldMessage(errors.email)} isRequired>
          <Input type="email" autoComplete="username" inputMode="email" {...register('email')} />
        </Field>
        <Field label={t('fields.password')} error={fieldMessage(errors.password)} isRequired>
          <PasswordInput {...register('password')} />
        </Field>
        <Link to="/forgot-password" className={`${LINK} self-start`}>
          {t('login.forgotPassword')}
        </Link>
        <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
          {t('login.submit')}
        </Button>
      </form>
      <MethodLink toCode onClick={onSwitch} />
    </div>
  );
}

/** Seconds until `until` (epoch ms), ticking every second; 0 once it has passed. */
function useSecondsUntil(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), SECOND);
    return () => clearInterval(timer);
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / SECOND));
}

function OtpSignIn({ onSwitch }: { onSwitch: () => void }) {
  const [target, setTarget] = useState<OtpTarget | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const sent = (to: OtpTarget) => {
    setTarget(to);
    setResendAt(Date.now() + OTP_RESEND_AFTER_MS);
  };
  return (
    <div className="flex flex-col gap-5">
      {target ? (
        <OtpCodeStep
          target={target}
          resendAt={resendAt}
          onResent={() => sent(target)}
          onChangeEmail={() => setTarget(null)}
        />
      ) : (
        <OtpTargetStep onSent={sent} />
      )}
      <MethodLink toCode={false} onClick={onSwitch} />
    </div>
  );
}

/** E-mail, or (with phone verification on) a verified mobile number: the reader chooses. */
function OtpTargetStep({ onSent }: { onSent: (target: OtpTarget) => void }) {
  const { t } = useTranslation('auth');
  const phoneCodes = useFeatureFlag('phoneVerification');
  const [channel, setChannel] = useState<'email' | 'phone'>('email');
  return (
    <div className="flex flex-col gap-5">
      {phoneCodes && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 font-semibold text-slate-900">{t('otp.channel')}</legend>
          <div className="grid grid-cols-2 gap-2">
            {(['email', 'phone'] as const).map((value) => (
              <label
                key={value}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-400 px-3 has-[:checked]:border-primary-700 has-[:checked]:bg-primary-50"
              >
                <input
                  type="radio"
                  name="otp-channel"
                  value={value}
                  checked={channel === value}
                  onChange={() => setChannel(value)}
                  className="size-5 accent-primary-700"
                />
                {t(value === 'email' ? 'otp.byEmail' : 'otp.byPhone')}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {phoneCodes && channel === 'phone' ? (
        <OtpPhoneStep onSent={(phone) => onSent({ phone })} />
      ) : (
        <OtpEmailStep onSent={(email) => onSent({ email })} />
      )}
    </div>
  );
}

function OtpPhoneStep({ onSent }: { onSent: (phone: string) => void }) {
  const { t } = useTranslation('auth');
  const { requestOtp } = useAuthActions();
  const fieldMessage = useFieldMessage();
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: withMessageKeys(zodResolver(otpPhoneFormSchema)),
    defaultValues: { phone: '' },
  });

  useEffect(() => setFocus('phone'), [setFocus]);

  const onSubmit = handleSubmit(async ({ phone }) => {
    setFailure(null);
    try {
      await requestOtp({ phone });
      onSent(phone);
    } catch (error) {
      setFailure(error);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="text-slate-700">{t('otp.introPhone')}</p>
      <FormError error={failure} />
      <Field label={t('fields.phone')} error={fieldMessage(errors.phone)} isRequired>
        <Input type="tel" autoComplete="tel-national" inputMode="tel" {...register('phone')} />
      </Field>
      <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
        {t('otp.send')}
      </Button>
    </form>
  );
}

function OtpEmailStep({ onSent }: { onSent: (email: string) => void }) {
  const { t } = useTranslation('auth');
  const { requestOtp } = useAuthActions();
  const fieldMessage = useFieldMessage();
  const [failure, setFailure] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: withMessageKeys(zodResolver(otpEmailFormSchema)),
    defaultValues: { email: '' },
  });

  // Shown after a deliberate switch (or "Use another e-mail address"): start at its only field.
  useEffect(() => setFocus('email'), [setFocus]);

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await requestOtp({ email });
      onSent(email);
    } catch (error) {
      setFailure(error);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="text-slate-700">{t('otp.intro')}</p>
      <FormError error={failure} />
      <Field label={t('fields.email')} error={fieldMessage(errors.email)} isRequired>
        <Input type="email" autoComplete="username" inputMode="email" {...register('email')} />
      </Field>
      <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
        {t('otp.send')}
      </Button>
    </form>
  );
}

function OtpCodeStep({
  target,
  resendAt,
  onResent,
  onChangeEmail,
}: {
  target: OtpTarget;
  resendAt: number;
  onResent: () => void;
  onChangeEmail: () => void;
}) {
  const { t } = useTranslation('auth');
  const { requestOtp, loginWithOtp } = useAuthActions();
  const fieldMessage = useFieldMessage();
  const statusId = useId();
  const [failure, setFailure] = useState<unknown>(null);
  const [isResending, setIsResending] = useState(false);
  const [hasResent, setHasResent] = useState(false);
  const secondsLeft = useSecondsUntil(resendAt);
  const codeRef = useRef<HTMLInputElement | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: withMessageKeys(zodResolver(otpCodeFormSchema)),
    defaultValues: { code: '' },
  });
  const { ref: registerCodeRef, ...codeField } = register('code', {
    setValueAs: (value: string) => value.replace(/\D/g, ''),
  });

  useEffect(() => codeRef.current?.focus(), []);

  const onSubmit = handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      await loginWithOtp({ ...target, code });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'INVALID_OTP') {
        setError('code', { type: API_ERROR_TYPE, message: code }, { shouldFocus: true });
      } else {
        setFailure(error);
      }
    }
  });

  const resend = async () => {
    setFailure(null);
    setIsResending(true);
    try {
      await requestOtp(target);
      setHasResent(true);
      onResent();
    } catch (error) {
      setFailure(error);
    } finally {
      setIsResending(false);
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p role="status" id={statusId} className="text-slate-700">
        {hasResent
          ? t('otp.resent')
          : 'phone' in target
            ? t('otp.sentPhone', { phone: formatIndianPhone(target.phone) })
            : t('otp.sent', { email: target.email })}
      </p>
      <FormError error={failure} />
      <Field
        label={t('fields.code')}
        hint={t('phone' in target ? 'otp.codeHintPhone' : 'fields.codeHint')}
        error={fieldMessage(errors.code)}
        isRequired
      >
        <Input
          {...codeField}
          ref={(element) => {
            registerCodeRef(element);
            codeRef.current = element;
          }}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH + 2}
          className="text-xl tracking-widest"
        />
      </Field>
      <Button type="submit" size="lg" fullWidth isLoading={isSubmitting}>
        {t('otp.submit')}
      </Button>
      <div className="flex flex-col gap-2">
        <Button
          variant="ghost"
          fullWidth
          disabled={secondsLeft > 0}
          isLoading={isResending}
          onClick={() => void resend()}
        >
          {t('otp.resend')}
        </Button>
        {secondsLeft > 0 && (
          <p className="text-center text-sm text-slate-600">
            {t('otp.resendIn', { seconds: secondsLeft })}
          </p>
        )}
        <Button variant="ghost" fullWidth onClick={onChangeEmail}>
          {t('phone' in target ? 'otp.changePhone' : 'otp.changeEmail')}
        </Button>
      </div>
    </form>
  );
}
