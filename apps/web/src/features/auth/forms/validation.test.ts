import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { ApiError } from '../../../lib/api-client';
import { registerFormSchema } from './schemas';
import {
  applyServerErrors,
  invalidFields,
  useFieldMessage,
  validationKey,
  withMessageKeys,
} from './validation';

describe('validationKey', () => {
  it.each([
    ['email', '', 'emailRequired'],
    ['email', 'asha@', 'emailInvalid'],
    ['password', '', 'passwordRequired'],
    ['password', 'short', 'passwordTooShort'],
    ['newPassword', 'x'.repeat(129), 'passwordTooLong'],
    ['confirmPassword', 'abc', 'confirmPasswordMismatch'],
    ['currentPassword', 'abc', 'currentPasswordWrong'],
    ['phone', '12345', 'phoneInvalid'],
    ['dateOfBirth', '', 'dateOfBirthRequired'],
    ['dateOfBirth', '2001-02-30', 'dateOfBirthInvalid'],
    ['dateOfBirth', '2020-01-01', 'dateOfBirthAge'],
    ['consent', false, 'consentRequired'],
    ['code', '12', 'codeInvalid'],
    ['somethingElse', 'x', 'invalid'],
    ['fullName', 'Ravi \u202eramuK', 'unsafeCharacters'],
    ['city', 'Pune\u0007', 'unsafeCharacters'],
  ] as const)('%s = %j → %s', (field, value, key) => {
    expect(validationKey(field, undefined, value)).toBe(key);
  });
});

describe('withMessageKeys', () => {
  it('replaces the schema’s English messages with validation keys', async () => {
    const resolver = withMessageKeys(zodResolver(registerFormSchema));
    const result = await resolver(
      {
        fullName: '',
        email: 'asha@',
        phone: '98765',
        password: 'short',
        dateOfBirth: '2020-01-01',
        city: 'P',
        state: '',
        pincode: '0123',
      } as never,
      undefined,
      { fields: {}, shouldUseNativeValidation: false },
    );
    const messages = Object.fromEntries(
      Object.entries(result.errors).map(([name, error]) => [name, error?.message]),
    );
    expect(messages).toEqual({
      fullName: 'fullNameRequired',
      email: 'emailInvalid',
      phone: 'phoneInvalid',
      password: 'passwordTooShort',
      bloodType: 'bloodTypeRequired',
      dateOfBirth: 'dateOfBirthAge',
      gender: 'genderRequired',
      city: 'cityInvalid',
      state: 'stateRequired',
      pincode: 'pincodeInvalid',
      consent: 'consentRequired',
    });
  });
});

describe('useFieldMessage', () => {
  it('reads the key in the current language, with its numbers', () => {
    const { result } = renderHook(() => useFieldMessage());
    expect(result.current({ type: 'too_small', message: 'passwordTooShort' })).toBe(
      'Use at least 8 characters.',
    );
    expect(result.current({ type: 'custom', message: 'dateOfBirthAge' })).toBe(
      'Donors must be 18 to 65 years old.',
    );
    expect(result.current({ type: 'api', message: 'EMAIL_TAKEN' })).toBe(
      'An account with this e-mail address already exists.',
    );
    expect(result.current({ type: 'custom', message: 'Some English text' })).toBe(
      'Check this field.',
    );
    expect(result.current(undefined)).toBeUndefined();
  });

  it('explains a refused control or text-direction character in every language, keeping Hindi names valid', async () => {
    const resolver = withMessageKeys(zodResolver(registerFormSchema));
    const errorsFor = async (fullName: string) =>
      (
        await resolver({ fullName } as never, undefined, {
          fields: {},
          shouldUseNativeValidation: false,
        })
      ).errors.fullName?.message;
    expect(await errorsFor('Ravi\u2066 Kumar')).toBe('unsafeCharacters');
    expect(await errorsFor('श्री\u200dमती अ\u200cनीता')).toBeUndefined();
    const { changeLanguage, i18n } = await import('../../../i18n');
    const texts: string[] = [];
    for (const language of ['en', 'es', 'hi'] as const) {
      await changeLanguage(language);
      const { result } = renderHook(() => useFieldMessage());
      texts.push(result.current({ type: 'custom', message: 'unsafeCharacters' })!);
    }
    await changeLanguage('en');
    expect(i18n.language).toBe('en');
    expect(texts[0]).toMatch(/^Remove invisible control characters/);
    expect(texts[1]).toMatch(/^Quita los caracteres de control/);
    expect(texts[2]).toMatch(/नियंत्रण वर्ण/);
  });
});

describe('server errors on fields', () => {
  const validation = new ApiError({
    message: 'HTTP 400: Bad Request',
    status: 400,
    statusText: 'Bad Request',
    code: 'VALIDATION_ERROR',
    details: [
      { path: 'body.phone', message: 'x' },
      { path: 'body.unknownField', message: 'y' },
    ],
    requestId: 'r',
  });

  it('reads the field names from VALIDATION_ERROR details', () => {
    expect(invalidFields(validation)).toEqual(['phone', 'unknownField']);
    expect(invalidFields(new Error('x'))).toEqual([]);
  });

  it('puts them on the form fields it knows, with a key chosen from the value', () => {
    const calls: unknown[] = [];
    const form = {
      setError: (...args: unknown[]) => calls.push(args),
      getValues: () => '12345',
    };
    expect(applyServerErrors(validation, form as never, ['phone', 'email'])).toBe(true);
    expect(calls).toEqual([
      ['phone', { type: 'server', message: 'phoneInvalid' }, { shouldFocus: true }],
    ]);
    expect(applyServerErrors(new Error('x'), form as never, ['phone'])).toBe(false);
  });

  it('shows a WEAK_PASSWORD refusal on the password field it names, as errors:<code>', () => {
    const calls: unknown[] = [];
    const form = { setError: (...args: unknown[]) => calls.push(args), getValues: () => '' };
    const weak = new ApiError({
      message: 'HTTP 400: Bad Request',
      status: 400,
      statusText: 'Bad Request',
      code: 'WEAK_PASSWORD',
      details: [{ path: 'body.password', message: 'too common' }],
      requestId: 'r',
    });
    expect(applyServerErrors(weak, form as never, ['email', 'password'])).toBe(true);
    expect(calls).toEqual([
      ['password', { type: 'api', message: 'WEAK_PASSWORD' }, { shouldFocus: true }],
    ]);
    // A form without that field shows it above the form instead.
    expect(applyServerErrors(weak, form as never, ['email'])).toBe(false);
  });
});
