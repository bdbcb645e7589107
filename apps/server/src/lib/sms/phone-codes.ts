import { OTP_TTL_MINUTES } from '@bdms/shared';
import type { Db } from '../../db/client';
import { AppError } from '../app-error';
import { DAILY_LIMITS, tooManyAttempts } from '../auth-limits';
import { nextIndiaMidnight, type DailyCounters } from '../daily-counters';
import type { DirectBudgets } from '../direct-budgets';
import { generateOtpCode, keyedDigest } from '../tokens';
import {
  renderPhoneCodeText,
  type PhoneCodePurpose,
  type PhoneCodeSender,
} from './phone-code-sender';

export const SMS_UNAVAILABLE_CODE_MESSAGE =
  'This needs a code sent by SMS, and SMS is not available at the moment. Please try another way or contact support.';

export const CODES_PAUSED_MESSAGE =
  'Codes by phone cannot be sent at the moment. Please try again later, or use another way (an e-mailed code, for example).';

/** 429 with Retry-After: the platform's codes for the day are spent (says nothing of the number). */
function codesPaused(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', CODES_PAUSED_MESSAGE, undefined, {
    'retry-after': String(retryAfterSeconds),
  });
}

export interface PhoneCodesDeps {
  counters: DailyCounters;
  /** The platform's daily budget of codes (issue #32 item 8); none: no global ceiling (tests). */
  budgets?: Pick<DirectBudgets, 'take' | 'isSpent'>;
  /** Null: no SMS or WhatsApp provider is configured; every flow needing a code refuses (409). */
  sender: PhoneCodeSender | null;
  config: { jwtSecret: string };
  logger?: { error(object: object, message: string): void } | undefined;
  now: () => number;
}

/** A fresh code, its expiry, and how to hand it to the provider once the caller's data is saved. */
export interface IssuedPhoneCode {
  code: string;
  /** When the code was made: its row's `createdAt`, so the two dates are exactly the TTL apart. */
  issuedAt: Date;
  expiresAt: Date;
  /** Hands the code over without waiting (the reply must not wait on, or reveal, the provider). */
  deliver: () => void;
}

/**
 * The daily budgets of codes per phone number, one per purpose (issue #32 item 9): a code asked
 * for one purpose never spends another's, so nobody can spend a guest's request confirmation
 * codes through `login-otp` or a phone change and have the request go to review unconfirmed.
 * A phone change and a phone verification both prove an account's number: one budget.
 */
export const PHONE_CODE_BUDGETS = {
  request_confirmation: 'request_confirmation',
  login: 'login',
  phone_change: 'account_phone',
  phone_verification: 'account_phone',
} as const satisfies Record<PhoneCodePurpose, string>;
export type PhoneCodeBudget = (typeof PHONE_CODE_BUDGETS)[PhoneCodePurpose];

/** The daily_counters key of a number's budget of `purpose` (the number only as a keyed digest). */
export function phoneCodeBudgetKey(
  jwtSecret: string,
  purpose: PhoneCodePurpose,
  phone: string,
): string {
  return `phone-codes:${PHONE_CODE_BUDGETS[purpose]}:${keyedDigest(jwtSecret, 'phone', phone)}`;
}

/**
 * What every code sent to a phone shares (sign-in, phone verification, a guest's request): the
 * provider, and a ceiling per phone number, per purpose and per calendar day in India, counted
 * in PostgreSQL (daily_counters), so no flow can be used to flood a number with SMS (and the
 * bill), nor to spend the codes of another flow. The number is kept there only as a keyed digest.
 */
export function createPhoneCodes(deps: PhoneCodesDeps) {
  const phoneKey = (purpose: PhoneCodePurpose, phone: string) =>
    phoneCodeBudgetKey(deps.config.jwtSecret, purpose, phone);

  return {
    /** True when a provider is configured. */
    get available(): boolean {
      return deps.sender !== null;
    },

    /** 409 SMS_UNAVAILABLE when no code can be sent, before anything is changed. */
    assertAvailable(path?: string, message = SMS_UNAVAILABLE_CODE_MESSAGE): void {
      if (!deps.sender) {
        throw new AppError('SMS_UNAVAILABLE', message, path ? [{ path, message }] : undefined);
      }
    },

    /**
     * Takes one code of `purpose` from the phone's daily budget of that purpose (in `tx` when
     * given, so a rolled-back request gives it back); 429 with Retry-After (next midnight in
     * India) past it. Take it only when a code is really sent to that number.
     */
    async takeDailyBudget(purpose: PhoneCodePurpose, phone: string, tx?: Db): Promise<void> {
      const daily = await deps.counters.take(
        phoneKey(purpose, phone),
        DAILY_LIMITS.phoneCodesPerPurpose[PHONE_CODE_BUDGETS[purpose]],
        tx,
      );
      if (!daily.allowed) throw tooManyAttempts(daily.retryAfterSeconds);
      // Then the platform's budget for every number together: many numbers cannot run up the bill.
      const global = await deps.budgets?.take('codes', tx);
      if (global && !global.allowed) throw codesPaused(global.retryAfterSeconds);
    },

    /**
     * 429 when the platform's codes for today are spent, asked before anything that depends on
     * the number (login-otp: the same answer whether or not the number has an account).
     */
    async assertBudgetLeft(): Promise<void> {
      if (deps.budgets && (await deps.budgets.isSpent('codes'))) {
        throw codesPaused(
          Math.max(1, Math.ceil((nextIndiaMidnight(deps.now()) - deps.now()) / 1000)),
        );
      }
    },

    /** Codes of `purpose` (its budget) sent to `phone` today (India). */
    sentToday: (purpose: PhoneCodePurpose, phone: string) =>
      deps.counters.count(phoneKey(purpose, phone)),

    /** A new code for `phone`; store its hash, then call `deliver` after the commit. */
    issue(purpose: PhoneCodePurpose, phone: string, language: string | null): IssuedPhoneCode {
      const sender = deps.sender;
      if (!sender) throw new AppError('SMS_UNAVAILABLE', SMS_UNAVAILABLE_CODE_MESSAGE);
      const code = generateOtpCode();
      const at = deps.now();
      return {
        code,
        issuedAt: new Date(at),
        expiresAt: new Date(at + OTP_TTL_MINUTES * 60_000),
        deliver() {
          sender
            .send({
              to: phone,
              code,
              purpose,
              language: language ?? 'en',
              text: renderPhoneCodeText(purpose, language, code),
            })
            .catch((error: unknown) =>
              deps.logger?.error({ err: error, purpose }, 'phone code not sent'),
            );
        },
      };
    },
  };
}

export type PhoneCodes = ReturnType<typeof createPhoneCodes>;
