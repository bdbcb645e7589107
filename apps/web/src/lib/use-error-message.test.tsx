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

  it('names the date a refused accept gives, in the current language (issue #32 item 2)', async () => {
    const refused = (nextEligibleAt: string | null) =>
      new ApiError({
        message: 'HTTP 409: Conflict',
        status: 409,
        statusText: 'Conflict',
        code: 'DONOR_NOT_ELIGIBLE',
        requestId: 'r',
        details: { reason: 'donation_interval', nextEligibleAt },
      });
    await i18n.changeLanguage('en');
    const { result, rerender } = renderHook(() => useErrorMessage());
    // 00:00 IST on 23 February: still the 22nd in UTC, the 23rd in India.
    expect(result.current(refused('2027-02-22T18:30:00.000Z'))).toBe(
      'You cannot give blood until 23 February 2027, so you cannot accept this request. Your eligibility page shows why.',
    );
    expect(result.current(refused(null))).toBe(
      'You cannot give blood right now, so you cannot accept this request. Your eligibility page shows why and from when you can give again.',
    );
    await i18n.changeLanguage('hi');
    rerender();
    expect(result.current(refused('2027-02-22T18:30:00.000Z'))).toContain('2027 तक रक्तदान नहीं');
    await i18n.changeLanguage('en');
  });

  it('translates session errors by their code', () => {
    const { result } = renderHook(() => useErrorMessage());
    expect(result.current({ code: 'INVALID_LOGIN_DATA' })).toBe('Invalid login data provided');
    expect(result.current({ code: 'SESSION_EXPIRED' })).toBe(
      'Session expired. Please sign in again.',
    );
  });
});
