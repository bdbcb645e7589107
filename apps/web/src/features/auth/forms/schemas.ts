import { z } from 'zod';
import {
  BLOOD_TYPES,
  changePasswordSchema,
  emailSchema,
  loginOtpSchema,
  loginSchema,
  passwordSchema,
  phoneSchema,
  pincodeSchema,
  registerSchema,
} from '@bdms/shared';

/**
 * Form schemas: the shared payload schemas (packages/shared/src/auth.ts), adapted only where a
 * form differs from the payload (an empty optional input is '', a confirmation field). Only the
 * lazily loaded form screens import this file, so zod never reaches the first page load.
 */

/** An empty optional input is '' in a form; the API wants the field left out. */
const optionalPincode = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(pincodeSchema.optional());

export const registerFormSchema = registerSchema.extend({ pincode: optionalPincode });
export type RegisterFormInput = z.input<typeof registerFormSchema>;
export type RegisterFormOutput = z.output<typeof registerFormSchema>;

export const loginFormSchema = loginSchema.pick({ email: true, password: true });
export type LoginFormInput = z.input<typeof loginFormSchema>;

export const otpEmailFormSchema = z.object({ email: emailSchema });
export const otpPhoneFormSchema = z.object({ phone: phoneSchema });
export const otpCodeFormSchema = z.object({ code: loginOtpSchema.shape.code.unwrap() });

export const forgotPasswordFormSchema = z.object({ email: emailSchema });

const sameAs =
  <T extends Record<string, unknown>>(field: keyof T, confirm: keyof T) =>
  (value: T) =>
    value[field] === value[confirm];

export const resetPasswordFormSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine(sameAs('password', 'confirmPassword'), { path: ['confirmPassword'] });
export type ResetPasswordFormInput = z.input<typeof resetPasswordFormSchema>;

export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine(sameAs('newPassword', 'confirmPassword'), { path: ['confirmPassword'] });
export type ChangePasswordFormInput = z.input<typeof changePasswordFormSchema>;

/**
 * The profile form. A field the account has never had (an administrator without a city) may stay
 * empty; one it has, or any donor's, is required like at registration.
 */
export function createProfileFormSchema(required: {
  phone: boolean;
  city: boolean;
  state: boolean;
}) {
  const orEmpty = <T extends z.ZodType>(schema: T, isRequired: boolean) =>
    isRequired ? schema : z.union([z.literal('').transform(() => undefined), schema]);
  return z.object({
    fullName: registerSchema.shape.fullName,
    phone: orEmpty(phoneSchema, required.phone),
    city: orEmpty(registerSchema.shape.city, required.city),
    state: orEmpty(registerSchema.shape.state, required.state),
    pincode: z
      .string()
      .trim()
      .transform((value) => (value === '' ? null : value))
      .pipe(pincodeSchema.nullable()),
    bloodType: z.enum(BLOOD_TYPES).optional(),
  });
}
export type ProfileFormSchema = ReturnType<typeof createProfileFormSchema>;
export type ProfileFormInput = z.input<ProfileFormSchema>;
export type ProfileFormOutput = z.output<ProfileFormSchema>;
