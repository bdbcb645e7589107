import {
  BLOOD_REQUEST_LIMITS,
  maskPhone,
  normalizeIndianPhone,
  type BloodRequestTracking,
} from '@bdms/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { oneTimeCodes, users, type BloodRequestRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { tooManyAttempts } from '../../lib/auth-limits';
import type { DailyCounters } from '../../lib/daily-counters';
import {
  consumeCode,
  liveCodeExpiry,
  takeCodeAttempt,
  voidCodesOf,
} from '../../lib/one-time-codes';
import type { RequestMeta } from '../../lib/request-context';
import type { PhoneCodes } from '../../lib/sms/phone-codes';
import { digestsEqual, hashOtpCode } from '../../lib/tokens';
import type { AuthUser } from '../../plugins/auth';
import { flagInTransaction } from '../flags/flag-in-transaction';
import type { RequesterMessages } from '../notifications/requester-messages';
import type { RequestLifecycle } from './blood-request-lifecycle';
import { createBloodRequestsRepository } from './blood-requests.repository';

const PURPOSE = 'request_confirmation';
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export const CONFIRMATION_MOBILE_MESSAGE =
  'A request is confirmed with a code sent by SMS to its contact phone: give a 10-digit mobile number.';
export const INVALID_REQUEST_CODE_MESSAGE =
  'This code is not correct or is no longer valid. Check the SMS, or ask for a new code.';
export const NOT_UNCONFIRMED_MESSAGE =
  'This request does not need a code: it is already confirmed or closed.';

export interface RequestConfirmationDeps {
  counters: DailyCounters;
  phoneCodes: PhoneCodes;
  config: { jwtSecret: string };
  now: () => number;
  /** The guest's tracking code and link by SMS/WhatsApp once the request goes to review. */
  requester: Pick<RequesterMessages, 'requestReceived'>;
}

/**
 * A guest's emergency request confirms its contact phone with a code sent by SMS before it goes
 * to review (issue #16): fewer fake requests reach the verifiers. Only when the
 * `phoneVerification` flag is on and an SMS provider is configured; hospital accounts,
 * administrators and signed-in requesters whose own phone is verified skip it. Until then the
 * request is `unconfirmed`: in no list but its owner's, nobody is told, and it expires
 * BLOOD_REQUEST_LIMITS.confirmationWindowMinutes after it was made. Codes are HMAC-hashed,
 * OTP_TTL_MINUTES, OTP_MAX_ATTEMPTS tries each, confirmationCodesMax per request, and count
 * towards the phone number's daily ceiling (lib/sms/phone-codes.ts).
 */
