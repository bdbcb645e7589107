import { statusForErrorCode, type ErrorCode } from '@bdms/shared';

/**
 * What services throw for an expected failure. The error handler turns it into the envelope
 * `{success:false,error:{message,code,details?}}` with the status ERROR_CODES maps `code` to,
 * and the message is shown to the user as is, so keep it human and free of internals.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra reply headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusForErrorCode(code);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
