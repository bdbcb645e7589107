import {
  HOSPITAL_INVITATION_TTL_HOURS,
  createHospitalSchema,
  hospitalPageSchema,
  hospitalResultSchema,
  idParamsSchema,
  listHospitalsQuerySchema,
  rejectHospitalSchema,
  successEnvelope,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireRole } from '../../plugins/auth';
import type { HospitalsService } from './hospitals.service';

const BEARER = [{ bearerAuth: [] }];

export interface HospitalsRoutesOptions {
  hospitals: HospitalsService;
}

/** Hospital accounts, managed by administrators (API.md "Admin"). */
export const hospitalsRoutes: FastifyPluginAsyncZod<HospitalsRoutesOptions> = async (
  app,
  { hospitals },
) => {
  // Token and role are checked before anything else: anonymous 401, donors and hospitals 403.
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireRole('admin'));

  app.post(
    '/api/v1/admin/hospitals',
    {
      schema: {
        tags: ['hospitals'],
        summary: 'Create a hospital account (admin)',
        description:
          '`{name, email, phone, city, state, facilityId?, language?}` (`language` any supported interface language, ' +
          'extension: e-mails are written in en, es, hi, bn, mr, te and ta, others get English). `phone` is an Indian mobile or a landline ' +
          'with its STD code (`040-2345 6789`), stored E.164 (`+914023456789`). Creates the ' +
          'hospital and its sign-in account (role `hospital`, status `approved`) with a password nobody knows, and ' +
          `e-mails a set-password link \`PUBLIC_URL/reset-password?token=…\` valid ${HOSPITAL_INVITATION_TTL_HOURS} hours ` +
          'and single use; the hospital sets its password with `POST /api/v1/auth/reset-password {token, password}` ' +
          'and signs in with `role: "hospital"`. The invitation is an account e-mail: it is sent even while ' +
          '`emailNotifications` is off. A taken e-mail or phone is 409 `EMAIL_TAKEN` / `PHONE_TAKEN`. Idempotent by ' +
          '`X-Request-ID` like registration. Recorded in the activity log (`hospital.created`).',
        security: BEARER,
        body: createHospitalSchema,
        response: {
          201: successEnvelope(hospitalResultSchema),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const { hospital, replayed } = await hospitals.create(
        currentUser(request),
        request.body,
        requestMeta(request),
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send({ success: true as const, data: { hospital } });
    },
  );

  app.get(
    '/api/v1/admin/hospitals',
    {
      schema: {
        tags: ['hospitals'],
        summary: 'Hospital accounts (admin)',
        description:
          'Newest first, paginated (`page` from 1, `pageSize` 1 to 100, default 20). Extension (issue #17): ' +
          '`status=pending|verified|rejected` and `registeredVia=invitation|self` filter; each item carries ' +
          '`verificationStatus`, `registeredVia`, what a self-registered hospital submitted (`licenceNumber`, ' +
          '`contactName`), whether its e-mail and phone are confirmed, `directoryEntry` (the chosen blood bank ' +
          'directory entry as the directory has it: name, address, state, phone, licence) and `claimedBy` (other ' +
          'verified accounts linked to the same entry). Works whatever the `hospitalRegistration` flag says.',
        security: BEARER,
        querystring: listHospitalsQuerySchema,
        response: { 200: successEnvelope(hospitalPageSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await hospitals.list(request.query.page, request.query.pageSize, {
        status: request.query.status,
        registeredVia: request.query.registeredVia,
      }),
    }),
  );

  app.post(
    '/api/v1/admin/hospitals/:id/verify',
    {
      schema: {
        tags: ['hospitals'],
        summary: 'Verify a self-registered hospital (admin)',
        description:
          'After checking it against its directory entry and its licence: `pending` or `rejected` → `verified`; its ' +
          'account may then act. Needs the e-mail address confirmed (else 409 `CONFLICT`); any other status is 409 ' +
          '`INVALID_TRANSITION`. The contact is mailed (an account e-mail, sent whatever the flags say). Logged as ' +
          '`hospital.verified`. Works whatever the `hospitalRegistration` flag says. Open requests naming its ' +
          'directory entry then point at it, unless an older verified, enabled hospital speaks for that entry, and ' +
          'its account is told of those awaiting verification; until then a pending (or rejected) registration ' +
          'receives no request notices at all.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(hospitalResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        hospital: await hospitals.decide(
          currentUser(request),
          request.params.id,
          { status: 'verified' },
          requestMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/v1/admin/hospitals/:id/reject',
    {
      schema: {
        tags: ['hospitals'],
        summary: 'Reject a self-registered hospital (admin)',
        description:
          '`{reason}` (3 to 1000 characters, shown and mailed to the contact): `pending` → `rejected`; the account ' +
          'keeps signing in to read the reason and can do nothing else. Any other status is 409 ' +
          '`INVALID_TRANSITION` (disable a verified hospital instead). Logged as `hospital.rejected`. Open requests ' +
          'naming its directory entry point at the verified, enabled hospital of that entry (or none); a rejected ' +
          'account receives no request notices.',
        security: BEARER,
        params: idParamsSchema,
        body: rejectHospitalSchema,
        response: {
          200: successEnvelope(hospitalResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        hospital: await hospitals.decide(
          currentUser(request),
          request.params.id,
          { status: 'rejected', reason: request.body.reason },
          requestMeta(request),
        ),
      },
    }),
  );

  app.get(
    '/api/v1/admin/hospitals/:id',
    {
      schema: {
        tags: ['hospitals'],
        summary: 'One hospital account (admin, extension)',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(hospitalResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { hospital: await hospitals.get(request.params.id) },
    }),
  );

  app.post(
    '/api/v1/admin/hospitals/:id/disable',
    {
      schema: {
        tags: ['hospitals'],
        summary: 'Disable a hospital account (admin)',
        description:
          'Its accounts are signed out everywhere (refresh tokens revoked, access tokens refused) and cannot sign in: ' +
          'the right password (or one-time code) then gets 403 `ACCOUNT_DISABLED`, while a wrong one still gets 401 ' +
          '`INVALID_CREDENTIALS`, so the state is only revealed to whoever holds the password. No codes or reset links ' +
          'are mailed to it. Disabling a disabled hospital changes nothing (200). Logged as `hospital.disabled`. Its ' +
          'open requests move to another verified, enabled hospital of the same directory entry (or none), and it ' +
          'receives no request notices while disabled; enabling it points them back when it is the oldest.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(hospitalResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        hospital: await hospitals.disable(
          currentUser(request),
          request.params.id,
          requestMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/v1/admin/hospitals/:id/enable',
    {
      schema: {
        tags: ['hospitals'],
        summary: 'Enable a disabled hospital account again (admin)',
        description:
          'Sign-in works again with the existing password. Enabling an enabled hospital changes nothing (200). Logged ' +
          'as `hospital.enabled`.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(hospitalResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        hospital: await hospitals.enable(
          currentUser(request),
          request.params.id,
          requestMeta(request),
        ),
      },
    }),
  );
};