export function createRequestConfirmation(
  deps: RequestConfirmationDeps,
  lifecycle: Pick<RequestLifecycle, 'transition' | 'notifyStaff'>,
) {
  const codeHash = (requestId: string, code: string) =>
    hashOtpCode(deps.config.jwtSecret, requestId, PURPOSE, code);

  /** Issues a code in `tx` after the per-request and per-phone limits; deliver after commit. */
  async function issue(tx: Db, row: BloodRequestRow): Promise<{ deliver: () => void }> {
    const phone = row.contactPhone;
    if (!phone) throw new AppError('CONFLICT', NOT_UNCONFIRMED_MESSAGE);
    const perRequest = await deps.counters.take(
      `request-confirmation:${row.id}`,
      BLOOD_REQUEST_LIMITS.confirmationCodesMax,
      tx,
    );
    if (!perRequest.allowed) {
      // The request's codes are spent; it expires unconfirmed, and a new one can be made.
      const seconds = Math.max(1, Math.ceil((row.expiresAt.getTime() - deps.now()) / 1000));
      throw tooManyAttempts(seconds);
    }
    await deps.phoneCodes.takeDailyBudget(PURPOSE, phone, tx);
    const issued = deps.phoneCodes.issue(PURPOSE, phone, row.language);
    const at = issued.issuedAt;
    await voidCodesOf(tx, { bloodRequestId: row.id }, PURPOSE, at);
    await tx.insert(oneTimeCodes).values({
      bloodRequestId: row.id,
      purpose: PURPOSE,
      phone,
      codeHash: codeHash(row.id, issued.code),
      createdAt: at,
      expiresAt: issued.expiresAt,
    });
    return { deliver: issued.deliver };
  }

  const lookUp = async (tx: Db, trackingCode: string, forUpdate: boolean) => {
    const repo = createBloodRequestsRepository(tx);
    const found = await repo.findByTrackingCode(trackingCode);
    if (!found)
      throw new AppError('NOT_FOUND', 'There is no blood request with this tracking code.');
    const row = forUpdate ? await repo.findById(found.id, true) : found;
    if (!row || row.status !== 'unconfirmed') {
      throw new AppError('CONFLICT', NOT_UNCONFIRMED_MESSAGE);
    }
    return row;
  };

  return {
    /**
     * Whether a new request by `caller` to `contactPhone` must be confirmed first; 400 on
     * `body.contactPhone` when it must and the number is a landline (no SMS).
     */
    async required(
      tx: Db,
      caller: AuthUser | null,
      privileged: boolean,
      contactPhone: string,
    ): Promise<boolean> {
      if (privileged || !deps.phoneCodes.available) return false;
      // Through `tx`: on PGlite a read outside the transaction (a cold flags cache) waits forever.
      if (!(await flagInTransaction(tx, 'phoneVerification'))) return false;
      if (caller) {
        const [me] = await tx
          .select({ phone: users.phone, phoneVerifiedAt: users.phoneVerifiedAt })
          .from(users)
          .where(eq(users.id, caller.id));
        if (me?.phone && me.phoneVerifiedAt) return false;
      }
      if (!normalizeIndianPhone(contactPhone)) {
        throw new AppError('VALIDATION_ERROR', CONFIRMATION_MOBILE_MESSAGE, [
          { path: 'body.contactPhone', message: CONFIRMATION_MOBILE_MESSAGE },
        ]);
      }
      return true;
    },

    /** When an unconfirmed request made at `at` expires (its own expiry if that comes first). */
    unconfirmedExpiry(at: Date, expiresAt: Date): Date {
      const window = new Date(
        at.getTime() + BLOOD_REQUEST_LIMITS.confirmationWindowMinutes * MINUTE_MS,
      );
      return window < expiresAt ? window : expiresAt;
    },

    issue,

    /** The tracking view's `confirmation` while the request is unconfirmed. */
    async view(db: Db, row: BloodRequestRow): Promise<BloodRequestTracking['confirmation']> {
      if (row.status !== 'unconfirmed' || !row.contactPhone) return null;
      const expiry = await liveCodeExpiry(
        db,
        { bloodRequestId: row.id },
        PURPOSE,
        new Date(deps.now()),
      );
      return {
        phoneHint: maskPhone(row.contactPhone),
        codeExpiresAt: expiry?.toISOString() ?? null,
      };
    },

    /** `POST /track/{code}/confirm/resend`: a new code (voiding the earlier one). */
    async resend(db: Db, trackingCode: string): Promise<void> {
      deps.phoneCodes.assertAvailable();
      const { deliver } = await db.transaction(async (tx) =>
        issue(tx, await lookUp(tx, trackingCode, true)),
      );
      deliver();
    },

    /**
     * `POST /track/{code}/confirm`: the right code sends the request to review (pending: staff
     * are told, the guest gets the tracking code and link on the phone) with its normal expiry. Each try is committed before the check, so parallel
     * guesses cannot exceed OTP_MAX_ATTEMPTS per code.
     */
    async confirm(
      db: Db,
      trackingCode: string,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<void> {
      const invalid = () =>
        new AppError('INVALID_PHONE_CODE', INVALID_REQUEST_CODE_MESSAGE, [
          { path: 'body.code', message: INVALID_REQUEST_CODE_MESSAGE },
        ]);
      const found = await lookUp(db, trackingCode, false);
      const at = new Date(deps.now());
      const attempt = await takeCodeAttempt(db, { bloodRequestId: found.id }, PURPOSE, at);
      if (!attempt || !digestsEqual(codeHash(found.id, code), attempt.codeHash)) throw invalid();
      await db.transaction(async (tx) => {
        const row = await lookUp(tx, trackingCode, true);
        if (row.contactPhone !== attempt.phone) throw invalid();
        if (!(await consumeCode(tx, attempt.id, at))) throw invalid();
        if (row.expiresAt <= at) throw invalid();
        const expiresAt =
          row.requiredBy ??
          new Date(row.createdAt.getTime() + BLOOD_REQUEST_LIMITS.defaultLifetimeHours * HOUR_MS);
        const repo = createBloodRequestsRepository(tx);
        const withExpiry = await repo.update(row.id, {
          expiresAt,
          contactPhoneConfirmed: true,
          updatedAt: row.updatedAt,
        });
        const actor = { id: row.createdBy, role: row.createdByRole };
        const pending = await lifecycle.transition(
          tx,
          withExpiry,
          'pending',
          actor,
          'Contact phone confirmed with the code sent to it.',
          meta,
        );
        await lifecycle.notifyStaff(tx, pending);
        await deps.requester.requestReceived(tx, pending);
      });
    },
  };
}

export type RequestConfirmation = ReturnType<typeof createRequestConfirmation>;
