import { createAttemptLimiter, type AttemptLimiter } from './attempt-limiter';
import { AppError } from './app-error';

const MINUTE = 60_000;

/**
 * Per-account limits, keyed by the lower-cased e-mail address whether or not an account has it
 * (so a 429 reveals nothing about existence). They complement the per-address limits of the
 * routes, which a spread-out attacker would dodge. In memory, per process (see attempt-limiter).
 */
export const ACCOUNT_LIMITS = {
  /**
   * Wrong passwords (sign-in, and the current password when changing it). Each attempt is counted
   * before the check and the count is cleared on success, so parallel guesses are counted too.
   */
  passwordFailures: { max: 5, windowMs: 15 * MINUTE },
  /** Wrong one-time codes, across codes (counted like passwords): at most 2 codes' worth of tries. */
  otpFailures: { max: 10, windowMs: 15 * MINUTE },
  /** E-mailed codes asked for. */
  otpRequests: { max: 3, windowMs: 15 * MINUTE },
  /** Reset links asked for. */
  resetRequests: { max: 3, windowMs: 60 * MINUTE },
} as const;

export type AuthLimiters = Record<keyof typeof ACCOUNT_LIMITS, AttemptLimiter>;

export function createAuthLimiters(now: () => number = Date.now): AuthLimiters {
  return {
    passwordFailures: createAttemptLimiter({ ...ACCOUNT_LIMITS.passwordFailures, now }),
    otpFailures: createAttemptLimiter({ ...ACCOUNT_LIMITS.otpFailures, now }),
    otpRequests: createAttemptLimiter({ ...ACCOUNT_LIMITS.otpRequests, now }),
    resetRequests: createAttemptLimiter({ ...ACCOUNT_LIMITS.resetRequests, now }),
  };
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** 429 RATE_LIMITED with Retry-After, like the per-address limiter's reply. */
export function tooManyAttempts(retryAfterSeconds: number): AppError {
  return new AppError(
    'RATE_LIMITED',
    `Too many attempts. Please try again in ${describeWait(retryAfterSeconds)}.`,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
  );
}
