import {
  adminDonorPageSchema,
  donorDetailsSchema,
  donorStatsAdminSchema,
  emailStatusSchema,
  exportDonorsSchema,
  listDonorsQuerySchema,
  notificationSettingsSchema,
  pendingDonorsQuerySchema,
  pendingDonorsResultSchema,
  questionnaireResultSchema,
  reasonSchema,
  recentActivityQuerySchema,
  recentActivityResultSchema,
  requestsSummarySchema,
  reviewQuestionnaireSchema,
  successEnvelope,
  testEmailResultSchema,
  testEmailSchema,
  updateNotificationSettingsSchema,
  userIdParamsSchema,
  userResultSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { NotificationSettingsService } from '../../lib/notification-settings';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireRole } from '../../plugins/auth';
import type { AdminMailService } from './admin-mail.service';
import type { AdminService, DonorAction } from './admin.service';
import type { DonorExportService } from './donor-export.service';

const BEARER = [{ bearerAuth: [] }];

/** Per client address; each test message really goes out. */
export const TEST_EMAIL_RATE_LIMIT = { max: 5, timeWindow: '1 minute' } as const;

export interface AdminRoutesOptions {
  admin: AdminService;
  donorExport: DonorExportService;
  adminMail: AdminMailService;
  notificationSettings: NotificationSettingsService;
}

const LIFECYCLE: Record<
  DonorAction,
  { summary: string; description: string; needsReason: boolean }
> = {
  approve: {
    summary: 'Approve a pending donor (admin)',
    description:
      '`pending` → `approved`. The donor must have completed onboarding (questionnaire and, while `documentUpload` ' +
      'is on, an ID proof that is not rejected), else 409 `ONBOARDING_INCOMPLETE` (with `details` saying what is ' +
      'missing). Clears any earlier rejection or suspension reason.',
    needsReason: false,
  },
  reject: {
    summary: 'Reject a pending donor (admin)',
    description:
      '`pending` → `rejected` with `{reason}` (3 to 1000 characters; missing or short is 400), stored as the ' +
      "user's `rejectionReason` and shown to the donor. The donor returns to `pending` by changing their documents " +
      'or questionnaire.',
    needsReason: true,
  },
  suspend: {
    summary: 'Suspend an approved donor (admin)',
    description:
      '`approved` → `suspended` with `{reason}` (stored as `suspensionReason`, shown to the donor). The donor is ' +
      'signed out everywhere: every refresh token is revoked and access tokens already issued stop working. A ' +
      'suspended donor can sign in again to read the suspension, but cannot act for others. Their open matches ' +
      'are voided at once (issue #32): alerts not answered yet become `declined` (a later YES by SMS or WhatsApp ' +
      'accepts nothing), and acceptances without a recorded donation on open requests become `withdrawn` (out of ' +
      'the accepted count and the hospital’s list; the requester and the hospital are told, as for a withdrawal). ' +
      'Reactivation does not restore them.',
    needsReason: true,
  },
  reactivate: {
    summary: 'Reactivate a suspended donor (admin)',
    description: '`suspended` → `approved`; the suspension reason is cleared.',
    needsReason: false,
  },
};

const LIFECYCLE_COMMON =
  ' Any other move is 409 `INVALID_TRANSITION` (`details.status` is the current status). Not a live donor: 404. ' +
  'In one transaction: the change, an activity log entry (`donor.<approved|rejected|suspended|reactivated>` with ' +
  'the administrator, the donor and the reason) and the donor’s notification (in-app, web push, and e-mail while ' +
  '`emailNotifications` and the `emailEnabled` setting are on).';

