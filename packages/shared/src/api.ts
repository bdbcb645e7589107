import { z } from 'zod';

/**
 * Machine-readable error codes of the API envelope (API.md "Conventions") and the HTTP status
 * each one maps to. The server's single error handler and the web client both read this table.
 */
export const ERROR_CODES = {
  /** The body, query or params failed validation; `details` lists `{path, message}`. */
  VALIDATION_ERROR: 400,
  /** Malformed JSON or another unreadable body. */
  BAD_REQUEST: 400,
  /** No, expired or invalid access token; the client refreshes on it. */
  UNAUTHENTICATED: 401,
  /** E-mail or password wrong (same reply for both). */
  INVALID_CREDENTIALS: 401,
  /** Signed in, but not allowed to do this. */
  FORBIDDEN: 403,
  /** The signed-in role differs from the role the sign-in screen asked for. */
  ROLE_MISMATCH: 403,
  /** No such resource, or an unknown route under /api/. */
  NOT_FOUND: 404,
  /** The route exists but not with this method. */
  METHOD_NOT_ALLOWED: 405,
  /** Generic conflict with the current state. */
  CONFLICT: 409,
  /** The e-mail address already belongs to an account. */
  EMAIL_TAKEN: 409,
  /** The phone number already belongs to an account. */
  PHONE_TAKEN: 409,
  /** The requested status change is not allowed from the current status. */
  INVALID_TRANSITION: 409,
  /** The body is larger than the route accepts. */
  PAYLOAD_TOO_LARGE: 413,
  /** The Content-Type is not one the route accepts. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Too many requests; see the Retry-After header. */
  RATE_LIMITED: 429,
  /** Something failed on the server; never carries a stack trace or SQL. */
  INTERNAL_ERROR: 500,
  /** A dependency (the database) is not reachable. */
  SERVICE_UNAVAILABLE: 503,
  /** The one-time sign-in code is wrong, expired, used or void (after 5 wrong tries). */
  INVALID_OTP: 401,
  /** The refresh token is unknown, expired or revoked; the client signs the user out. */
  INVALID_REFRESH_TOKEN: 401,
  /** The password reset link is unknown, expired or already used. */
  INVALID_RESET_TOKEN: 400,
  /** The blood type can only be changed while the donor's status is pending. */
  BLOOD_TYPE_LOCKED: 409,
  /** The server's disk is full; the upload was not kept (try again later). */
  INSUFFICIENT_STORAGE: 507,
  /** A donor can only be approved once onboarding (questionnaire, ID proof when required) is complete. */
  ONBOARDING_INCOMPLETE: 409,
  /** The account is disabled by an administrator (hospital accounts); sign-in is refused. */
  ACCOUNT_DISABLED: 403,
  /** The new password is too common or too easy to guess (breach lists, zxcvbn score below 3). */
  WEAK_PASSWORD: 400,
  /** A phone number change needs a code by SMS, and no SMS provider is configured. */
  SMS_UNAVAILABLE: 409,
  /** The code sent to the new phone number is wrong, expired, used or void (after 5 wrong tries). */
  INVALID_PHONE_CODE: 400,
  /**
   * A hospital account that registered itself and is not (or no longer) verified, or whose
   * hospital is disabled: it may sign in and see its registration, and do nothing else.
   */
  HOSPITAL_NOT_VERIFIED: 403,
  /** The e-mail confirmation code is wrong, expired, used or void (after 5 wrong tries). */
  INVALID_EMAIL_CODE: 400,
  /**
   * A donor accepts a blood request while they may not give blood at that moment (the donation
   * interval, a deferral from their answers, a review on hold, age: the matcher's own checks).
   * `details`: `{reason: 'donation_interval' | 'deferred', nextEligibleAt: ISO string | null}`.
   */
  DONOR_NOT_ELIGIBLE: 409,
  /** Phone alerts (SMS, WhatsApp) need the account's mobile number verified by a code first. */
  PHONE_NOT_VERIFIED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusForErrorCode(code: string): number {
  return (ERROR_CODES as Record<string, number>)[code] ?? 500;
}

export const errorDetailSchema = z.object({ path: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export const apiErrorBodySchema = z.object({
  success: z.literal(false),
  error: z.object({
    message: z.string(),
    code: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export type ApiSuccess<T> = { success: true; data: T };
export type ApiResponse<T> = ApiSuccess<T> | ApiErrorBody;

/** Wraps a payload schema in the success envelope, for route reply schemas. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

export const paginationQuerySchema = z.object({
  /** 1-based page number. */
  page: z.coerce.number().int().min(1).default(1),
  /** Items per page, at most 100. */
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** Headers every web-app call sends (product spec section 7). */
export const CLIENT_HEADERS = {
  name: 'X-Client-Name',
  version: 'X-Client-Version',
  requestId: 'X-Request-ID',
} as const;
