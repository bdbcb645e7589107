import { z } from 'zod';
import { authResultSchema, tokensSchema, userSchema } from './auth';
import { ROLES } from './constants';

/**
 * The `data` of the auth and users replies that auth.ts does not define yet (API.md "Auth",
 * "Users"). `authResultSchema` ({user, tokens}) and `userSchema` live in auth.ts.
 */

/** `GET /auth/me`, `GET|PATCH /users/{id}`. */
export const userResultSchema = z.object({ user: userSchema });
export type UserResult = z.infer<typeof userResultSchema>;

/**
 * `PATCH /users/{id}`: the user, and when the body asked for a new phone number, the change
 * waiting for its code (the phone in `user` is still the old one until it is confirmed).
 */
export const updateUserResultSchema = z.object({
  user: userSchema,
  phoneChange: z
    .object({
      /** The new number (E.164) the code was sent to. */
      phone: z.string(),
      /** ISO date-time after which the code no longer works. */
      expiresAt: z.string(),
    })
    .optional(),
});
export type UpdateUserResult = z.infer<typeof updateUserResultSchema>;

/** A code sent by SMS: to which number, and until when it works. */
export const phoneCodeSentSchema = z.object({
  /** E.164. */
  phone: z.string(),
  /** ISO date-time after which the code no longer works. */
  expiresAt: z.string(),
});
export type PhoneCodeSent = z.infer<typeof phoneCodeSentSchema>;

/**
 * `POST /auth/register`: the new account, signed in, and when the `phoneVerification` flag is on
 * and SMS is available, the code on its way to the phone (`POST /users/{id}/phone/verify`).
 */
export const registerResultSchema = authResultSchema.extend({
  phoneVerification: phoneCodeSentSchema.optional(),
});
export type RegisterResult = z.infer<typeof registerResultSchema>;

/** `POST /auth/login-otp` with `{email}` and `POST /auth/reset-password` with `{email}`: always sent. */
export const mailSentResultSchema = z.object({ sent: z.literal(true) });
export type MailSentResult = z.infer<typeof mailSentResultSchema>;

/** `POST /auth/refresh`: a new access token; the refresh token is kept unchanged. */
export const refreshResultSchema = z.object({
  accessToken: z.string(),
  /** Seconds (3600). */
  expiresIn: z.number().int(),
});
export type RefreshResult = z.infer<typeof refreshResultSchema>;

export const logoutResultSchema = z.object({ loggedOut: z.literal(true) });
export type LogoutResult = z.infer<typeof logoutResultSchema>;

/** `POST /auth/check-email`, `POST /auth/check-phone`. */
export const availabilityResultSchema = z.object({ available: z.boolean() });
export type AvailabilityResult = z.infer<typeof availabilityResultSchema>;

/** `POST /auth/reset-password` with `{token, password}`. */
export const passwordResetResultSchema = z.object({
  reset: z.literal(true),
  /**
   * The account's role, so that the page sends its owner to their own sign-in (a hospital's
   * invitation lands on the hospital sign-in). Only the link's holder learns it.
   */
  role: z.enum(ROLES),
  /**
   * The session the reset ends in (issue #32 item 13: whoever a stranger locked out of the
   * password and the codes is signed in by the link), as `POST /auth/login` answers it. Absent
   * for an account an administrator disabled.
   */
  user: userSchema.optional(),
  tokens: tokensSchema.optional(),
});
export type PasswordResetResult = z.infer<typeof passwordResetResultSchema>;

/**
 * `POST /users/{id}/password`: every earlier session is signed out, and the new tokens keep the
 * device that changed the password signed in.
 */
export const changePasswordResultSchema = z.object({
  changed: z.literal(true),
  tokens: tokensSchema,
});
export type ChangePasswordResult = z.infer<typeof changePasswordResultSchema>;

/** `{id}` path parameter of the users routes. */
export const userIdParamsSchema = z.object({ id: z.guid({ message: 'Not a valid user id.' }) });
