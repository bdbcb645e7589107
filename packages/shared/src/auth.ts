import { z } from 'zod';
import { referralCodeSchema } from './referrals';
import { plainText } from './text';
import { BLOOD_TYPES, LANGUAGES, ROLES } from './constants';
import { ageOn, isIsoDate } from './dates';
import { normalizeIndianContactPhone, normalizeIndianPhone } from './phone';

export const DONOR_MIN_AGE = 18;
export const DONOR_MAX_AGE = 65;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const OTP_LENGTH = 6;
export const OTP_TTL_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;
export const RESET_TOKEN_TTL_MINUTES = 60;
/** The version of the privacy notice and terms a donor agrees to at registration. */
export const CONSENT_VERSION = '2026-11-01';
export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: 'Enter a valid e-mail address.' }));

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

/** A 10-digit Indian mobile number, with or without +91/0; becomes E.164. */
export const phoneSchema = z
  .string()
  .max(32)
  .transform((value, ctx) => {
    const e164 = normalizeIndianPhone(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: 'Enter a 10-digit Indian mobile number.' });
      return z.NEVER;
    }
    return e164;
  });

/**
 * A hospital's or a blood request's contact number: a mobile, or a landline with its STD code
 * (040-2345 6789); becomes E.164. A blood bank's desk is often a landline.
 */
export const contactPhoneSchema = z
  .string()
  .max(32)
  .transform((value, ctx) => {
    const e164 = normalizeIndianContactPhone(value);
    if (!e164) {
      ctx.addIssue({
        code: 'custom',
        message: 'Enter a 10-digit Indian mobile number, or a landline with its STD code.',
      });
      return z.NEVER;
    }
    return e164;
  });

export const isoDateSchema = z.string().refine(isIsoDate, 'Use a real date written YYYY-MM-DD.');

export const pincodeSchema = z
  .string()
  .trim()
  .regex(/^[1-9]\d{5}$/, 'A PIN code has 6 digits.');

const nameSchema = plainText(z.string().trim().min(2, 'Enter your full name.').max(100));
const placeSchema = plainText(z.string().trim().min(2).max(80));

export const registerSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  fullName: nameSchema,
  phone: phoneSchema,
  bloodType: z.enum(BLOOD_TYPES),
  /** YYYY-MM-DD; donors must be 18 to 65 on the day they register. */
  dateOfBirth: isoDateSchema.refine((dob) => {
    const age = ageOn(dob);
    return age >= DONOR_MIN_AGE && age <= DONOR_MAX_AGE;
  }, `Donors must be ${DONOR_MIN_AGE} to ${DONOR_MAX_AGE} years old.`),
  gender: z.enum(GENDERS),
  city: placeSchema,
  state: placeSchema,
  pincode: pincodeSchema.optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  /** The donor agrees to the privacy policy and terms (recorded with CONSENT_VERSION). */
  consent: z.literal(true, { message: 'You must agree to the privacy policy and terms.' }),
  /**
   * Extension: the interface language, also used for e-mails, SMS, notifications and certificates
   * (written in en, es, hi, bn, mr, te and ta; any other language gets English); defaults to English.
   */
  language: z.enum(LANGUAGES).optional(),
  /**
   * Extension (feature flag referralSystem): the code of the donor who invited this one, and
   * whether the new donor lets that donor see their first name and whether they donated.
   */
  referralCode: referralCodeSchema.optional(),
  shareWithReferrer: z.boolean().optional(),
});
export type RegisterInput = z.input<typeof registerSchema>;
export type Register = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(PASSWORD_MAX),
  /** Set by /admin/login and /hospital/login; a different role is 403 ROLE_MISMATCH. */
  role: z.enum(ROLES).optional(),
});
export type Login = z.infer<typeof loginSchema>;

/** `{email}` asks for a code; `{email, code}` signs in with it. */
/** A one-time code as typed: OTP_LENGTH digits. */
export const otpCodeSchema = z
  .string()
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `The code has ${OTP_LENGTH} digits.`);

/**
 * `POST /api/v1/auth/login-otp`: `{email}` or `{phone}` asks for a code (mailed, or sent by SMS
 * to a verified mobile); the same with `code` signs in. Exactly one of e-mail and phone.
 */
export const loginOtpSchema = z
  .object({
    email: emailSchema.optional(),
    phone: phoneSchema.optional(),
    code: otpCodeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.email === undefined) === (body.phone === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.email === undefined ? 'email' : 'phone'],
        message: 'Give either an e-mail address or a mobile number.',
      });
    }
  });
