import {
  CONSENT_VERSION,
  OTP_TTL_MINUTES,
  type AuthResult,
  type Login,
  type Register,
  type RegisterResult,
  type Role,
} from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { and, eq, isNull } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { DAILY_LIMITS, tooManyAttempts, type AuthLimiters } from '../../lib/auth-limits';
import { accountKey } from '../../lib/backoff-limiter';
import type { DailyCounters } from '../../lib/daily-counters';
import { uniqueViolation } from '../../lib/db-errors';
import { fingerprint, type Idempotency } from '../../lib/idempotency';
import type { Mailer } from '../notifications/mail/mailer';
import { renderOtpMail, renderResetMail } from '../notifications/mail/templates';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { PhoneCodes } from '../../lib/sms/phone-codes';
import type { FlagsService } from '../flags/flags.service';
import type { PhoneVerification } from '../users/phone-verification.service';
import { assertPasswordStrongEnough } from '../../lib/password-policy';
import { REVOKE_REASONS, type SessionContext, type Sessions } from '../../lib/sessions';
import { issueSetPasswordLink } from '../../lib/set-password-links';
import {
  digestsEqual,
  generateOpaqueToken,
  generateOtpCode,
  hashOpaqueToken,
  hashOtpCode,
  keyedDigest,
} from '../../lib/tokens';
import { emptyFacts, toUserView, type UserViews } from '../../lib/user-view';
import { flagInTransaction } from '../flags/flag-in-transaction';
import { createAuthRepository } from './auth.repository';

/** What a donor agrees to at registration, recorded with CONSENT_VERSION. */
export const CONSENT_PURPOSES = ['privacy_policy', 'terms', 'data_processing_for_matching'];

export const INVALID_CREDENTIALS_MESSAGE = 'Incorrect e-mail or password.';
export const INVALID_OTP_MESSAGE =
  'This code is not correct or is no longer valid. Check the code or ask for a new one.';
export const INVALID_REFRESH_TOKEN_MESSAGE = 'Your session has expired. Please sign in again.';
export const INVALID_RESET_TOKEN_MESSAGE =
  'This password reset link is not valid any more. Please ask for a new one.';
export const ACCOUNT_DISABLED_MESSAGE =
  'This account has been disabled by an administrator. Contact support if you think this is a mistake.';
export const REGISTER_ROUTE_KEY = 'POST /api/v1/auth/register';
export const REGISTRATION_DONE_MESSAGE =
  'This registration was already completed. Sign in with your e-mail address and password.';

export interface RequestContext extends SessionContext {
  requestId?: string | null;
  /** The client's X-Request-ID when it sent one; the idempotency key of creating POSTs. */
  idempotencyKey?: string | null;
}

export interface AuthServiceDeps {
  db: Db;
  sessions: Sessions;
  mailer: Mailer;
  idempotency: Idempotency;
  limiters: AuthLimiters;
  counters: DailyCounters;
  config: Pick<Config, 'publicUrl' | 'jwtSecret'>;
  userViews: UserViews;
  /** Codes by SMS: sign-in by phone, and the phone's verification at registration. */
  phoneCodes: PhoneCodes;
  phoneVerification: Pick<PhoneVerification, 'issue'>;
  flags: Pick<FlagsService, 'getFlags'>;
  now?: () => number;
}

/** Who asks for a sign-in code: an e-mail address or a mobile number (E.164), never both. */
export type LoginTarget =
  { email: string; phone?: undefined } | { phone: string; email?: undefined };

const UNKNOWN_REFERRAL_MESSAGE =
  'This invitation code is not known. Check it with the friend who sent it, or register without it.';

const ROLE_NAMES: Record<Role, string> = {
  donor: 'donor',
  admin: 'administrator',
  hospital: 'hospital',
};

const OTP_PURPOSE = 'login';

