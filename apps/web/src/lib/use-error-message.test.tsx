import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { i18n } from '../i18n';
import { ApiError } from './api-client';
import { useErrorMessage } from './use-error-message';

const apiError = (code: string) =>
  new ApiError({
    message: 'HTTP 409: Conflict',
    status: 409,
    statusText: 'Conflict',
    code,
    requestId: 'r',
  });

describe('useErrorMessage', () => {
  it('translates a known error code', () => {
    const { result } = renderHook(() => useErrorMessage());
    expect(result.current(apiError('EMAIL_TAKEN'))).toBe(
      'An account with this e-mail address already exists.',
    );
    expect(result.current(apiError('NETWORK_ERROR'))).toBe(
      "We couldn't reach the server. Check your internet connection and try again.",
    );
  });

  it('falls back to a generic message for unknown codes and other errors', () => {
    const { result } = renderHook(() => useErrorMessage());
    expect(result.current(apiError('SOMETHING_NEW'))).toBe(
      'Something went wrong. Please try again.',
    );
    expect(result.current(new Error('boom'))).toBe('Something went wrong. Please try again.');
  });

  it('says how long to wait when a 429 says so, in the current language', async () => {
    const limited = (seconds: number) =>
      new ApiError({
        message: 'HTTP 429: Too Many Requests',
        status: 429,
        statusText: 'Too Many Requests',
        code: 'RATE_LIMITED',
        requestId: 'r',
        retryAfterSeconds: seconds,
      });
    const { result, rerender } = renderHook(() => useErrorMessage());
    expect(result.current(limited(45))).toBe('Too many attempts. Please try again in 45 seconds.');
    expect(result.current(limited(600))).toBe('Too many attempts. Please try again in 10 minutes.');
    expect(result.current(apiError('RATE_LIMITED'))).toBe(
      'Too many attempts. Please wait a moment and try again.',
    );
    await i18n.changeLanguage('es');
    rerender();
    expect(result.current(limited(1))).toBe(
      'Demasiados intentos. Inténtalo de nuevo dentro de 1 segundo.',
    );
  });

  it('translates session errors by their code', () => {
    const { result } = renderHook(() => useErrorMessage());
    expect(result.current({ code: 'INVALID_LOGIN_DATA' })).toBe('Invalid login data provided');
    expect(result.current({ code: 'SESSION_EXPIRED' })).toBe(
      'Session expired. Please sign in again.',
    );
  });
});
