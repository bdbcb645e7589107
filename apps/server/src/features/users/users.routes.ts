import {
  accountDeletedResultSchema,
  accountExportSchema,
  activityPageSchema,
  changePasswordResultSchema,
  changePasswordSchema,
  confirmPhoneChangeSchema,
  deleteAccountSchema,
  paginationQuerySchema,
  phoneCodeSentSchema,
  successEnvelope,
  updateProfileSchema,
  updateUserResultSchema,
  userIdParamsSchema,
  userResultSchema,
} from '@bdms/shared';
import { DAILY_LIMITS } from '../../lib/auth-limits';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentDisposition } from '../../lib/content-disposition';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser } from '../../plugins/auth';
import type { PrivacyService } from './privacy.service';
import type { UsersService } from './users.service';

const BEARER = [{ bearerAuth: [] }];

export interface UsersRoutesOptions {
  users: UsersService;
  privacy: PrivacyService;
}

export const usersRoutes: FastifyPluginAsyncZod<UsersRoutesOptions> = async (
  app,
  { users, privacy },
) => {
  app.get(
    '/api/v1/users/:id',
    {
      preHandler: app.authenticate,
      config: { allowUnverifiedHospital: true },
      schema: {
        tags: ['users'],
        summary: 'A user',
        description:
          'The user themself or an administrator; anyone else is 403 `FORBIDDEN` (whether or not the id exists). ' +
          'An id that is not a UUID is 400 `VALIDATION_ERROR`; an erased or unknown user is 404 for administrators.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(userResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { user: await users.getUser(currentUser(request), request.params.id) },
    }),
  );

  app.patch(
    '/api/v1/users/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Change profile fields',
        description:
          'The user themself or an administrator. Any of `fullName, phone, city, state, pincode, bloodType, available, ' +
          'language`; unknown fields are 400. `available` counts as a (re)confirmation, as with ' +
          '`PUT /users/{id}/availability`: it lapses 90 days later. The blood type is checked when a donor is approved, ' +
          'so a donor can change it only while `pending`: after that it is 409 `BLOOD_TYPE_LOCKED` (an administrator ' +
          'can still correct it). Changes are recorded in the activity log (field names only).\n\n' +
          '**A new `phone` is not applied at once**: a 6-digit code valid 10 minutes is sent by SMS (by WhatsApp when SMS is not configured) to the new number, ' +
          'the reply carries `phoneChange: {phone, expiresAt}` (and `user.phone` is still the old number), and ' +
          '`POST /users/{id}/phone/confirm {code}` applies it. A new request voids the earlier code. The reply is the ' +
          'same whether or not the number belongs to another account (the code is only sent to a free number), so this ' +
          `is no "is this number registered?" oracle; at most ${DAILY_LIMITS.phoneChanges} phone changes per account ` +
          'per day (India time), then 429 with Retry-After. With neither SMS nor WhatsApp configured, a phone change is 409 ' +
          '`SMS_UNAVAILABLE` and nothing in the body is applied.',
        security: BEARER,
        params: userIdParamsSchema,
        body: updateProfileSchema,
        response: {
          200: successEnvelope(updateUserResultSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await users.updateUser(
        currentUser(request),
        request.params.id,
        request.body,
        requestMeta(request),
      ),
    }),
  );

  app.post(
    '/api/v1/users/:id/phone/verification',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "Send a code to verify the account's phone number",
        description:
          "The user themself. Sends a 6-digit code valid 10 minutes by SMS (when SMS is not configured, by WhatsApp as the authentication template `WHATSAPP_CODE_TEMPLATE`) to the account's phone and answers " +
          '`{phone, expiresAt}`; a new code voids the earlier one. Registration already sends one when the ' +
          '`phoneVerification` flag is on; this is the "send it again". Until the phone is verified ' +
          '(`user.phoneVerifiedAt`), it cannot be used to sign in by code (`POST /auth/login-otp {phone}`), receives no ' +
          'SMS or WhatsApp alerts, and does not spare its owner the confirmation of a blood request. At most ' +
          `${DAILY_LIMITS.phoneVerifications} per account and ${DAILY_LIMITS.phoneCodesPerPurpose.account_phone} verification or phone-change codes per ` +
          'phone number per day (India time, counted in the database; codes for other purposes, such as sign-in, do not count), then 429 with Retry-After. 409 `CONFLICT` when the phone is ' +
          'already verified or there is none; 409 `SMS_UNAVAILABLE` with neither SMS nor WhatsApp configured.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(phoneCodeSentSchema),
          ...errorResponses(401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await users.sendPhoneVerification(currentUser(request), request.params.id),
    }),
  );

  app.post(
    '/api/v1/users/:id/phone/verify',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "Verify the account's phone number with the code sent to it",
        description:
          'The user themself. Marks the phone verified (`user.phoneVerifiedAt`) and returns the user. A wrong, ' +
          'expired or used code, none pending, or a code sent to a number the account no longer has, is 400 ' +
          '`INVALID_PHONE_CODE` on `body.code`; after 5 wrong tries the code is void (parallel tries cannot exceed it).',
        security: BEARER,
        params: userIdParamsSchema,
        body: confirmPhoneChangeSchema,
        response: {
          200: successEnvelope(userResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        user: await users.verifyPhone(
          currentUser(request),
          request.params.id,
          request.body.code,
          requestMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/v1/users/:id/phone/confirm',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Confirm a new phone number with the code sent to it',
        description:
          'The user themself or an administrator. Applies the phone change asked for with `PATCH /users/{id}` ' +
          'and returns the user with the new `phone`. A wrong, expired or used code, or none pending, is 400 ' +
          '`INVALID_PHONE_CODE` on `body.code`; after 5 wrong tries the code is void. A number that another account ' +
          'took meanwhile is 409 `PHONE_TAKEN`.',
        security: BEARER,
        params: userIdParamsSchema,
        body: confirmPhoneChangeSchema,
        response: {
          200: successEnvelope(userResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        user: await users.confirmPhoneChange(
          currentUser(request),
          request.params.id,
          request.body.code,
          requestMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/v1/users/:id/password',
    {
      preHandler: app.authenticate,
      // A blood centre waiting for verification may still look after its own password.
      config: { allowUnverifiedHospital: true },
      schema: {
        tags: ['users'],
        summary: 'Change the password (extension)',
        description:
          'The user themself only (administrators too get 403 for other accounts). A wrong `currentPassword` is 400 ' +
          '`VALIDATION_ERROR` with `details: [{path: "body.currentPassword", …}]`, deliberately not a 401, so the ' +
          'client does not try a token refresh; 5 wrong tries in 15 minutes are 429, as for sign-in. A new password ' +
          'too common or easy to guess is 400 `WEAK_PASSWORD` on `body.newPassword`. On success every session of the ' +
          'account is signed out (refresh tokens revoked, access tokens refused), every reset link mailed before is ' +
          'void, and `tokens` holds a new session for the device that made the change: store them.',
        security: BEARER,
        params: userIdParamsSchema,
        body: changePasswordSchema,
        response: {
          200: successEnvelope(changePasswordResultSchema),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        changed: true as const,
        tokens: await users.changePassword(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      },
    }),
  );

  app.get(
    '/api/v1/users/:id/activity',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: "A user's activity",
        description:
          'The user themself or an administrator; newest first, paginated. Entries where the user acted or was acted ' +
          'on, each with a plain-English `message` (the web app translates by `action`); who else acted is not shown.',
        security: BEARER,
        params: userIdParamsSchema,
        querystring: paginationQuerySchema,
        response: {
          200: successEnvelope(activityPageSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await privacy.activity(
        currentUser(request),
        request.params.id,
        request.query.page,
        request.query.pageSize,
      ),
    }),
  );

  app.get(
    '/api/v1/users/:id/export',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Download all of my data (JSON)',
        description:
          'The user themself or an administrator. The usual envelope, sent as an attachment ' +
          '(`Content-Disposition: attachment; filename="my-data-YYYY-MM-DD.json"`, `Cache-Control: no-store`): profile, ' +
          'consent records, documents (metadata; files at `GET /documents/{id}/file`), questionnaire, donations, ' +
          'availability, notifications, push subscriptions (the push service only) and activity. The download is ' +
          'itself recorded in the activity log.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(accountExportSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const data = await privacy.exportData(
        currentUser(request),
        request.params.id,
        requestMeta(request),
      );
      return reply
        .header(
          'content-disposition',
          attachmentDisposition(`my-data-${data.exportedAt.slice(0, 10)}.json`),
        )
        .header('cache-control', 'private, no-store')
        .send({ success: true as const, data });
    },
  );

  app.delete(
    '/api/v1/users/:id',
    {
      // An administrator sends no body at all.
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Erase an account',
        description:
          'The user themself, confirming with `{password}` (missing or wrong: 400 on `body.password`; it counts ' +
          'towards the wrong-password limit), or an administrator for a donor or hospital account (no body). Erasure ' +
          'deletes the uploaded files and their rows, the questionnaire, notifications, push subscriptions, sessions, ' +
          'consent records (SMS and WhatsApp consents too) and queued mail, and blanks the profile (e-mail `deleted-<id>@invalid`, name "Deleted ' +
          'user", no phone, date of birth or address). Donations are kept, linked to the blanked account, so totals ' +
          'stay right. Their open blood requests are cancelled (history "Cancelled: the requester erased their ' +
          'account."; donors who accepted are told not to travel), and every request they made loses its contact ' +
          'phone and e-mail, the patient name, and the contact name when it was theirs. A donor’s open matches are ' +
          'voided (issue #32): unanswered alerts become `declined`, acceptances without a donation on open requests ' +
          'become `withdrawn` (the requester and hospital are told). Their client log entries stay ' +
          'without the user id. The activity log records the erasure without personal data. The account can no longer sign ' +
          'in; its tokens stop working at once. The last administrator cannot erase themself (409).',
        security: BEARER,
        params: userIdParamsSchema,
        body: deleteAccountSchema,
        response: {
          200: successEnvelope(accountDeletedResultSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => {
      await privacy.erase(
        currentUser(request),
        request.params.id,
        request.body,
        requestMeta(request),
      );
      return { success: true as const, data: { deleted: true as const } };
    },
  );
};