export type LoginOtp = z.infer<typeof loginOtpSchema>;

export const refreshSchema = z.object({ refreshToken: z.string().min(16).max(512) });
export const logoutSchema = z.object({
  refreshToken: z.string().min(1).max(512).optional(),
  /** This browser's push subscription endpoint: removed, so a shared phone gets no more alerts. */
  pushEndpoint: z.url().max(2048).optional(),
});
export const checkEmailSchema = z.object({ email: emailSchema });
export const checkPhoneSchema = z.object({ phone: phoneSchema });

/** `{email}` mails a reset link; `{token, password}` sets the new password. */
export const resetPasswordSchema = z
  .object({
    email: emailSchema.optional(),
    token: z.string().min(16).max(512).optional(),
    password: passwordSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.token !== undefined || body.password !== undefined) {
      if (body.token === undefined)
        ctx.addIssue({ code: 'custom', path: ['token'], message: 'The reset link is incomplete.' });
      if (body.password === undefined)
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'Enter a new password.' });
    } else if (body.email === undefined) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'Enter your e-mail address.' });
    }
  });
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

/** Extension: `POST /api/v1/users/{id}/password`. */
export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1).max(PASSWORD_MAX),
  newPassword: passwordSchema,
});
export type ChangePassword = z.infer<typeof changePasswordSchema>;

export const tokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  /** Seconds (3600). */
  expiresIn: z.number().int(),
});
export type AuthTokens = z.infer<typeof tokensSchema>;

export const documentSummarySchema = z.object({
  id: z.string(),
  type: z.string(),
  verified: z.boolean(),
  rejectionReason: z.string().nullable(),
});

/** The user object as the server sends it (API.md "The user object"). */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.string(),
  isApproved: z.boolean(),
  verification: z.object({ isVerified: z.boolean() }),
  onboardingCompleted: z.boolean(),
  questionnaireCompleted: z.boolean(),
  documents: z.array(documentSummarySchema),
  name: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  /**
   * When a code sent to `phone` was confirmed; null: not verified. An unverified phone cannot
   * sign in by SMS code, receive SMS or WhatsApp alerts, or skip a request's confirmation.
   */
  phoneVerifiedAt: z.string().nullable(),
  bloodType: z.enum(BLOOD_TYPES).nullable(),
  gender: z.enum(GENDERS).nullable(),
  dateOfBirth: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  pincode: z.string().nullable(),
  available: z.boolean(),
  lastDonationAt: z.string().nullable(),
  nextEligibleAt: z.string().nullable(),
  totalDonations: z.number().int(),
  language: z.string(),
  createdAt: z.string(),
  /** Extension: a demo account (the `mockData` flag); absent for every real one. */
  isDemo: z.literal(true).optional(),
  rejectionReason: z.string().nullable().optional(),
  suspensionReason: z.string().nullable().optional(),
  /**
   * A hospital account's organisation. `verificationStatus` (extension, issue #17): only a
   * `verified` one may act; `pending` and `rejected` (with `rejectionReason`) wait.
   */
  hospital: z
    .object({
      id: z.string(),
      name: z.string(),
      verificationStatus: z.enum(['pending', 'verified', 'rejected']).optional(),
      rejectionReason: z.string().nullable().optional(),
      disabled: z.boolean().optional(),
    })
    .nullable()
    .optional(),
});
export type User = z.infer<typeof userSchema>;

export const authResultSchema = z.object({ user: userSchema, tokens: tokensSchema });
export type AuthResult = z.infer<typeof authResultSchema>;

/** `PATCH /api/v1/users/{id}`: profile fields; blood type only while the donor is pending. */
export const updateProfileSchema = z
  .object({
    fullName: nameSchema,
    phone: phoneSchema,
    city: placeSchema,
    state: placeSchema,
    pincode: pincodeSchema.nullable(),
    bloodType: z.enum(BLOOD_TYPES),
    available: z.boolean(),
    language: z.enum(LANGUAGES),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change.');
export type UpdateProfile = z.infer<typeof updateProfileSchema>;

/** `POST /api/v1/users/{id}/phone/confirm`: the code sent by SMS to the new phone number. */
export const confirmPhoneChangeSchema = z.object({ code: otpCodeSchema });
export type ConfirmPhoneChange = z.infer<typeof confirmPhoneChangeSchema>;
