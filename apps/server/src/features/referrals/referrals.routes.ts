import { LANGUAGES, adminReferralsSchema, myReferralsSchema, successEnvelope } from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireActiveAccount, requireRole } from '../../plugins/auth';
import type { ReferralsService } from './referrals.service';

const BEARER = [{ bearerAuth: [] }];
const FLAG_NOTE =
  'Only while the feature flag `referralSystem` is on: off, 404 NOT_FOUND (and registration ignores ' +
  '`referralCode`).';

/** Invitations (feature flag referralSystem, issue #21): the donor's side and the admins'. */
export const referralsRoutes: FastifyPluginAsyncZod<{ referrals: ReferralsService }> = async (
  app,
  { referrals },
) => {
  app.get(
    '/api/v1/referrals/me',
    {
      onRequest: [app.authenticate, requireRole('donor'), requireActiveAccount],
      schema: {
        tags: ['referrals'],
        summary: 'My invitation code, share texts and how many joined (donor)',
        description:
          'The donor’s code (8 characters, made on the first call, then fixed), the registration link with it, ' +
          'a share text and a wa.me link with it (`lang`: the text’s language, default en) — the text carries ' +
          'the link and code only, nothing about the donor. `joined`: accounts registered with the code; ' +
          '`donated`: of those, how many have a donation. `milestones`: badges at 1, 5, 10 and 25 joined. ' +
          '`friends`: only invitees who ticked “let the friend who invited me see…” at registration, first name, ' +
          `registration time and whether they donated. ${FLAG_NOTE}`,
        security: BEARER,
        querystring: z.object({ lang: z.enum(LANGUAGES).optional() }),
        response: {
          200: successEnvelope(myReferralsSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await referrals.mine(currentUser(request), request.query.lang),
    }),
  );

  app.get(
    '/api/v1/admin/referrals',
    {
      onRequest: [app.authenticate, requireRole('admin')],
      schema: {
        tags: ['referrals'],
        summary: 'Referral counts and possible abuse (admin)',
        description:
          '`totals`: accounts registered with a code, how many of them donated, how many donors invited. ' +
          '`topReferrers`: the 20 donors who brought the most. `clusters`: addresses (a keyed hash of the ' +
          'registering address, shortened to 8 characters; never the address) from which 3 or more accounts ' +
          'registered while the flag was on, most first (20 at most), each with up to 10 accounts, newest first, ' +
          `and who invited them. ${FLAG_NOTE}`,
        security: BEARER,
        response: {
          200: successEnvelope(adminReferralsSchema),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async () => ({ success: true as const, data: await referrals.overview() }),
  );
};
