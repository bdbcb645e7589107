import {
  donationPageSchema,
  donationResultSchema,
  donorStatsSchema,
  paginationQuerySchema,
  recordDonationSchema,
  reportDonationSchema,
  successEnvelope,
  userIdParamsSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireActiveAccount, requireRole } from '../../plugins/auth';
import { LIVES_PER_UNIT, type DonationsService } from './donations.service';

const BEARER = [{ bearerAuth: [] }];

export interface DonationsRoutesOptions {
  donations: DonationsService;
}

export const donationsRoutes: FastifyPluginAsyncZod<DonationsRoutesOptions> = async (
  app,
  { donations },
) => {
  app.get(
    '/api/v1/users/:id/stats',
    {
      // Authenticated in the handler: a donor's own stats read the caller in the same
      // statement (app.authenticateSelf, issue #20).
      schema: {
        tags: ['donations'],
        summary: "A donor's totals",
        description:
          'The user themself or an administrator. `totalDonations` counts verified and self-reported donations; ' +
          '`lastDonationAt` is the latest known one (also a date answered in the questionnaire); `nextEligibleAt` ' +
          "comes from the last donation plus the interval for the donor's gender and the questionnaire's deferrals " +
          `(null when permanently deferred or nothing is known); \`livesImpacted\` is ${LIVES_PER_UNIT} × verified ` +
          'units (one unit becomes red cells, plasma and platelets); `requestsResponded` counts the blood requests the donor accepted.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(donorStatsSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { caller, self } = await app.authenticateSelf(request, id, donations.selfStats);
      return { success: true as const, data: self ?? (await donations.stats(caller, id)) };
    },
  );

  app.get(
    '/api/v1/users/:id/donations',
    {
      // Authenticated in the handler: a donor's own list reads the caller in the same
      // statement (app.authenticateSelf, issue #20).
      schema: {
        tags: ['donations'],
        summary: "A donor's donations",
        description:
          'The user themself or an administrator; newest first, paginated (`page`, `pageSize` ≤ 100). ' +
          '`certificateAvailable` is true for verified donations.',
        security: BEARER,
        params: userIdParamsSchema,
        querystring: paginationQuerySchema,
        response: {
          200: successEnvelope(donationPageSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { page, pageSize } = request.query;
      const { caller, self } = await app.authenticateSelf(
        request,
        id,
        donations.selfList(page, pageSize),
      );
      return {
        success: true as const,
        data: self ?? (await donations.list(caller, id, page, pageSize)),
      };
    },
  );

  app.post(
    '/api/v1/users/:id/donations',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['donations'],
        summary: 'Report a donation made elsewhere',
        description:
          "The donor themself only. `{donatedAt: YYYY-MM-DD, place}`; not in the future and not before the donor's " +
          '18th birthday (400 on `body.donatedAt`). Stored unverified (no certificate). It becomes the last donation, ' +
          'so the donor is hidden from matching for 90 days (men) or 120 days (women, other). **Idempotent** by ' +
          '`X-Request-ID`.',
        security: BEARER,
        params: userIdParamsSchema,
        body: reportDonationSchema,
        response: {
          201: successEnvelope(donationResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const { donation, replayed } = await donations.report(
        currentUser(request),
        request.params.id,
        request.body,
        requestMeta(request),
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send({ success: true as const, data: { donation } });
    },
  );

  app.post(
    '/api/v1/donations',
    {
      preHandler: [app.authenticate, requireRole('hospital', 'admin'), requireActiveAccount],
      schema: {
        tags: ['donations'],
        summary: 'Record a verified donation (hospital or admin)',
        description:
          'Hospitals and administrators. `{donorId, donatedAt (date or date-time), units? (1–2), requestId?, ' +
          'facilityId?, place?}`. **Hospitals** record donations made at their own facility only: the place is their ' +
          "organisation's name (the account's name without one) and `facilityId` their own; another `place` or " +
          '`facilityId` is 403 and nothing is stored. Administrators name any `place` (required) and facility. ' +
          'A donation inside the donor’s interval from another of their donations, before or after it (90 days for men, ' +
          '120 for women, Schedule F Part XII-B; same day included), is 409 `DONOR_NOT_ELIGIBLE` with the clashing date ' +
          'and the first allowed one, and nothing is stored. The donation is verified and gets ' +
          'a certificate number `BDMS-YYYY-XXXXXXXX` (Crockford base32, 40 random bits); the donor is told and hidden ' +
          'from matching for their interval. With `requestId` the donation is linked to the donor’s match for that blood ' +
          'request (an unknown request is 404). **Hospitals** record against their own requests only (their own, ' +
          'their hospital’s, those naming their facility or name and city): another hospital’s `requestId` is 403 ' +
          'and nothing is stored. A donation for a donor who had not accepted the named request, or with no ' +
          '`requestId`, is a **walk-in**: stored with `walkIn: true` (shown in the donor’s list to administrators and ' +
          'in the activity log). Unknown donor 404. **Idempotent** by `X-Request-ID`.',
        security: BEARER,
        body: recordDonationSchema,
        response: {
          201: successEnvelope(donationResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const { donation, replayed } = await donations.record(
        currentUser(request),
        request.body,
        requestMeta(request),
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send({ success: true as const, data: { donation } });
    },
  );
};
