import { OTP_TTL_MINUTES } from '@bdms/shared';
import type { Db } from '../../db/client';
import { AppError } from '../app-error';
import { DAILY_LIMITS, tooManyAttempts } from '../auth-limits';
import type { DailyCounters } from '../daily-counters';
import { generateOtpCode, keyedDigest } from '../tokens';
import {
  renderPhoneCodeText,
  type PhoneCodePurpose,
  type PhoneCodeSender,
} from './phone-code-sender';

export const SMS_UNAVAILABLE_CODE_MESSAGE =
  'This needs a code sent by SMS, and SMS is not available at the moment. Please try another way or contact support.';

export interface PhoneCodesDeps {
  counters: DailyCounters;
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
 * What every code sent to a phone shares (sign-in, phone verification, a guest's request): the
 * provider, and a ceiling per phone number per calendar day in India, counted in PostgreSQL
 * (daily_counters) for every purpose together, so no flow can be used to flood a number with
 * SMS (and the bill). The number is kept there only as a keyed digest.
 */
export function createPhoneCodes(deps: PhoneCodesDeps) {
  const phoneKey = (phone: string) =>
    `phone-codes:${keyedDigest(deps.config.jwtSecret, 'phone', phone)}`;

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
     * Takes one code from the phone's daily budget (in `tx` when given, so a rolled-back request
     * gives it back); 429 with Retry-After (next midnight in India) past it.
     */
    async takeDailyBudget(phone: string, tx?: Db): Promise<void> {
      const daily = await deps.counters.take(phoneKey(phone), DAILY_LIMITS.phoneCodes, tx);
      if (!daily.allowed) throw tooManyAttempts(daily.retryAfterSeconds);
    },

    /** Codes sent to `phone` today (India), every purpose. */
    sentToday: (phone: string) => deps.counters.count(phoneKey(phone)),

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
