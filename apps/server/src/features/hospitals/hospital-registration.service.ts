import {
  type FeatureFlags,
  type HospitalRegistrationStatus,
  type RegisterHospital,
  type RegisterHospitalResult,
  type RegistrationCodeSent,
  type User,
} from '@bdms/shared';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { hospitals, oneTimeCodes, users, type HospitalRow, type UserRow } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { createAttemptLimiter } from '../../lib/attempt-limiter';
import { tooManyAttempts } from '../../lib/auth-limits';
import type { DailyCounters } from '../../lib/daily-counters';
import type { LimitStore } from '../../lib/limit-store';
import { uniqueViolation } from '../../lib/db-errors';
import { consumeCode, takeCodeAttempt, voidCodesOf } from '../../lib/one-time-codes';
import { hashPassword } from '../../lib/password';
import { assertPasswordStrongEnough } from '../../lib/password-policy';
import type { RequestMeta } from '../../lib/request-context';
import type { Sessions } from '../../lib/sessions';
import { digestsEqual, generateOtpCode, hashOtpCode } from '../../lib/tokens';
import type { UserViews } from '../../lib/user-view';
import type { AuthUser } from '../../plugins/auth';
import type { Mailer } from '../notifications/mail/mailer';
import { renderHospitalEmailCodeMail } from '../notifications/mail/templates';
import { OTP_TTL_MINUTES } from '@bdms/shared';
import { createHospitalsRepository } from './hospitals.repository';

const EMAIL_PURPOSE = 'email_confirmation';
/** E-mail confirmation codes mailed per account per day (India): the first one counts. */
export const EMAIL_CODES_PER_DAY = 5;

/**
 * Self-registrations accepted per hour, all addresses together (#32 item 15): each one mails a
 * stranger-chosen address from the platform's sender, so a botnet spread over many addresses
 * must not turn it into a mail cannon. India has about 4,000 licensed blood centres (NBTC), each
 * registering once: even a launch drive that brings them all in within a few weeks needs far
 * fewer than 20 an hour, while 20 an hour bounds what an attacker can send.
 */
export const REGISTRATIONS_PER_HOUR = 20;
const HOUR_MS = 60 * 60_000;
export const REGISTRATIONS_BUSY_MESSAGE =
  'Too many blood centres have registered in the last hour. Please try again later.';

export const REGISTRATION_OFF_MESSAGE = 'Hospital registration is not open.';
export const UNKNOWN_FACILITY_MESSAGE = 'Choose your blood centre from the directory search.';
export const INVALID_EMAIL_CODE_MESSAGE =
  'This code is not correct or is no longer valid. Check the e-mail, or ask for a new code.';

/** The phone verification of features/users, passed in by services.ts (features do not import each other). */
export interface RegistrationPhoneVerification {
  send(caller: AuthUser, id: string): Promise<{ phone: string; expiresAt: string }>;
  verify(
    caller: AuthUser,
    id: string,
    code: string,
    meta: Pick<RequestMeta, 'requestId'>,
  ): Promise<User>;
}

export interface HospitalRegistrationDeps {
  db: Db;
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  sessions: Pick<Sessions, 'issue'>;
  userViews: Pick<UserViews, 'load'>;
  counters: Pick<DailyCounters, 'take'>;
  flags: { getFlags(): Promise<FeatureFlags> };
  phoneVerification: RegistrationPhoneVerification;
  /** True when an SMS provider is configured (else phone confirmation is 409 SMS_UNAVAILABLE). */
  isSmsAvailable: () => boolean;
  config: Pick<Config, 'publicUrl' | 'jwtSecret'>;
  /** Where the hourly registration count is kept (services.ts: shared by every instance). */
  limitStore?: LimitStore;
  now?: () => number;
}

const emailTaken = () =>
  new AppError('EMAIL_TAKEN', 'An account with this e-mail address already exists.', [
    { path: 'body.email', message: 'An account with this e-mail address already exists.' },
  ]);
const phoneTaken = () =>
  new AppError('PHONE_TAKEN', 'An account with this phone number already exists.', [
    { path: 'body.phone', message: 'An account with this phone number already exists.' },
  ]);
const notHospital = () =>
  new AppError('FORBIDDEN', 'Only the account of a registered blood centre can do this.');

/**
 * A blood centre or hospital registers itself (issue #17, flag `hospitalRegistration`): the
 * account starts `pending`, signed in but unable to act (plugins/auth.ts refuses it everywhere
 * else) until an administrator checks it against the directory entry it chose and its licence.
 * Its official e-mail is confirmed by a mailed code, its phone by an SMS code (the phone
 * verification of donors). E-mail and phone uniqueness answer as donor registration does (409
 * EMAIL_TAKEN / PHONE_TAKEN, which `POST /auth/check-email` reveals anyway). A directory entry
 * that a verified account already holds may be claimed again: the registration waits like any
 * other, and the administrator sees "already claimed by …" beside it (a refusal would tell a
 * stranger which entries have accounts, and would let a squatter lock a centre out).
 */
