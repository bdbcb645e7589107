import { z } from 'zod';
import { multilineText, plainText } from './text';
import { contactPhoneSchema, emailSchema, isoDateSchema, userSchema } from './auth';
import { BLOOD_TYPES, DONOR_STATUSES, LANGUAGES } from './constants';
import {
  activityItemSchema,
  documentSchema,
  donationSchema,
  QUESTIONNAIRE_REVIEW_DECISIONS,
  questionnaireSchema,
} from './donors';
import {
  HOSPITAL_REGISTERED_VIA,
  HOSPITAL_VERIFICATION_STATUSES,
  directoryEntrySchema,
} from './hospital-registration';

/** Contracts of the administrators' console (API.md "Admin"). */

export const reasonSchema = z.object({
  /** Shown to the donor; required for reject and suspend. */
  reason: multilineText(z.string().trim().min(3, 'Give a reason the donor can act on.').max(1000)),
});
export type Reason = z.infer<typeof reasonSchema>;

export const listDonorsQuerySchema = z.object({
  status: z.enum(DONOR_STATUSES).optional(),
  bloodType: z.enum(BLOOD_TYPES).optional(),
  /** Matches name, e-mail, phone, city or PIN code. */
  q: plainText(z.string().trim().max(100)).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListDonorsQuery = z.infer<typeof listDonorsQuerySchema>;

export const donorStatsAdminSchema = z.object({
  total: z.number().int(),
  byStatus: z.object({
    pending: z.number().int(),
    approved: z.number().int(),
    rejected: z.number().int(),
    suspended: z.number().int(),
  }),
  byBloodType: z.record(z.string(), z.number().int()),
  newLast7d: z.number().int(),
  availableNow: z.number().int(),
});
export type DonorStatsAdmin = z.infer<typeof donorStatsAdminSchema>;

export const donorDetailsSchema = z.object({
  donor: userSchema,
  documents: z.array(documentSchema),
  questionnaire: questionnaireSchema.nullable(),
  donations: z.array(donationSchema),
  activity: z.array(activityItemSchema),
});
export type DonorDetails = z.infer<typeof donorDetailsSchema>;

export const reviewQuestionnaireSchema = z.object({
  decision: z.enum(QUESTIONNAIRE_REVIEW_DECISIONS),
  notes: multilineText(z.string().trim().max(1000)).optional(),
});
export type ReviewQuestionnaire = z.infer<typeof reviewQuestionnaireSchema>;

export const exportDonorsSchema = z.object({
  status: z.enum(DONOR_STATUSES).optional(),
  bloodType: z.enum(BLOOD_TYPES).optional(),
  /** Registered on or after (YYYY-MM-DD). */
  from: isoDateSchema.optional(),
  /** Registered on or before (YYYY-MM-DD). */
  to: isoDateSchema.optional(),
  /** Extension: the same text search as the donor list. */
  q: plainText(z.string().trim().max(100)).optional(),
});
export type ExportDonors = z.infer<typeof exportDonorsSchema>;

export const recentActivityItemSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string(), name: z.string(), role: z.string() }).nullable(),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string(), label: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type RecentActivityItem = z.infer<typeof recentActivityItemSchema>;

export const requestsSummarySchema = z.object({
  total: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
  byUrgency: z.record(z.string(), z.number().int()),
  openCritical: z.number().int(),
  fulfilledLast30d: z.number().int(),
  medianHoursToFulfil: z.number().nullable(),
});
export type RequestsSummary = z.infer<typeof requestsSummarySchema>;

