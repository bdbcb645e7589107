import { z } from 'zod';
import { multilineText, plainText } from './text';
import { isoDateSchema, userSchema } from './auth';
import { paginated } from './api';
import {
  activityItemSchema,
  availabilitySchema,
  donationSchema,
  documentSchema,
  notificationSchema,
  questionnaireSchema,
} from './donors';

/**
 * Bodies, parameters and reply `data` of the donor's journey that donors.ts does not define
 * (API.md "Users", "Documents", "Notifications"; privacy rights). Server and web both use them.
 */

/** `{id}` path parameter of the documents, donations and notifications routes. */
export const idParamsSchema = z.object({ id: z.guid({ message: 'Not a valid id.' }) });

/** `GET|PUT /users/{id}/questionnaire`. */
export const questionnaireResultSchema = z.object({
  questionnaire: questionnaireSchema.nullable(),
});
export type QuestionnaireResult = z.infer<typeof questionnaireResultSchema>;

/** `POST /documents`, `PUT /documents/{id}/verify`. */
export const documentResultSchema = z.object({ document: documentSchema });
export type DocumentResult = z.infer<typeof documentResultSchema>;

/** `GET /documents/list?userId=`: the caller's own documents when userId is left out. */
export const documentListQuerySchema = z.object({
  userId: z.guid({ message: 'Not a valid user id.' }).optional(),
});
export const documentListResultSchema = z.object({ documents: z.array(documentSchema) });
export type DocumentListResult = z.infer<typeof documentListResultSchema>;

/** `PUT /documents/{id}/verify` (admin): a reason is required to reject. */
export const verifyDocumentSchema = z
  .object({
    verified: z.boolean(),
    rejectionReason: multilineText(z.string().trim().max(500)).nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.verified && (!body.rejectionReason || body.rejectionReason.length < 3)) {
      ctx.addIssue({
        code: 'custom',
        path: ['rejectionReason'],
        message: 'Say why the document is rejected, so the donor can fix it.',
      });
    }
  });
export type VerifyDocument = z.infer<typeof verifyDocumentSchema>;

/** `POST /users/{id}/donations`. */
export const donationResultSchema = z.object({ donation: donationSchema });
export type DonationResult = z.infer<typeof donationResultSchema>;
export const donationPageSchema = paginated(donationSchema);
export type DonationPage = z.infer<typeof donationPageSchema>;

/** A date (YYYY-MM-DD, read as midnight UTC) or an ISO date-time with a zone. */
export const dateOrDateTimeSchema = z.union([isoDateSchema, z.iso.datetime({ offset: true })]);

/** `POST /donations` (hospital or admin): a verified donation, with a certificate. */
export const recordDonationSchema = z.object({
  donorId: z.guid({ message: 'Not a valid user id.' }),
  donatedAt: dateOrDateTimeSchema,
  /** Whole-blood units; 2 for a double red-cell apheresis. */
  units: z.number().int().min(1).max(2).default(1),
  requestId: z.guid().nullable().optional(),
  facilityId: z.string().trim().min(1).max(100).nullable().optional(),
  /** Where it happened; a hospital account's own name when left out. */
  place: plainText(z.string().trim().min(2).max(200)).optional(),
});
export type RecordDonation = z.infer<typeof recordDonationSchema>;

/** `GET /certificates/{number}` parameter. */
export const certificateNumberParamsSchema = z.object({
  number: z.string().trim().min(1).max(64),
});

export const notificationPageSchema = paginated(notificationSchema).extend({
  /** Unread notifications of the caller, all pages. */
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationReadResultSchema = z.object({ notification: notificationSchema });
export const notificationsReadAllResultSchema = z.object({
  /** How many were unread and are now read. */
  updated: z.number().int(),
});

/** `DELETE /notifications/push-subscription`: the endpoint is enough. */
export const deletePushSubscriptionSchema = z.object({
  subscription: z.object({ endpoint: z.url().max(2048) }).loose(),
});
export const pushSubscriptionResultSchema = z.object({ subscribed: z.boolean() });

/** `DELETE /users/{id}`: the user themself confirms with the password; administrators need not. */
export const deleteAccountSchema = z.object({
  password: z.string().min(1).max(128).optional(),
});
export type DeleteAccount = z.infer<typeof deleteAccountSchema>;
export const accountDeletedResultSchema = z.object({ deleted: z.literal(true) });

export const activityPageSchema = paginated(activityItemSchema);
export type ActivityPage = z.infer<typeof activityPageSchema>;

/** `GET /users/{id}/export`: everything the service holds about the user (DPDP Act, access). */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  profile: userSchema,
  account: z.object({
    language: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    lastLoginAt: z.string().nullable(),
    availabilityConfirmedAt: z.string().nullable(),
  }),
  consents: z.array(
    z.object({
      version: z.string(),
      purposes: z.array(z.string()),
      agreedAt: z.string(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
    }),
  ),
  /** Metadata only; each file is at `GET /documents/{id}/file`. */
  documents: z.array(documentSchema),
  questionnaire: questionnaireSchema.nullable(),
  donations: z.array(donationSchema),
  availability: availabilitySchema,
  notifications: z.array(notificationSchema),
  pushSubscriptions: z.array(
    z.object({
      /** The push service's host; the full endpoint is a bearer secret of the browser. */
      service: z.string(),
      userAgent: z.string().nullable(),
      createdAt: z.string(),
      lastSuccessAt: z.string().nullable(),
    }),
  ),
  activity: z.array(activityItemSchema),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