export function createHospitalRegistration(deps: HospitalRegistrationDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const registrationsThisHour = createAttemptLimiter({
    max: REGISTRATIONS_PER_HOUR,
    windowMs: HOUR_MS,
    now,
    store: deps.limitStore,
    name: 'hospital-registrations',
  });
  const emailCodeHash = (userId: string, code: string) =>
    hashOtpCode(deps.config.jwtSecret, userId, EMAIL_PURPOSE, code);

  async function assertOpen(): Promise<void> {
    if (!(await deps.flags.getFlags()).hospitalRegistration) {
      throw new AppError('NOT_FOUND', REGISTRATION_OFF_MESSAGE);
    }
  }

  function toStatus(hospital: HospitalRow, user: UserRow): HospitalRegistrationStatus {
    return {
      hospitalId: hospital.id,
      name: hospital.name,
      verificationStatus: hospital.verificationStatus,
      rejectionReason: hospital.rejectionReason,
      emailConfirmed: hospital.emailConfirmedAt !== null,
      phoneConfirmed: hospital.phoneConfirmedAt !== null || user.phoneVerifiedAt !== null,
      smsAvailable: deps.isSmsAvailable(),
    };
  }

  /** Mails a new e-mail code in `tx` (voiding the earlier ones); 429 past the daily cap. */
  async function issueEmailCode(tx: Db, hospital: HospitalRow, user: UserRow): Promise<Date> {
    const daily = await deps.counters.take(
      `hospital-email-code:${user.id}`,
      EMAIL_CODES_PER_DAY,
      tx,
    );
    if (!daily.allowed) throw tooManyAttempts(daily.retryAfterSeconds);
    const at = new Date(now());
    const expiresAt = new Date(at.getTime() + OTP_TTL_MINUTES * 60_000);
    const code = generateOtpCode();
    await voidCodesOf(tx, { userId: user.id }, EMAIL_PURPOSE, at);
    await tx.insert(oneTimeCodes).values({
      userId: user.id,
      purpose: EMAIL_PURPOSE,
      codeHash: emailCodeHash(user.id, code),
      createdAt: at,
      expiresAt,
    });
    const mail = renderHospitalEmailCodeMail({
      language: user.language,
      name: hospital.contactName ?? user.fullName ?? hospital.name,
      hospitalName: hospital.name,
      code,
      publicUrl: deps.config.publicUrl,
    });
    await deps.mail.enqueue(
      { to: user.email, userId: user.id, kind: 'hospital_email_code', ...mail },
      tx,
    );
    return expiresAt;
  }

  /** The caller's own hospital and account; 403 for anyone but a hospital account. */
  async function own(caller: AuthUser, tx: Db = db) {
    if (caller.role !== 'hospital') throw notHospital();
    const [row] = await tx
      .select({ user: users, hospital: hospitals })
      .from(users)
      .innerJoin(hospitals, eq(hospitals.id, users.hospitalId))
      .where(eq(users.id, caller.id))
      .limit(1);
    if (!row || row.user.deletedAt) throw notHospital();
    return row;
  }

  return {
    assertOpen,

    async register(input: RegisterHospital, meta: RequestMeta): Promise<RegisterHospitalResult> {
      await assertOpen();
      assertPasswordStrongEnough(input.password, 'body.password', [
        input.email,
        input.name,
        input.contactName,
        input.phone,
        input.licenceNumber,
      ]);
      const passwordHash = await hashPassword(input.password);
      try {
        const result = await db.transaction(async (tx) => {
          const repo = createHospitalsRepository(tx);
          const facility = await repo.findFacility(input.facilityId);
          if (!facility) {
            throw new AppError('VALIDATION_ERROR', UNKNOWN_FACILITY_MESSAGE, [
              { path: 'body.facilityId', message: UNKNOWN_FACILITY_MESSAGE },
            ]);
          }
          if (await repo.isEmailTaken(input.email)) throw emailTaken();
          if (await repo.isPhoneTaken(input.phone)) throw phoneTaken();
          // Counted only for registrations that would be made (and mailed), after the checks.
          const wait = await registrationsThisHour.consume('all');
          if (wait > 0) {
            throw new AppError('RATE_LIMITED', REGISTRATIONS_BUSY_MESSAGE, undefined, {
              'retry-after': String(wait),
            });
          }
          const at = new Date(now());
          const hospital = await repo.insertHospital({
            name: input.name,
            facilityId: facility.id,
            city: facility.city ?? facility.district ?? facility.state,
            state: facility.state,
            phone: input.phone,
            createdAt: at,
            verificationStatus: 'pending',
            registeredVia: 'self',
            licenceNumber: input.licenceNumber,
            contactName: input.contactName,
          });
          const user = await repo.insertUser({
            email: input.email,
            passwordHash,
            role: 'hospital',
            status: 'approved',
            fullName: input.contactName,
            phone: input.phone,
            city: hospital.city,
            state: hospital.state,
            language: input.language ?? 'en',
            hospitalId: hospital.id,
            createdAt: at,
            lastLoginAt: at,
          });
          await issueEmailCode(tx, hospital, user);
          const tokens = await deps.sessions.issue(
            user,
            { ip: meta.ip, userAgent: meta.userAgent },
            tx,
          );
          await createActivityLog(tx).record({
            action: 'hospital.registered',
            actorId: user.id,
            actorRole: 'hospital',
            targetType: 'hospital',
            targetId: hospital.id,
            details: { userId: user.id, facilityId: facility.id },
            requestId: meta.requestId,
          });
          return {
            user: await deps.userViews.load(user, tx),
            tokens,
            registration: toStatus(hospital, user),
          };
        });
        deps.mail.kick();
        return result;
      } catch (error) {
        // Two registrations racing past the checks: the unique index decides.
        const constraint = uniqueViolation(error);
        if (constraint?.includes('email')) throw emailTaken();
        if (constraint?.includes('phone')) throw phoneTaken();
        throw error;
      }
    },

    async status(caller: AuthUser): Promise<HospitalRegistrationStatus> {
      await assertOpen();
      const { hospital, user } = await own(caller);
      return toStatus(hospital, user);
    },

    /** A new e-mail code (the first one is mailed at registration). */
    async sendEmailCode(caller: AuthUser): Promise<RegistrationCodeSent> {
      await assertOpen();
      const expiresAt = await db.transaction(async (tx) => {
        const { hospital, user } = await own(caller, tx);
        if (hospital.emailConfirmedAt) {
          throw new AppError('CONFLICT', 'This e-mail address is already confirmed.');
        }
        return issueEmailCode(tx, hospital, user);
      });
      deps.mail.kick();
      return { sent: true, expiresAt: expiresAt.toISOString() };
    },

    async confirmEmail(
      caller: AuthUser,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<HospitalRegistrationStatus> {
      await assertOpen();
      const { hospital } = await own(caller);
      if (hospital.emailConfirmedAt) {
        throw new AppError('CONFLICT', 'This e-mail address is already confirmed.');
      }
      const invalid = () =>
        new AppError('INVALID_EMAIL_CODE', INVALID_EMAIL_CODE_MESSAGE, [
          { path: 'body.code', message: INVALID_EMAIL_CODE_MESSAGE },
        ]);
      const at = new Date(now());
      // Committed on its own, so a wrong code still counts.
      const attempt = await takeCodeAttempt(db, { userId: caller.id }, EMAIL_PURPOSE, at);
      if (!attempt || !digestsEqual(emailCodeHash(caller.id, code), attempt.codeHash)) {
        throw invalid();
      }
      return db.transaction(async (tx) => {
        if (!(await consumeCode(tx, attempt.id, at))) throw invalid();
        const [updated] = await tx
          .update(hospitals)
          .set({ emailConfirmedAt: at })
          .where(eq(hospitals.id, hospital.id))
          .returning();
        await createActivityLog(tx).record({
          action: 'hospital.email_confirmed',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'hospital',
          targetId: hospital.id,
          requestId: meta.requestId,
        });
        const { user } = await own(caller, tx);
        return toStatus(updated ?? hospital, user);
      });
    },

    /** A code by SMS to the account's phone: 409 SMS_UNAVAILABLE without a provider. */
    async sendPhoneCode(caller: AuthUser): Promise<RegistrationCodeSent> {
      await assertOpen();
      const { hospital } = await own(caller);
      if (hospital.phoneConfirmedAt) {
        throw new AppError('CONFLICT', 'This phone number is already confirmed.');
      }
      const sent = await deps.phoneVerification.send(caller, caller.id);
      return { sent: true, expiresAt: sent.expiresAt };
    },

    async confirmPhone(
      caller: AuthUser,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<HospitalRegistrationStatus> {
      await assertOpen();
      const { hospital } = await own(caller);
      await deps.phoneVerification.verify(caller, caller.id, code, meta);
      const at = new Date(now());
      const [updated] = await db
        .update(hospitals)
        .set({ phoneConfirmedAt: at })
        .where(eq(hospitals.id, hospital.id))
        .returning();
      const { user } = await own(caller);
      return toStatus(updated ?? hospital, user);
    },
  };
}

export type HospitalRegistration = ReturnType<typeof createHospitalRegistration>;
