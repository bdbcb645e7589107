import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './api';
import { authResultSchema, emailSchema, otpCodeSchema, passwordSchema, phoneSchema } from './auth';
import { LANGUAGES } from './constants';
import { facilitySchema } from './facilities';
import { multilineText, plainText } from './text';

/**
 * A blood centre or hospital registering itself (issue #17, flag `hospitalRegistration`), and
 * the administrators' check of it. Server and web both use these.
 */

/** Where a hospital account stands: only a verified (and enabled) one may act. */
export const HOSPITAL_VERIFICATION_STATUSES = ['pending', 'verified', 'rejected'] as const;
export type HospitalVerificationStatus = (typeof HOSPITAL_VERIFICATION_STATUSES)[number];

/** How the account came to be: an administrator's invitation, or the hospital itself. */
export const HOSPITAL_REGISTERED_VIA = ['invitation', 'self'] as const;
export type HospitalRegisteredVia = (typeof HOSPITAL_REGISTERED_VIA)[number];

/**
 * A blood bank licence number as printed on Form 28-C (Drugs and Cosmetics Rules, 1945), e.g.
 * `DL1/CLAA/ANI` or `KTK/28C/123/2010`: letters, digits and `/ - . ( )` and spaces.
 */
export const licenceNumberSchema = plainText(
  z
    .string()
    .trim()
    .min(3, 'Enter the licence number as printed on the licence.')
    .max(60, 'Use at most 60 characters.')
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9/\-.() ]*$/,
      'Use the letters, digits and / - . ( ) of the licence number.',
    ),
);

/** `POST /api/v1/hospital-registrations`. */
export const registerHospitalSchema = z.object({
  /** The organisation's name as on its licence. */
  name: plainText(z.string().trim().min(2, 'Enter the name of the blood centre.').max(200)),
  licenceNumber: licenceNumberSchema,
  /** The blood bank directory entry it is, chosen by search (`GET /api/v1/facilities?q=`). */
  facilityId: z
    .string()
    .trim()
    .regex(/^bb-\d{1,9}$/, 'Choose your blood centre from the directory search.'),
  /** A real person who answers for the registration (not a role address). */
  contactName: plainText(
    z.string().trim().min(2, 'Enter the contact person’s full name.').max(100),
  ),
  email: emailSchema,
  /** A mobile number: it is confirmed by a code sent by SMS. */
  phone: phoneSchema,
  password: passwordSchema,
  language: z.enum(LANGUAGES).optional(),
});
export type RegisterHospital = z.infer<typeof registerHospitalSchema>;

/** What the registering account sees of its own registration. */
export const hospitalRegistrationStatusSchema = z.object({
  hospitalId: z.string(),
  name: z.string(),
  verificationStatus: z.enum(HOSPITAL_VERIFICATION_STATUSES),
  /** Set when an administrator rejected it. */
  rejectionReason: z.string().nullable(),
  emailConfirmed: z.boolean(),
  phoneConfirmed: z.boolean(),
  /** False when no SMS provider is configured: the phone cannot be confirmed yet. */
  smsAvailable: z.boolean(),
});
export type HospitalRegistrationStatus = z.infer<typeof hospitalRegistrationStatusSchema>;

/** `POST /api/v1/hospital-registrations` reply: signed in, and the registration's state. */
export const registerHospitalResultSchema = authResultSchema.extend({
  registration: hospitalRegistrationStatusSchema,
});
export type RegisterHospitalResult = z.infer<typeof registerHospitalResultSchema>;

export const hospitalRegistrationResultSchema = z.object({
  registration: hospitalRegistrationStatusSchema,
});
export type HospitalRegistrationResult = z.infer<typeof hospitalRegistrationResultSchema>;

/** `POST /api/v1/hospital-registrations/me/email/confirm` and `…/phone/confirm`. */
export const confirmRegistrationCodeSchema = z.object({ code: otpCodeSchema });
export type ConfirmRegistrationCode = z.infer<typeof confirmRegistrationCodeSchema>;

/** `POST …/email/code` and `…/phone/code`: a code is on its way. */
export const registrationCodeSentSchema = z.object({
  sent: z.literal(true),
  expiresAt: z.string(),
});
export type RegistrationCodeSent = z.infer<typeof registrationCodeSentSchema>;

/** `GET /api/v1/admin/hospitals?status=&registeredVia=`. */
export const listHospitalsQuerySchema = z.object({
  status: z.enum(HOSPITAL_VERIFICATION_STATUSES).optional(),
  registeredVia: z.enum(HOSPITAL_REGISTERED_VIA).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type ListHospitalsQuery = z.infer<typeof listHospitalsQuerySchema>;

/** The directory entry a hospital claims, as the directory has it (for the administrator's check). */
export const directoryEntrySchema = facilitySchema
  .pick({
    id: true,
    name: true,
    address: true,
    city: true,
    district: true,
    state: true,
    pincode: true,
    phone: true,
    mobile: true,
    email: true,
    category: true,
  })
  .extend({
    /** The licence as the directory (data.gov.in, 2018) lists it; null when it has none. */
    licenceNumber: z.string().nullable(),
    licenceObtained: z.string().nullable(),
    licenceRenewed: z.string().nullable(),
  });
export type DirectoryEntry = z.infer<typeof directoryEntrySchema>;

/** `POST /api/v1/admin/hospitals/{id}/reject`. */
export const rejectHospitalSchema = z.object({
  /** Mailed to the contact: what to correct. */
  reason: multilineText(
    z.string().trim().min(3, 'Give a reason the hospital can act on.').max(1000),
  ),
});
export type RejectHospital = z.infer<typeof rejectHospitalSchema>;
