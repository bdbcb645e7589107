import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
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
});