export const TIME_RANGES = ['7d', '30d', '90d', '1y'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
export const analyticsQuerySchema = z.object({ timeRange: z.enum(TIME_RANGES).default('30d') });
export const analyticsDashboardSchema = z.object({
  timeRange: z.enum(TIME_RANGES),
  totals: z.object({
    registrations: z.number().int(),
    requests: z.number().int(),
    donations: z.number().int(),
  }),
  /** One entry per day of the range, oldest first, zero-filled. */
  series: z.array(
    z.object({
      date: z.string(),
      registrations: z.number().int(),
      requests: z.number().int(),
      donations: z.number().int(),
    }),
  ),
  bloodTypeDistribution: z.record(z.string(), z.number().int()),
});
export type AnalyticsDashboard = z.infer<typeof analyticsDashboardSchema>;

export const emailStatusSchema = z.object({
  transport: z.enum(['smtp', 'outbox']),
  configured: z.boolean(),
  from: z.string(),
  sent24h: z.number().int(),
  failed24h: z.number().int(),
  queued: z.number().int(),
  lastError: z.string().nullable(),
});
export type EmailStatus = z.infer<typeof emailStatusSchema>;
export const testEmailSchema = z.object({ email: emailSchema });

export const notificationSettingsSchema = z.object({
  emailEnabled: z.boolean(),
  pushEnabled: z.boolean(),
  smsEnabled: z.boolean(),
  /** Radius of the first matching round, km. */
  matchRadiusKm: z.number().int().min(1).max(200),
  maxDonorsPerRequest: z.number().int().min(1).max(200),
  notifyAdminsOnCritical: z.boolean(),
  /** Extension: fairness cap, request alerts per donor per 7 days. */
  maxAlertsPerDonorPer7d: z.number().int().min(1).max(20).optional(),
  /** Extension: SMS a day (SMS costs money); Critical alerts may exceed it. */
  smsDailyBudget: z.number().int().min(0).max(1_000_000).optional(),
  /** Extension: WhatsApp template messages a day; Critical alerts may exceed it. */
  whatsappDailyBudget: z.number().int().min(0).max(1_000_000).optional(),
  /**
   * Extension (issue #32 item 8): one-time codes sent to phones a day, every number and purpose
   * together; past it codes are refused until midnight India time.
   */
  phoneCodeDailyBudget: z.number().int().min(0).max(1_000_000).optional(),
  /**
   * Extension (issue #32 item 8): answers to SMS/WhatsApp replies a day, every sender together;
   * past it replies are still acted on, but not answered.
   */
  replyAnswerDailyBudget: z.number().int().min(0).max(1_000_000).optional(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export const NOTIFICATION_SETTINGS_DEFAULTS: NotificationSettings = {
  emailEnabled: true,
  pushEnabled: true,
  smsEnabled: false,
  matchRadiusKm: 25,
  maxDonorsPerRequest: 20,
  notifyAdminsOnCritical: true,
  maxAlertsPerDonorPer7d: 2,
  smsDailyBudget: 500,
  whatsappDailyBudget: 1000,
  phoneCodeDailyBudget: 1000,
  replyAnswerDailyBudget: 1000,
};

export const createHospitalSchema = z.object({
  name: plainText(z.string().trim().min(2).max(200)),
  email: emailSchema,
  /** A mobile, or the blood bank's landline with its STD code (040-2345 6789); E.164. */
  phone: contactPhoneSchema,
  city: plainText(z.string().trim().min(2).max(80)),
  state: plainText(z.string().trim().min(2).max(80)),
  /** The facility (blood bank directory entry) this hospital account speaks for. */
  facilityId: z.string().max(64).optional(),
  /**
   * Extension: the language of the invitation e-mail and later e-mails (default en). Any
   * interface language is accepted; e-mails are written in en, es, hi, bn, mr, te and ta, others get English.
   */
  language: z.enum(LANGUAGES).optional(),
});
export type CreateHospital = z.infer<typeof createHospitalSchema>;
export const hospitalAccountSchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  facilityId: z.string().nullable(),
  disabled: z.boolean(),
  createdAt: z.string(),
  /** Only a `verified`, enabled hospital may act; invited ones start verified. */
  verificationStatus: z.enum(HOSPITAL_VERIFICATION_STATUSES),
  registeredVia: z.enum(HOSPITAL_REGISTERED_VIA),
  /** As submitted at self-registration (Form 28-C); null for invited hospitals. */
  licenceNumber: z.string().nullable(),
  contactName: z.string().nullable(),
  emailConfirmed: z.boolean(),
  /** False also when no SMS provider could send the code: the administrator sees it. */
  phoneConfirmed: z.boolean(),
  verifiedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  /** The directory entry `facilityId` names, as the directory has it; null when unknown. */
  directoryEntry: directoryEntrySchema.nullable(),
  /** Other verified hospital accounts linked to the same directory entry ("already claimed"). */
  claimedBy: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type HospitalAccount = z.infer<typeof hospitalAccountSchema>;
