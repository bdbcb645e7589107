import {
  authResultSchema,
  availabilityResultSchema,
  checkEmailSchema,
  checkPhoneSchema,
  loginOtpSchema,
  loginSchema,
  logoutResultSchema,
  logoutSchema,
  mailSentResultSchema,
  passwordResetResultSchema,
  refreshResultSchema,
  refreshSchema,
  registerResultSchema,
  registerSchema,
  resetPasswordSchema,
  successEnvelope,
  userResultSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { ACCOUNT_LIMITS, DAILY_LIMITS } from '../../lib/auth-limits';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import type { AuthService, LoginTarget } from './auth.service';

/**
 * Per-address limits (@fastify/rate-limit, keyed by request.ip). Indian mobile networks put many
 * people behind one address (CGNAT), so they are set for a crowd, not for one person; the
 * per-account limits in lib/auth-limits.ts are the tight ones.
 */
export const AUTH_RATE_LIMITS = {
  register: { max: 10, timeWindow: '1 hour' },
  login: { max: 20, timeWindow: '15 minutes' },
  loginOtp: { max: 10, timeWindow: '15 minutes' },
  resetPassword: { max: 10, timeWindow: '15 minutes' },
  /** These reveal whether an address or number is registered, by nature: kept tight. */
  availability: { max: 20, timeWindow: '1 minute' },
} as const;

const minutes = (ms: number) => ms / 60_000;
const BEARER = [{ bearerAuth: [] }];

export interface AuthRoutesOptions {
  auth: AuthService;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth }) => {
  app.post(
    '/api/v1/auth/register',
    {
      config: { rateLimit: AUTH_RATE_LIMITS.register },
      schema: {
        tags: ['auth'],
        summary: 'Register as a donor',
        description:
          'Creates a donor account (role `donor`, status `pending`) and signs it in. `consent: true` is required and ' +
          'recorded with the version of the privacy notice and terms. Donors must be 18 to 65 years old. The phone is ' +
          'stored in E.164, so `09876543210` and `+91 98765 43210` are the same number. `language` (any supported interface language: en, es, fr, de, hi, ar, zh, pt, ru, ja, bn, mr, te, ta; ' +
          'default en) is stored; e-mails and SMS are written in en, es, hi, bn, mr, te and ta, any other language gets English. The phone ' +
          'must be a mobile (donors receive SMS): a landline is 400. With the `phoneVerification` flag on and SMS (else WhatsApp) configured, a 6-digit code is sent to it and the reply adds `phoneVerification: {phone, expiresAt}`: the phone counts as verified (`user.phoneVerifiedAt`) only once `POST /users/{id}/phone/verify` confirms the code. ' +
          '**Idempotent** by `X-Request-ID`: a retry with the same id and body returns the first ' +
          'account (header `Idempotent-Replayed: true`), signed in with **new** tokens, and creates no second account: ' +
          "tokens are never stored, so the retry must still carry the account's current password (else 409 " +
          '`CONFLICT`). The same id with another body is 409 `CONFLICT`. A password that is too common or easy to guess ' +
          '(breach lists, zxcvbn score below 3, or made of the e-mail, name or phone) is 400 `WEAK_PASSWORD` on ' +
          '`body.password`. ' +
          `Rate limit: ${AUTH_RATE_LIMITS.register.max} per hour per address.`,
        body: registerSchema,
        response: {
          201: successEnvelope(registerResultSchema),
          ...errorResponses(400, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const { result, replayed } = await auth.register(request.body, meta);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send({ success: true as const, data: result });
    },
  );

  app.post(
    '/api/v1/auth/login',
    {
      config: { rateLimit: AUTH_RATE_LIMITS.login },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description:
          'An unknown e-mail and a wrong password get the same 401 `INVALID_CREDENTIALS` in the same time. `role` ' +
          '(sent by the admin and hospital sign-in pages) is compared only after the password is right: a different role ' +
          'is 403 `ROLE_MISMATCH`. Erased accounts cannot sign in. Suspended donors can, to read the suspension. A ' +
          'hospital account an administrator disabled gets 403 `ACCOUNT_DISABLED` (only with the right password). ' +
          `After ${ACCOUNT_LIMITS.passwordFailures.max} wrong passwords for one e-mail address from one client address within ` +
          `${minutes(ACCOUNT_LIMITS.passwordFailures.windowMs)} minutes, that client address is refused for that e-mail with 429 (Retry-After), ` +
          'registered or not; other client addresses (the owner elsewhere) are not. Over every client address together, ' +
          `${ACCOUNT_LIMITS.passwordFailuresPerAccount.max} wrong passwords within ` +
          `${minutes(ACCOUNT_LIMITS.passwordFailuresPerAccount.windowMs)} minutes refuse the e-mail address everywhere (429). ` +
          'A sign-in with a code, or a completed reset, clears both. ' +
          `Rate limit: ${AUTH_RATE_LIMITS.login.max} per 15 minutes per client address.`,
        body: loginSchema,
        response: {
          200: successEnvelope(authResultSchema),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await auth.login(request.body, requestMeta(request)),
    }),
  );

  app.post(
    '/api/v1/auth/login-otp',
    {
      config: { rateLimit: AUTH_RATE_LIMITS.loginOtp },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a code sent by e-mail or SMS',
        description:
          '`{email}` mails a 6-digit code valid 10 minutes and answers `{sent: true}`, also for addresses with no ' +
          'account. `{phone}` (a 10-digit Indian mobile, with or without +91/0) sends the code by SMS instead (by WhatsApp when SMS is not configured), and ' +
          'answers `{sent: true}` the same way whether or not the number belongs to an account; the code goes out ' +
          'only to an account whose phone was verified by a code (at registration with `phoneVerification` on, or a ' +
          'phone change): an unverified number may have been typed by someone who does not own it. With neither SMS ' +
          'nor WhatsApp configured `{phone}` is 409 `SMS_UNAVAILABLE` (before anything is counted). `{phone, code}` ' +
          `signs in like \`{email, code}\`. Send exactly one of \`email\` and \`phone\` (400 otherwise). At most ` +
          `${DAILY_LIMITS.loginCodesByPhone} sign-in codes per phone number per day, and ${DAILY_LIMITS.loginCodesByPhonePerAddress} per client address and number, in the database; a number's sign-in ` +
          "codes have their own budget: asking for them never spends the codes of a request's confirmation or a phone " +
          'verification, and a number with no account spends nothing but its own sign-in count. Earlier codes keep ' +
          'working until they expire; using one voids the others. `{email, code}` signs ' +
          'in: a wrong, expired or used code is 401 `INVALID_OTP`. Each code takes 5 wrong tries from the client ' +
          'address that asked for it and 5 from anywhere else, then that budget is spent (even the right code fails ' +
          'from there), so a stranger cannot void the code the owner just received. Per client address and e-mail ' +
          `address, with exponential backoff: ${ACCOUNT_LIMITS.otpRequests.freeAttempts} codes, then a wait of ` +
          `${ACCOUNT_LIMITS.otpRequests.baseMs / 1000} s doubling up to ${minutes(ACCOUNT_LIMITS.otpRequests.maxMs)} minutes; ` +
          `${ACCOUNT_LIMITS.otpFailures.freeAttempts} wrong codes, then ${ACCOUNT_LIMITS.otpFailures.baseMs / 1000} s doubling; ` +
          `429 with Retry-After. At most ${DAILY_LIMITS.loginCodesPerAddress} codes per client address and e-mail address, and ${DAILY_LIMITS.loginCodes} per e-mail address, per day (India time), ` +
          'counted in the database for every server process, registered or not. ' +
          `Rate limit: ${AUTH_RATE_LIMITS.loginOtp.max} per 15 minutes per client address.`,
        body: loginOtpSchema,
        response: {
          200: successEnvelope(z.union([authResultSchema, mailSentResultSchema])),
          ...errorResponses(400, 401, 409, 429),
        },
      },
    },
    async (request) => {
      const { email, phone, code } = request.body;
      // The schema lets exactly one of them through.
      let target: LoginTarget;
      if (phone !== undefined) target = { phone };
      else if (email !== undefined) target = { email };
      else
        throw new AppError('VALIDATION_ERROR', 'Give either an e-mail address or a mobile number.');
      if (code === undefined) {
        await auth.requestLoginCode(target, requestMeta(request));
        return { success: true as const, data: { sent: true as const } };
      }
      return {
        success: true as const,
        data: await auth.loginWithCode(target, code, requestMeta(request)),
      };
    },
  );

  app.post(
    '/api/v1/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'A new access token for a refresh token',
        description:
          'The refresh token is not rotated: keep it. Unknown, expired (30 days) or revoked tokens, and tokens of erased ' +
          'accounts, are 401 `INVALID_REFRESH_TOKEN`.',
        body: refreshSchema,
        response: {
          200: successEnvelope(refreshResultSchema),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await auth.refresh(request.body.refreshToken),
    }),
  );

  app.post(
    '/api/v1/auth/logout',
    {
      // No body at all is fine too: a client signing out may have nothing left to send.
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: app.identify,
      config: { allowUnverifiedHospital: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign out',
        description:
          'Revokes the given refresh token. Holding the token is proof enough, so the access token may be missing or ' +
          'expired; with a valid access token, only a refresh token of that user is revoked. Once the account is known ' +
          '(a valid access token, or a refresh token that was just revoked) every access token issued before is refused ' +
          "(the token version is raised; the user's other devices get a new access token at their next refresh), and " +
          "`pushEndpoint` (this browser's push subscription) is removed when it is the user's, so the next person on " +
          "a shared phone never receives the previous donor's alerts. Always `{loggedOut: true}`, also for an unknown " +
          'or already revoked token.',
        security: BEARER,
        body: logoutSchema,
        response: {
          200: successEnvelope(logoutResultSchema),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      await auth.logout(request.body, request.user?.id ?? null);
      return { success: true as const, data: { loggedOut: true as const } };
    },
  );

  app.get(
    '/api/v1/auth/me',
    {
      // Authenticated in the handler: the caller's row comes with the user object in one
      // statement (app.authenticateWith), not in a statement of its own (issue #20).
      // A hospital waiting for verification reads its own account to see where it stands.
      config: { allowUnverifiedHospital: true },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        description:
          "The caller's own user object (with e-mail and phone). A suspended donor gets it too, to read the suspension.",
        security: BEARER,
        response: {
          200: successEnvelope(userResultSchema),
          ...errorResponses(401),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { user: await app.authenticateWith(request, auth.me) },
    }),
  );

  app.post(
    '/api/v1/auth/check-email',
    {
      config: { rateLimit: AUTH_RATE_LIMITS.availability },
      schema: {
        tags: ['auth'],
        summary: 'Is this e-mail address free to register?',
        description:
          'Answers whether an address is registered, which is why it is tightly limited: ' +
          `${AUTH_RATE_LIMITS.availability.max} per minute per client address.`,
        body: checkEmailSchema,
        response: {
          200: successEnvelope(availabilityResultSchema),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { available: await auth.isEmailAvailable(request.body.email) },
    }),
  );

  app.post(
    '/api/v1/auth/check-phone',
    {
      config: { rateLimit: AUTH_RATE_LIMITS.availability },
      schema: {
        tags: ['auth'],
        summary: 'Is this phone number free to register?',
        description:
          'Any accepted format of an Indian mobile number is compared in E.164. Tightly limited for the same reason as ' +
          `check-email: ${AUTH_RATE_LIMITS.availability.max} per minute per client address.`,
        body: checkPhoneSchema,
        response: {
          200: successEnvelope(availabilityResultSchema),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { available: await auth.isPhoneAvailable(request.body.phone) },
    }),
  );

  app.post(
    '/api/v1/auth/reset-password',
    {
      config: { rateLimit: AUTH_RATE_LIMITS.resetPassword },
      schema: {
        tags: ['auth'],
        summary: 'Forgotten password: ask for a link, then set a new password',
        description:
          '`{email}` mails `PUBLIC_URL/reset-password?token=…` (valid 1 hour, single use; earlier links keep working ' +
          "until they expire, so a stranger asking for links cannot void the owner's) and answers `{sent: true}`, also " +
          'for addresses with no account. `{token, password}` sets the password, voids every link and sign-in code, and ' +
          'signs the account out everywhere (all refresh tokens revoked, access tokens refused), then signs this device in: ' +
          '`{reset: true, role, user, tokens}`, `user` and `tokens` as `POST /auth/login` answers them, for every role ' +
          '(a locked-out owner ends the reset signed in); an account an administrator disabled gets only `{reset: true, role}`. An ' +
          'unknown, expired or used link is 400 `INVALID_RESET_TOKEN`; a password too common or easy to guess is 400 ' +
          '`WEAK_PASSWORD` on `body.password` (the link stays usable). Per client address and e-mail address: ' +
          `${ACCOUNT_LIMITS.resetRequests.freeAttempts} links, then a wait doubling from ` +
          `${ACCOUNT_LIMITS.resetRequests.baseMs / 1000} s (429, Retry-After). Rate limit: ` +
          `${AUTH_RATE_LIMITS.resetPassword.max} per 15 minutes per client address.`,
        body: resetPasswordSchema,
        response: {
          200: successEnvelope(z.union([passwordResetResultSchema, mailSentResultSchema])),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request) => {
      const { email, token, password } = request.body;
      if (token !== undefined && password !== undefined) {
        const result = await auth.resetPassword(token, password, requestMeta(request));
        return { success: true as const, data: { reset: true as const, ...result } };
      }
      // resetPasswordSchema guarantees an e-mail when there is no token.
      if (email !== undefined) await auth.requestPasswordReset(email, requestMeta(request));
      return { success: true as const, data: { sent: true as const } };
    },
  );
};