export function createAuthService(deps: AuthServiceDeps) {
  const { db, sessions, mailer, limiters } = deps;
  const now = deps.now ?? Date.now;
  const repository = createAuthRepository(db);
  // Verified against when the e-mail is unknown, so both answers take as long (no enumeration
  // by timing). Made once, with the same parameters as real hashes.
  const dummyHash = hashPassword(generateOpaqueToken());
  const addressDigest = (ip: string | null | undefined) =>
    keyedDigest(deps.config.jwtSecret, 'address', ip ?? 'unknown');

  async function signIn(
    user: UserRow,
    method: 'password' | 'otp' | 'reset',
    context: RequestContext,
  ): Promise<AuthResult> {
    const at = new Date(now());
    const tokens = await db.transaction(async (tx) => {
      const issued = await sessions.issue(user, context, tx);
      await createAuthRepository(tx).markSignedIn(user.id, at);
      await createActivityLog(tx).record({
        action: 'user.signed_in',
        actorId: user.id,
        actorRole: user.role,
        targetType: 'user',
        targetId: user.id,
        details: { method },
        requestId: context.requestId ?? null,
      });
      return issued;
    });
    return { user: await deps.userViews.load({ ...user, lastLoginAt: at }), tokens };
  }

  async function createDonor(
    tx: Db,
    input: Register,
    passwordHash: string,
    context: RequestContext,
    verification: { deliver?: () => void },
  ): Promise<RegisterResult> {
    const repo = createAuthRepository(tx);
    if (await repo.isEmailTaken(input.email)) throw emailTaken();
    if (await repo.isPhoneTaken(input.phone)) throw phoneTaken();
    // Referrals (flag referralSystem): off, a code is ignored and no address hash is kept.
    // Read through `tx`, as phoneVerification below: the flags cache would deadlock PGlite.
    const referralSystem = await flagInTransaction(tx, 'referralSystem');
    let referredBy: string | null = null;
    if (referralSystem && input.referralCode) {
      const [inviter] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.referralCode, input.referralCode), isNull(users.deletedAt)))
        .limit(1);
      if (!inviter) {
        throw new AppError('VALIDATION_ERROR', UNKNOWN_REFERRAL_MESSAGE, [
          { path: 'body.referralCode', message: UNKNOWN_REFERRAL_MESSAGE },
        ]);
      }
      referredBy = inviter.id;
    }
    let user: UserRow;
    try {
      user = await repo.insertUser({
        email: input.email,
        passwordHash,
        role: 'donor',
        status: 'pending',
        fullName: input.fullName,
        phone: input.phone,
        bloodType: input.bloodType,
        gender: input.gender,
        dateOfBirth: input.dateOfBirth,
        city: input.city,
        state: input.state,
        pincode: input.pincode ?? null,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        // People register to give blood; approval, not this flag, keeps pending donors out of matching.
        available: true,
        availabilityConfirmedAt: new Date(now()),
        language: input.language ?? 'en',
        referredBy,
        referralShared: referredBy !== null && input.shareWithReferrer === true,
        registrationAddressHash: referralSystem ? addressDigest(context.ip) : null,
      });
    } catch (error) {
      // Two registrations racing past the checks above: the unique index decides.
      const constraint = uniqueViolation(error);
      if (constraint?.includes('email')) throw emailTaken();
      if (constraint?.includes('phone')) throw phoneTaken();
      throw error;
    }
    const at = new Date(now());
    await repo.recordConsent({
      userId: user.id,
      version: CONSENT_VERSION,
      purposes: CONSENT_PURPOSES,
      agreedAt: at,
      ip: context.ip ?? null,
      userAgent: context.userAgent?.slice(0, 512) ?? null,
    });
    const tokens = await sessions.issue(user, context, tx);
    await repo.markSignedIn(user.id, at);
    await createActivityLog(tx).record({
      action: 'user.registered',
      actorId: user.id,
      actorRole: 'donor',
      targetType: 'user',
      targetId: user.id,
      details: { consentVersion: CONSENT_VERSION },
      requestId: context.requestId ?? null,
    });
    const result: RegisterResult = { user: toUserView(user, emptyFacts(now())), tokens };
    // Issue #16: with the flag on, the phone counts as verified only once its code comes back.
    // Read through `tx`: on PGlite a read outside the open transaction (the flags cache
    // refreshing) would wait for it forever.
    if (deps.phoneCodes.available && (await flagInTransaction(tx, 'phoneVerification'))) {
      try {
        const pending = await deps.phoneVerification.issue(tx, user);
        verification.deliver = pending.deliver;
        result.phoneVerification = {
          phone: pending.phone,
          expiresAt: pending.expiresAt.toISOString(),
        };
      } catch (error) {
        // The number's codes for today are spent (perhaps by a stranger): the account is made
        // all the same, unverified, and the donor asks for a code later.
        if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
      }
    }
    return result;
  }

  /**
   * The daily share of sign-in codes of one client address for one e-mail address or phone
   * (issue #32 item 13); 429 past it. The key is a keyed digest: no address, e-mail or phone in
   * the counters' table.
   */
  async function takeAddressShare(
    kind: 'email' | 'phone',
    account: string,
    context: RequestContext,
    max: number,
  ): Promise<void> {
    const digest = keyedDigest(
      deps.config.jwtSecret,
      `login-code-address-${kind}`,
      accountKey(context.ip, account),
    );
    const share = await deps.counters.take(`login-code-address:${digest}`, max);
    if (!share.allowed) throw tooManyAttempts(share.retryAfterSeconds);
  }

  /**
   * Counts a password attempt for this client address and e-mail address, then for the e-mail
   * address over every client address (the higher ceiling); 429 past either (issue #32 item 13).
   * The address's own budget is checked first, so a stranger over theirs spends nothing more of
   * the account's ceiling.
   */
  async function takePasswordAttempt(email: string, context: RequestContext): Promise<void> {
    const wait = await limiters.passwordFailures.consume(accountKey(context.ip, email));
    if (wait > 0) throw tooManyAttempts(wait);
    const ceiling = await limiters.passwordFailuresPerAccount.consume(email.toLowerCase());
    if (ceiling > 0) throw tooManyAttempts(ceiling);
  }

  /** After proof of the password or of the mailbox: this address and the ceiling start again. */
  async function clearPasswordFailures(email: string, context: RequestContext): Promise<void> {
    await limiters.passwordFailures.reset(accountKey(context.ip, email));
    await limiters.passwordFailuresPerAccount.reset(email.toLowerCase());
  }

  /** `requestLoginCode` for a phone: the same limits, and a ceiling of sign-in codes per number. */
  async function requestLoginCodeByPhone(phone: string, context: RequestContext): Promise<void> {
    // Said before anything is counted: it depends on the server's setup, not on the number.
    deps.phoneCodes.assertAvailable('body.phone');
    const wait = await limiters.otpRequests.consume(accountKey(context.ip, phone));
    if (wait > 0) throw tooManyAttempts(wait);
    // This address's share first (issue #32 item 13): a stranger elsewhere cannot spend the
    // owner's codes, and once over their share they no longer count against the number.
    await takeAddressShare('phone', phone, context, DAILY_LIMITS.loginCodesByPhonePerAddress);
    // Counted for every number, registered or not, so the 429 reveals nothing.
    const daily = await deps.counters.take(
      `login-code-phone:${keyedDigest(deps.config.jwtSecret, 'phone', phone)}`,
      DAILY_LIMITS.loginCodesByPhone,
    );
    if (!daily.allowed) throw tooManyAttempts(daily.retryAfterSeconds);
    // The platform's codes for today spent: said to every number alike (issue #32 item 8).
    await deps.phoneCodes.assertBudgetLeft();
    const user = await repository.findByVerifiedPhone(phone);
    if (!user || user.deletedAt || (await repository.isDisabled(user))) return;
    // Only a code really sent spends the number's budget, and only its sign-in budget (issue #32
    // item 9): a stranger's `login-otp` never uses up a request's confirmation codes. Past it the
    // answer stays `{sent: true}`, as for a number with no account, so it reveals nothing.
    try {
      await deps.phoneCodes.takeDailyBudget('login', phone);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED') return;
      throw error;
    }
    const issued = deps.phoneCodes.issue('login', phone, user.language);
    await repository.insertLoginCode({
      userId: user.id,
      codeHash: hashOtpCode(deps.config.jwtSecret, user.id, OTP_PURPOSE, issued.code),
      requestedFrom: addressDigest(context.ip),
      createdAt: issued.issuedAt,
      expiresAt: issued.expiresAt,
      phone,
    });
    issued.deliver();
  }

  return {
    /**
     * A new donor, status pending, signed in. With an idempotency key, a retry gets the same
     * account (`replayed: true`) instead of a 409, signed in with a new session: the stored reply
     * keeps only the user's id, never tokens (issue #14: a copy of the database must sign nobody
     * in). The retry's body carries the password (the key's fingerprint covers it), and it must
     * still be the account's password, so a replay is no easier than a sign-in.
     */
    async register(
      input: Register,
      context: RequestContext,
    ): Promise<{ result: RegisterResult; replayed: boolean }> {
      assertPasswordStrongEnough(input.password, 'body.password', [
        input.email,
        input.fullName,
        input.phone,
      ]);
      const passwordHash = await hashPassword(input.password);
      const verification: { deliver?: () => void } = {};
      if (!context.idempotencyKey) {
        const result = await db.transaction((tx) =>
          createDonor(tx, input, passwordHash, context, verification),
        );
        verification.deliver?.();
        return { result, replayed: false };
      }
      const reply = await deps.idempotency.run(
        {
          key: context.idempotencyKey,
          route: REGISTER_ROUTE_KEY,
          requestHash: fingerprint(input, deps.config.jwtSecret),
        },
        async (tx) => {
          const result = await createDonor(tx, input, passwordHash, context, verification);
          return { statusCode: 201, body: result, stored: { user: { id: result.user.id } } };
        },
      );
      if (!reply.replayed) {
        verification.deliver?.();
        return { result: reply.body as RegisterResult, replayed: false };
      }
      const stored = reply.body as { user?: { id?: unknown } } | null;
      const found =
        typeof stored?.user?.id === 'string'
          ? await repository.findById(stored.user.id)
          : undefined;
      if (
        !found ||
        found.deletedAt ||
        !(await verifyPassword(found.passwordHash, input.password))
      ) {
        throw new AppError('CONFLICT', REGISTRATION_DONE_MESSAGE);
      }
      const tokens = await sessions.issue(found, context);
      return { result: { user: await deps.userViews.load(found), tokens }, replayed: true };
    },

    async login(input: Login, context: RequestContext): Promise<AuthResult> {
      // Counted before checking, and forgotten on success: parallel guesses cannot slip past.
      await takePasswordAttempt(input.email, context);
      const found = await repository.findByEmail(input.email);
      const user = found && !found.deletedAt ? found : undefined;
      const isRight = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
      if (!user || !isRight) {
        throw new AppError('INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
      }
      await clearPasswordFailures(input.email, context);
      if (input.role && input.role !== user.role) {
        throw new AppError(
          'ROLE_MISMATCH',
          `This is not a${input.role === 'admin' ? 'n' : ''} ${ROLE_NAMES[input.role]} account. Please use the sign-in page for your account type.`,
        );
      }
      // Said only to whoever knows the password, so it reveals nothing to a stranger.
      if (await repository.isDisabled(user)) {
        throw new AppError('ACCOUNT_DISABLED', ACCOUNT_DISABLED_MESSAGE);
      }
      return signIn(user, 'password', context);
    },

    /**
     * Mails a code when the address belongs to a live account, or sends one by SMS when the
     * phone is a live account's verified phone; says nothing either way. Earlier codes stay
     * valid until they expire (a stranger asking for codes cannot void the owner's). A phone
     * that was never verified gets nothing: whoever typed it may not own it, and the code
     * would hand the account to the number's real owner.
     */
    async requestLoginCode(target: LoginTarget, context: RequestContext = {}): Promise<void> {
      if (target.phone !== undefined) return requestLoginCodeByPhone(target.phone, context);
      const email = target.email;
      const wait = await limiters.otpRequests.consume(accountKey(context.ip, email));
      if (wait > 0) throw tooManyAttempts(wait);
      await takeAddressShare('email', email, context, DAILY_LIMITS.loginCodesPerAddress);
      // Counted for every address, registered or not, so the 429 reveals nothing.
      const daily = await deps.counters.take(
        `login-code:${keyedDigest(deps.config.jwtSecret, 'email', email.toLowerCase())}`,
        DAILY_LIMITS.loginCodes,
      );
      if (!daily.allowed) throw tooManyAttempts(daily.retryAfterSeconds);
      const user = await repository.findByEmail(email);
      if (!user || user.deletedAt || (await repository.isDisabled(user))) return;
      const code = generateOtpCode();
      const at = now();
      const mail = renderOtpMail({
        language: user.language,
        name: user.fullName,
        code,
        publicUrl: deps.config.publicUrl,
      });
      await db.transaction(async (tx) => {
        const repo = createAuthRepository(tx);
        await repo.insertLoginCode({
          userId: user.id,
          codeHash: hashOtpCode(deps.config.jwtSecret, user.id, OTP_PURPOSE, code),
          requestedFrom: addressDigest(context.ip),
          createdAt: new Date(at),
          expiresAt: new Date(at + OTP_TTL_MINUTES * 60_000),
          phone: null,
        });
        await mailer.enqueue({ to: user.email, userId: user.id, kind: 'login_otp', ...mail }, tx);
      });
      mailer.kick();
    },

    /**
     * Any live code of the account signs in. Each code has two budgets of tries: one for the
     * client address that asked for it, one for everyone else, so a stranger's guesses never
     * void the code the owner just received.
     */
    async loginWithCode(
      target: LoginTarget,
      code: string,
      context: RequestContext,
    ): Promise<AuthResult> {
      const account = target.phone ?? target.email;
      const key = accountKey(context.ip, account);
      const wait = await limiters.otpFailures.consume(key);
      if (wait > 0) throw tooManyAttempts(wait);
      const found =
        target.phone !== undefined
          ? await repository.findByVerifiedPhone(target.phone)
          : await repository.findByEmail(target.email);
      const user = found && !found.deletedAt ? found : undefined;
      const isRight =
        user !== undefined &&
        (await repository.useLoginCode(user.id, {
          at: new Date(now()),
          from: addressDigest(context.ip),
          isMatch: (codeHash) =>
            digestsEqual(hashOtpCode(deps.config.jwtSecret, user.id, OTP_PURPOSE, code), codeHash),
        }));
      if (!user || !isRight) {
        throw new AppError('INVALID_OTP', INVALID_OTP_MESSAGE);
      }
      await limiters.otpFailures.reset(key);
      await clearPasswordFailures(user.email, context);
      if (await repository.isDisabled(user)) {
        throw new AppError('ACCOUNT_DISABLED', ACCOUNT_DISABLED_MESSAGE);
      }
      return signIn(user, 'otp', context);
    },

    async refresh(refreshToken: string): Promise<{ accessToken: string; expiresIn: number }> {
      const result = await sessions.refresh(refreshToken);
      if (!result) throw new AppError('INVALID_REFRESH_TOKEN', INVALID_REFRESH_TOKEN_MESSAGE);
      return result;
    },

    /**
     * Revokes the refresh token. Holding it proves the session is the caller's; a signed-in
     * caller can only revoke their own. Unknown or revoked tokens are fine (logout never fails).
     * Once the account is known (a valid access token, or a refresh token that was revoked), its
     * access tokens end too (token version raised: other devices refresh theirs silently) and this
     * device's push subscription is removed, so the next person on a shared phone gets none of
     * the previous donor's alerts.
     */
    async logout(
      input: { refreshToken?: string | undefined; pushEndpoint?: string | undefined },
      callerId: string | null,
    ): Promise<void> {
      const ownerId = input.refreshToken
        ? await sessions.revoke(input.refreshToken, REVOKE_REASONS.logout, callerId ?? undefined)
        : null;
      const userId = callerId ?? ownerId;
      if (!userId) return;
      await db.transaction(async (tx) => {
        await sessions.endAccessTokens(userId, tx);
        if (input.pushEndpoint) {
          await createAuthRepository(tx).deletePushSubscription(userId, input.pushEndpoint);
        }
      });
    },

    /** The caller's user object with their caller facts, for `app.authenticateWith`. */
    me: (userId: string) => deps.userViews.loadWithCaller(userId),

    async isEmailAvailable(email: string): Promise<boolean> {
      return !(await repository.isEmailTaken(email));
    },

    async isPhoneAvailable(phone: string): Promise<boolean> {
      return !(await repository.isPhoneTaken(phone));
    },

    /**
     * Mails a single-use reset link when the address belongs to a live account. Earlier links
     * stay valid until they expire or one is used: a stranger asking for links cannot void the
     * one the owner is about to click.
     */
    async requestPasswordReset(email: string, context: RequestContext = {}): Promise<void> {
      const wait = await limiters.resetRequests.consume(accountKey(context.ip, email));
      if (wait > 0) throw tooManyAttempts(wait);
      const user = await repository.findByEmail(email);
      if (!user || user.deletedAt || (await repository.isDisabled(user))) return;
      await db.transaction(async (tx) => {
        const { link } = await issueSetPasswordLink(tx, {
          userId: user.id,
          purpose: 'reset',
          now: now(),
          publicUrl: deps.config.publicUrl,
          keepEarlier: true,
        });
        const mail = renderResetMail({
          language: user.language,
          name: user.fullName,
          link,
          publicUrl: deps.config.publicUrl,
        });
        await mailer.enqueue(
          { to: user.email, userId: user.id, kind: 'password_reset', ...mail },
          tx,
        );
      });
      mailer.kick();
    },

    /**
     * Sets the new password, signs the account out everywhere, and signs this device in (issue
     * #32 item 13: whoever a stranger locked out of the password and the codes ends the reset
     * signed in, whatever their role). An account an administrator disabled, or erased
     * meanwhile, gets no session: only `role`.
     */
    async resetPassword(
      token: string,
      password: string,
      context: RequestContext,
    ): Promise<{ role: Role } & Partial<AuthResult>> {
      const passwordHash = await hashPassword(password);
      const user = await db.transaction(async (tx) => {
        const repo = createAuthRepository(tx);
        const at = new Date(now());
        const used = await repo.useResetToken(hashOpaqueToken(token), at);
        if (!used) throw new AppError('INVALID_RESET_TOKEN', INVALID_RESET_TOKEN_MESSAGE);
        const owner = used.user;
        // Thrown inside the transaction, so the link stays usable for a better password.
        assertPasswordStrongEnough(password, 'body.password', [
          owner.email,
          owner.fullName,
          owner.phone ?? '',
        ]);
        await repo.setPasswordHash(owner.id, passwordHash);
        await sessions.revokeAll(owner.id, REVOKE_REASONS.passwordReset, tx);
        await repo.voidResetTokens(owner.id, at);
        await repo.voidLoginCodes(owner.id, at);
        await createActivityLog(tx).record({
          // A hospital invitation's link sets the first password.
          action:
            used.purpose === 'invitation' ? 'user.invitation_accepted' : 'user.password_reset',
          actorId: owner.id,
          actorRole: owner.role,
          targetType: 'user',
          targetId: owner.id,
          requestId: context.requestId ?? null,
        });
        return owner;
      });
      // Whoever reads the mailbox may sign in again at once.
      await clearPasswordFailures(user.email, context);
      await limiters.otpFailures.reset(accountKey(context.ip, user.email));
      const current = await repository.findById(user.id);
      if (!current || current.deletedAt || (await repository.isDisabled(current))) {
        return { role: user.role };
      }
      return { role: current.role, ...(await signIn(current, 'reset', context)) };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function emailTaken() {
  return new AppError('EMAIL_TAKEN', 'An account with this e-mail address already exists.', [
    { path: 'body.email', message: 'An account with this e-mail address already exists.' },
  ]);
}

function phoneTaken() {
  return new AppError('PHONE_TAKEN', 'An account with this phone number already exists.', [
    { path: 'body.phone', message: 'An account with this phone number already exists.' },
  ]);
}
