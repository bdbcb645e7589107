import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, paginated } from './api';
import { userSchema } from './auth';
import { FEATURE_FLAG_NAMES, featureFlagsSchema, type FeatureFlag } from './feature-flags';
import {
  hospitalAccountSchema,
  notificationSettingsSchema,
  recentActivityItemSchema,
} from './admin';

/**
 * Queries and reply `data` of the administrators' console that admin.ts does not define
 * (API.md "Admin", "Feature flags"). Server and web both use them.
 */

/** `GET /admin/donors`: a page of donors as user objects (administrators see e-mail and phone). */
export const adminDonorPageSchema = paginated(userSchema);
export type AdminDonorPage = z.infer<typeof adminDonorPageSchema>;

/** `GET /admin/donors/pending?page=&pageSize=`: onboarding completed first, then oldest first. */
export const pendingDonorsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export const pendingDonorsResultSchema = z.object({
  donors: z.array(userSchema),
  /** Extension: all pending donors, every page. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PendingDonorsResult = z.infer<typeof pendingDonorsResultSchema>;

/** `GET /admin/activity/recent?limit=` (1 to 100, default 20). */
export const recentActivityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const recentActivityResultSchema = z.object({ items: z.array(recentActivityItemSchema) });
export type RecentActivityResult = z.infer<typeof recentActivityResultSchema>;

export const MAIL_TEST_STATUSES = ['sent', 'logged'] as const;
/** `POST /admin/email/test`. */
export const testEmailResultSchema = z.object({
  /** The SMTP Message-ID; without SMTP_URL, the id of the row kept in the mail outbox. */
  messageId: z.string(),
  /** Extension: `sent` (the SMTP server accepted it) or `logged` (no SMTP_URL: kept in the outbox). */
  status: z.enum(MAIL_TEST_STATUSES),
});
export type TestEmailResult = z.infer<typeof testEmailResultSchema>;

/** `PUT /admin/notifications/settings`: any subset of the settings; unknown fields are refused. */
export const updateNotificationSettingsSchema = notificationSettingsSchema.partial().strict();
export type UpdateNotificationSettings = z.infer<typeof updateNotificationSettingsSchema>;

/** `GET|POST /admin/hospitals`, `POST /admin/hospitals/{id}/disable|enable`. */
export const hospitalResultSchema = z.object({ hospital: hospitalAccountSchema });
export type HospitalResult = z.infer<typeof hospitalResultSchema>;
export const hospitalPageSchema = paginated(hospitalAccountSchema);
export type HospitalPage = z.infer<typeof hospitalPageSchema>;

/**
 * Where a flag's value comes from: the product spec's `default`, `env` (FEATURE_FLAGS, applied
 * again at every start) or `admin` (changed at run time).
 */
export const FLAG_VALUE_SOURCES = ['default', 'env', 'admin'] as const;
export type FlagValueSource = (typeof FLAG_VALUE_SOURCES)[number];
export const flagSourcesSchema = z.object(
  Object.fromEntries(
    FEATURE_FLAG_NAMES.map((name) => [name, z.enum(FLAG_VALUE_SOURCES)]),
  ) as Record<FeatureFlag, z.ZodEnum<{ default: 'default'; env: 'env'; admin: 'admin' }>>,
);
/** `GET|PUT /admin/flags`: the effective flags and, as an extension, where each one comes from. */
export const adminFlagsSchema = z.object({ flags: featureFlagsSchema, sources: flagSourcesSchema });
export type AdminFlags = z.infer<typeof adminFlagsSchema>;

/** A hospital account's set-password invitation link is valid this long (single use). */
export const HOSPITAL_INVITATION_TTL_HOURS = 72;