/**
 * The administrators' console (API.md "Admin"). Every route here is for role admin: a hook
 * checks the token and the role before anything else (anonymous 401, donors and hospitals 403),
 * so nothing about the body or the ids leaks to other callers.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (
  app,
  { admin, donorExport, adminMail, notificationSettings },
) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireRole('admin'));

  app.get(
    '/api/v1/admin/donors',
    {
      schema: {
        tags: ['admin'],
        summary: 'Donors, filtered and paginated (admin)',
        description:
          'Live donors (erased accounts are left out), newest registration first, as user objects with e-mail and ' +
          'phone. `status`, `bloodType`, and `q`: a case-insensitive substring of the name, e-mail, phone, city or PIN ' +
          'code (`%` and `_` match themselves). `page` (from 1) and `pageSize` (1 to 100, default 20).',
        security: BEARER,
        querystring: listDonorsQuerySchema,
        response: { 200: successEnvelope(adminDonorPageSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await admin.listDonors(request.query) }),
  );

  app.get(
    '/api/v1/admin/donors/pending',
    {
      schema: {
        tags: ['admin'],
        summary: 'Donors waiting for verification (admin)',
        description:
          'Pending donors: those who completed onboarding first, then the longest waiting first. `{donors}` as API.md ' +
          'says, plus (extension) `total`, `page` and `pageSize`: `page` from 1, `pageSize` 1 to 100 (default 20).',
        security: BEARER,
        querystring: pendingDonorsQuerySchema,
        response: {
          200: successEnvelope(pendingDonorsResultSchema),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.listPending(request.query.page, request.query.pageSize),
    }),
  );

  app.get(
    '/api/v1/admin/donors/stats',
    {
      schema: {
        tags: ['admin'],
        summary: 'Donor counts (admin)',
        description:
          'Over live donors: `total`, `byStatus`, `byBloodType` (all eight types, zeros included), `newLast7d` ' +
          '(registered in the last 7 × 24 hours) and `availableNow`: approved donors whose availability is on and ' +
          'has not lapsed (confirmed within 90 days, end date not passed).',
        security: BEARER,
        response: { 200: successEnvelope(donorStatsAdminSchema), ...errorResponses(401, 403) },
      },
    },
    async () => ({ success: true as const, data: await admin.donorStats() }),
  );

  app.get(
    '/api/v1/admin/donors/:id/details',
    {
      schema: {
        tags: ['admin'],
        summary: 'Everything about one donor (admin; the access is logged)',
        description:
          'The user object (with e-mail and phone), documents, the questionnaire with its verdict computed now ' +
          '(deferrals end on their own), the 50 newest donations and the 50 newest activity entries. Administrators ' +
          'see personal data here, so every call is recorded in the activity log as `donor.viewed` (who looked at whom, ' +
          'when); the donor sees it in their own activity list. Not a live donor: 404.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(donorDetailsSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.donorDetails(currentUser(request), request.params.id, requestMeta(request)),
    }),
  );

  for (const action of Object.keys(LIFECYCLE) as DonorAction[]) {
    const route = LIFECYCLE[action];
    app.post(
      `/api/v1/admin/donors/:id/${action}`,
      {
        schema: {
          tags: ['admin'],
          summary: route.summary,
          description: route.description + LIFECYCLE_COMMON,
          security: BEARER,
          params: userIdParamsSchema,
          ...(route.needsReason ? { body: reasonSchema } : {}),
          response: {
            200: successEnvelope(userResultSchema),
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) => {
        const body = request.body as { reason?: string } | undefined;
        const user = await admin.changeStatus(
          currentUser(request),
          request.params.id,
          action,
          route.needsReason ? (body?.reason ?? null) : null,
          requestMeta(request),
        );
        return { success: true as const, data: { user } };
      },
    );
  }

  app.put(
    '/api/v1/admin/donors/:id/questionnaire/review',
    {
      schema: {
        tags: ['admin'],
        summary: "Review a donor's health questionnaire (admin)",
        description:
          '`{decision: "accepted"|"rejected", notes?}` (notes up to 1000 characters). Stored with the reviewer and the ' +
          'time (`review: {decision, notes, reviewedAt, reviewedBy}`) and recorded in the activity log as ' +
          '`questionnaire.reviewed` (the decision only: notes may describe health). The donor changing the answers ' +
          'clears the review (saving the same answers again does not). A review also clears `reviewRequired`: with ' +
          '`accepted` the donor is matched again, with `rejected` not. No questionnaire submitted, or not a live donor: 404.',
        security: BEARER,
        params: userIdParamsSchema,
        body: reviewQuestionnaireSchema,
        response: {
          200: successEnvelope(questionnaireResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        questionnaire: await admin.reviewQuestionnaire(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/v1/admin/export/donors',
    {
      schema: {
        tags: ['admin'],
        summary: 'Export donors as CSV (admin; streamed, logged)',
        description:
          '`{status?, bloodType?, from?, to?, q?}`: `from`/`to` (YYYY-MM-DD, inclusive, UTC) bound the registration ' +
          'date (`from` after `to` is 400); `q` is the donor list’s text search. The reply is `text/csv; charset=utf-8` ' +
          'with `Content-Disposition: attachment; filename="donors-export-YYYY-MM-DD.csv"` (the UTC date), starting ' +
          'with a UTF-8 byte order mark (so Excel reads names in any script) and a header row. Columns: ID, Full name, ' +
          'E-mail, Phone, Blood type, Gender, Date of birth, City, State, PIN code, Status, Available (yes/no, ' +
          'lapsed availability is no), Onboarding completed (yes/no), Total donations, Last donation, Registered at ' +
          '(ISO 8601 UTC), oldest registration first. **CSV injection**: a cell that starts with `=`, `+`, `-`, `@`, a tab ' +
          "or a carriage return is prefixed with a single quote (so E.164 phone numbers read `'+91…`). **Streamed**: " +
          'donors are read 1,000 at a time by (registration time, id) as the download proceeds, so any number of donors ' +
          'fits in constant memory; donors who register while it runs are not included. If reading fails part-way, the ' +
          'connection is cut (the file is visibly incomplete, never a clean but partial 200) and the failure is logged. ' +
          'Every export is recorded in the activity log (`donors.exported` with the filters and the row count, or ' +
          '`donors.export_failed`).',
        security: BEARER,
        body: exportDonorsSchema,
        response: {
          200: z.unknown().describe('The CSV file (text/csv; charset=utf-8)'),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await donorExport.start(
        currentUser(request),
        request.body,
        requestMeta(request),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
  );

  app.get(
    '/api/v1/admin/activity/recent',
    {
      schema: {
        tags: ['admin'],
        summary: 'The newest activity log entries (admin)',
        description:
          '`limit` 1 to 100 (default 20), newest first. `actor` is `{id, name, role}` (null for the system); `target` ' +
          'is `{type, id, label}` where the label is a user’s name or a hospital’s name (never an e-mail address or ' +
          'phone number) or the target’s id; `details` as recorded.',
        security: BEARER,
        querystring: recentActivityQuerySchema,
        response: {
          200: successEnvelope(recentActivityResultSchema),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { items: await admin.recentActivity(request.query.limit) },
    }),
  );

  app.get(
    '/api/v1/admin/requests/summary',
    {
      schema: {
        tags: ['admin'],
        summary: 'Blood request counts (admin)',
        description:
          'Counted from the blood requests table: `total`; `byStatus` and `byUrgency` list the values that occur ' +
          '(empty without requests); `openCritical`: critical requests still pending, verified or in progress; ' +
          '`fulfilledLast30d`: fulfilled in the last 30 days; `medianHoursToFulfil`: the median hours from creation ' +
          'to fulfilment of those (null without any).',
        security: BEARER,
        response: { 200: successEnvelope(requestsSummarySchema), ...errorResponses(401, 403) },
      },
    },
    async () => ({ success: true as const, data: await admin.requestsSummary() }),
  );

  app.get(
    '/api/v1/admin/email/status',
    {
      schema: {
        tags: ['admin'],
        summary: 'Outgoing e-mail health (admin)',
        description:
          '`transport` `smtp` when SMTP_URL is set, else `outbox` (messages are only kept in the mail_outbox table); ' +
          '`configured` the same as a boolean; `from` MAIL_FROM; `sent24h` and `failed24h` (gave up) over the last 24 ' +
          'hours; `queued` waiting for a (re)try; `lastError` the newest error of a message not yet sent, or null.',
        security: BEARER,
        response: { 200: successEnvelope(emailStatusSchema), ...errorResponses(401, 403) },
      },
    },
    async () => ({ success: true as const, data: await adminMail.status() }),
  );

  app.post(
    '/api/v1/admin/email/test',
    {
      config: { rateLimit: TEST_EMAIL_RATE_LIMIT },
      schema: {
        tags: ['admin'],
        summary: 'Send a test e-mail (admin)',
        description:
          '`{email}`: sends a short message (in the administrator’s language) through the mail outbox at once and ' +
          'answers with the SMTP server’s `messageId` and `status: "sent"`. If the server refuses it or cannot be ' +
          'reached: 503 `SERVICE_UNAVAILABLE` with its reason (a test is not retried). Without SMTP_URL: ' +
          '`status: "logged"` and the outbox row’s id. Logged in the activity log (recipient domain only). ' +
          `Rate limit: ${TEST_EMAIL_RATE_LIMIT.max} per minute per address.`,
        security: BEARER,
        body: testEmailSchema,
        response: {
          200: successEnvelope(testEmailResultSchema),
          ...errorResponses(400, 401, 403, 429, 503),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await adminMail.sendTest(
        currentUser(request),
        request.body.email,
        requestMeta(request),
      ),
    }),
  );

  app.get(
    '/api/v1/admin/notifications/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Notification settings (admin)',
        description:
          'The stored settings over the defaults (`emailEnabled` true, `pushEnabled` true, `smsEnabled` false, ' +
          '`matchRadiusKm` 25, `maxDonorsPerRequest` 20, `notifyAdminsOnCritical` true, `maxAlertsPerDonorPer7d` 2). ' +
          '`emailEnabled` and `pushEnabled` switch those channels for every notification (in-app ones are always ' +
          'written; notification e-mails also need the `emailNotifications` flag; account e-mails — codes, reset ' +
          'links, invitations — are always sent). `smsEnabled` has no provider yet. Matching reads the radius and the ' +
          'limits.',
        security: BEARER,
        response: { 200: successEnvelope(notificationSettingsSchema), ...errorResponses(401, 403) },
      },
    },
    async () => ({ success: true as const, data: await notificationSettings.get() }),
  );

  app.put(
    '/api/v1/admin/notifications/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change notification settings (admin)',
        description:
          'Any subset of the settings (a full object works too); unknown fields are 400. `matchRadiusKm` and ' +
          '`maxDonorsPerRequest` are whole numbers from 1 to 200, `maxAlertsPerDonorPer7d` from 1 to 20. The daily ' +
          'budgets are whole numbers from 0 to 1,000,000: `smsDailyBudget` and `whatsappDailyBudget` (alerts), ' +
          '`phoneCodeDailyBudget` (one-time codes to phones, every number together; default 1000) and ' +
          '`replyAnswerDailyBudget` (answers to SMS/WhatsApp replies, every sender together; default 1000); ' +
          'administrators are told in the app at 80 % (GET /admin/notifications/channels shows them). Stored for ' +
          'every server process at once and recorded in the activity log as `settings.notifications.updated` with ' +
          'the previous values. Replies with the effective settings.',
        security: BEARER,
        body: updateNotificationSettingsSchema,
        response: {
          200: successEnvelope(notificationSettingsSchema),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      return {
        success: true as const,
        data: await notificationSettings.update(request.body, {
          actorId: caller.id,
          actorRole: caller.role,
          requestId: requestMeta(request).requestId,
        }),
      };
    },
  );
};
