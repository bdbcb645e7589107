import { createAttemptLimiter, type AttemptLimiter } from './attempt-limiter';
import { AppError } from './app-error';
import { createBackoffLimiter, type BackoffLimiter } from './backoff-limiter';
import type { LimitStore } from './limit-store';

const MINUTE = 60_000;

/**
 * Per-account limits, counted whether or not an account has the e-mail address (so a 429
 * reveals nothing about existence). They complement the per-address limits of the routes, which
 * a spread-out attacker would dodge. Kept in the LimitStore (lib/limit-store.ts): shared by
 * every instance on PostgreSQL or Redis, in memory on the embedded PGlite; the daily caps below
 * are in PostgreSQL.
 */
export const ACCOUNT_LIMITS = {
  /**
   * Wrong passwords at sign-in per client address *and* e-mail address (accountKey; issue #32
   * item 13: keyed by the e-mail alone, anyone could lock the owner out from anywhere with five
   * guesses every 15 minutes). The current password when changing it is keyed by the account
   * alone (the caller is signed in). Each attempt is counted before the check and the count is
   * cleared on success, so parallel guesses are counted too. A sign-in with an e-mailed code or
   * a reset link clears it, so whoever reads the mailbox is never locked out by a stranger.
   */
  passwordFailures: { max: 5, windowMs: 15 * MINUTE },
  /**
   * The ceiling per e-mail address over every client address, against a guesser spread over
   * many addresses. 50 an hour: ten addresses' worth of the per-address budget, so a stranger
   * must control many addresses before the owner (on their own address, under its own budget)
   * is made to wait, while a botnet gets at most 1,200 guesses a day against a password that
   * passed the policy (zxcvbn score 3 or more: over 10^8 guesses). Cleared like the above.
   */
  passwordFailuresPerAccount: { max: 50, windowMs: 60 * MINUTE },
  /**
   * The e-mailed code flows are keyed by client address *and* e-mail address (accountKey), with
   * exponential backoff (issue #14): someone elsewhere who knows the address slows down only
   * their own tries, never the owner's. Wrong codes: 5 free, then 30 s, 1 min, 2 min, … 1 hour.
   */
  otpFailures: { freeAttempts: 5, baseMs: 30_000, maxMs: 60 * MINUTE, forgetAfterMs: 60 * MINUTE },
  /** Codes asked for: 3 free, then 1 min, 2 min, 4 min, … 1 hour. */
  otpRequests: { freeAttempts: 3, baseMs: MINUTE, maxMs: 60 * MINUTE, forgetAfterMs: 60 * MINUTE },
  /** Reset links asked for: 3 free, then 1 min, 2 min, 4 min, … 1 hour. */
  resetRequests: {
    freeAttempts: 3,
    baseMs: MINUTE,
    maxMs: 60 * MINUTE,
    forgetAfterMs: 60 * MINUTE,
  },
} as const;

/**
 * Ceilings per calendar day in India, in PostgreSQL (daily_counters), shared by every server
 * process: a botnet spread over many addresses still cannot send more.
 */
export const DAILY_LIMITS = {
  /**
   * Sign-in codes mailed per e-mail address (registered or not), all client addresses together:
   * the ceiling that bounds what one mailbox can be sent in a day. Higher than the per-address
   * budget below (issue #32 item 13), so a stranger at one address cannot spend the owner's.
   */
  loginCodes: 20,
  /**
   * Sign-in codes mailed per client address and e-mail address: an owner needs one or two a day
   * (five leaves room for a mistyped code or a slow mail); a stranger needs four addresses to
   * spend the ceiling above, and each of them is slowed by the backoff of `otpRequests`.
   */
  loginCodesPerAddress: 5,
  /** Phone number changes asked for per account (each sends a code to the new number). */
  phoneChanges: 5,
  /** Verification codes asked for per account (at registration, and again on request). */
  phoneVerifications: 5,
  /**
   * Sign-in codes sent by SMS per phone number (registered or not), all client addresses
   * together: SMS costs money, so the ceiling is the number's daily sign-in SMS budget.
   */
  loginCodesByPhone: 5,
  /**
   * Sign-in codes by SMS per client address and phone number (issue #32 item 13): lower than the
   * number's ceiling, so a stranger at one address leaves the owner codes of their own.
   */
  loginCodesByPhonePerAddress: 2,
  /**
   * Codes sent to one phone number per purpose (lib/sms/phone-codes.ts PHONE_CODE_BUDGETS):
   * SMS costs money, and nobody needs more in a day; one purpose never spends another's
   * (issue #32 item 9: a stranger's `login-otp` must not use up a guest's confirmation codes).
   */
  phoneCodesPerPurpose: {
    request_confirmation: 5,
    login: 5,
    account_phone: 5,
  },
} as const;

export interface AuthLimiters {
  passwordFailures: AttemptLimiter;
  passwordFailuresPerAccount: AttemptLimiter;
  otpFailures: BackoffLimiter;
  otpRequests: BackoffLimiter;
  resetRequests: BackoffLimiter;
}

export function createAuthLimiters(
  now: () => number = Date.now,
  /** Default: one in-process store per limiter (the embedded single-process case). */
  store?: LimitStore,
): AuthLimiters {
  const shared = (name: string) => ({ now, store, name });
  return {
    passwordFailures: createAttemptLimiter({
      ...ACCOUNT_LIMITS.passwordFailures,
      ...shared('password-failures'),
    }),
    passwordFailuresPerAccount: createAttemptLimiter({
      ...ACCOUNT_LIMITS.passwordFailuresPerAccount,
      ...shared('password-failures-account'),
    }),
    otpFailures: createBackoffLimiter({ ...ACCOUNT_LIMITS.otpFailures, ...shared('otp-failures') }),
    otpRequests: createBackoffLimiter({ ...ACCOUNT_LIMITS.otpRequests, ...shared('otp-requests') }),
    resetRequests: createBackoffLimiter({
      ...ACCOUNT_LIMITS.resetRequests,
      ...shared('reset-requests'),
    }),
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
