import {
  availabilitySchema,
  onboardingStatusSchema,
  putQuestionnaireSchema,
  questionnaireResultSchema,
  setAvailabilitySchema,
  successEnvelope,
  userIdParamsSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireActiveAccount } from '../../plugins/auth';
import type { DonorsService } from './donors.service';

const BEARER = [{ bearerAuth: [] }];

export interface DonorsRoutesOptions {
  donors: DonorsService;
}

export const donorsRoutes: FastifyPluginAsyncZod<DonorsRoutesOptions> = async (app, { donors }) => {
  app.get(
    '/api/v1/users/:id/questionnaire',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['donors'],
        summary: "A donor's health questionnaire",
        description:
          'The donor themself or an administrator (others 403). `questionnaire` is null until submitted. The verdict ' +
          '(`eligible`, `nextEligibleAt`, `deferrals`, `maxVolumeMl`) is computed when read, from the answers, the date ' +
          'of birth, the gender and the latest donation, so deferrals end on their own.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(questionnaireResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        questionnaire: await donors.getQuestionnaire(currentUser(request), request.params.id),
      },
    }),
  );

  app.put(
    '/api/v1/users/:id/questionnaire',
    {
      preHandler: [app.authenticate, requireActiveAccount],
      schema: {
        tags: ['donors'],
        summary: 'Submit or change the health questionnaire',
        description:
          'The donor themself only. `{answers}` holds only what the eligibility rules need (unknown keys are dropped; ' +
          'never send an Aadhaar number). A timed condition needs its date in `conditionDates` (400 on ' +
          "`body.answers.conditionDates.<code>`); dates in the future are 400. The rules are India's (Drugs and " +
          'Cosmetics Rules 1945, Schedule F Part XII-B, as amended by G.S.R. 166(E) of 11 March 2020): 18–65 years ' +
          '(first-time donors not over 60), at least 45 kg (350 ml; over 55 kg 450 ml), haemoglobin at least 12.5 g/dL, ' +
          '90 days between donations for men and 120 for women (and, conservatively, for `other`), and the deferral ' +
          'periods listed by code (NBTC 2017). `major_surgery` / `minor_surgery` take the day of full recovery (12 / 6 ' +
          'months from it); `bone_marrow_harvest` 12 months, `stem_cell_harvest` 6 months, `imprisonment` 12 months ' +
          'from release; `menstruating` defers while it lasts (like `cold_flu`); `polycythaemia` is permanent; ' +
          '`hazardous_occupation` is recorded and defers nobody (the donor is told not to go on such a duty for 24 h ' +
          'after donating; matching is unchanged). A `lastDonationDate` answered here also hides the donor from matching. A `rejected` ' +
          'donor who changes the answers goes back to `pending`; completing onboarding tells the administrators. ' +
          'Dates are Indian dates: "today" and the day a deferral ends are days in Asia/Kolkata (a deferral ends at ' +
          "00:00 IST). **Review**: saving the same answers again keeps an administrator's questionnaire review; changed " +
          'answers clear it, and when that review was `rejected`, or an `approved` (or suspended) donor removes a ' +
          'permanent condition, `reviewRequired` is set (`changed_after_rejection`, `permanent_deferral_removed`): ' +
          'the donor is not matched until an administrator reviews the answers, and the administrators are told ' +
          '(in-app `questionnaire.review_reopened` / `questionnaire.permanent_deferral_removed`, without health details).',
        security: BEARER,
        params: userIdParamsSchema,
        body: putQuestionnaireSchema,
        response: {
          200: successEnvelope(questionnaireResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        questionnaire: await donors.putQuestionnaire(
          currentUser(request),
          request.params.id,
          request.body.answers,
          requestMeta(request),
        ),
      },
    }),
  );

  app.get(
    '/api/v1/users/:id/onboarding-status',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['donors'],
        summary: "A donor's onboarding progress",
        description:
          'The user themself or an administrator. Onboarding is complete when the questionnaire is submitted and, ' +
          'while the `documentUpload` flag is on (`idProofRequired`), an ID proof that is not rejected is uploaded. ' +
          'Steps: `documents` (done when uploaded, or when no ID proof is required), `questionnaire`, `review` (done ' +
          'when onboarding is complete). `rejectionReason` is set while the donor is `rejected`.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(onboardingStatusSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await donors.onboardingStatus(currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/api/v1/users/:id/availability',
    {
      // Authenticated in the handler: a donor's own availability reads the caller in the same
      // statement (app.authenticateSelf, issue #20).
      schema: {
        tags: ['donors'],
        summary: "A donor's availability (extension)",
        description:
          'The donor themself or an administrator. Availability lapses 90 days after it was last confirmed ' +
          '(`expiresAt`); from 7 days before, `needsReconfirmation` is true and a reminder is sent once. After ' +
          'expiry, or once the `until` day has passed, `available` is false.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(availabilitySchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { caller, self } = await app.authenticateSelf(request, id, donors.selfAvailability);
      return { success: true as const, data: self ?? (await donors.getAvailability(caller, id)) };
    },
  );

  app.put(
    '/api/v1/users/:id/availability',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['donors'],
        summary: 'Set or reconfirm availability (extension)',
        description:
          'The donor themself only. `{available, until?}`: `until` (YYYY-MM-DD, inclusive) from today to 90 days ' +
          'ahead, else 400. Every call counts as a confirmation and restarts the 90 days. `PATCH /users/{id}` with ' +
          '`available` does the same (without `until`).',
        security: BEARER,
        params: userIdParamsSchema,
        body: setAvailabilitySchema,
        response: {
          200: successEnvelope(availabilitySchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await donors.setAvailability(
        currentUser(request),
        request.params.id,
        request.body,
        requestMeta(request),
      ),
    }),
  );
};
