import {
  confirmRegistrationCodeSchema,
  hospitalRegistrationResultSchema,
  registerHospitalResultSchema,
  registerHospitalSchema,
  registrationCodeSentSchema,
  successEnvelope,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireRole } from '../../plugins/auth';
import type { HospitalRegistration } from './hospital-registration.service';
import { EMAIL_CODES_PER_DAY, REGISTRATIONS_PER_HOUR } from './hospital-registration.service';

const BEARER = [{ bearerAuth: [] }];

/** Per client address, like the other public writes (auth.routes.ts AUTH_RATE_LIMITS). */
export const HOSPITAL_REGISTRATION_RATE_LIMITS = {
  register: { max: 10, timeWindow: '1 hour' },
  codes: { max: 10, timeWindow: '15 minutes' },
} as const;

const FLAG_NOTE =
  'Only while the `hospitalRegistration` flag is on: with it off the route answers 404 `NOT_FOUND` for everyone.';
const OWN_FLAG_NOTE =
  'Hospital accounts only (anonymous 401, other roles 403), also while the account waits for verification. ' +
  'Only while the `hospitalRegistration` flag is on: with it off, 404 `NOT_FOUND` (after the token and role checks).';

export interface HospitalRegistrationRoutesOptions {
  registration: HospitalRegistration;
}

/** A blood centre or hospital registering itself (issue #17). */
export const hospitalRegistrationRoutes: FastifyPluginAsyncZod<
  HospitalRegistrationRoutesOptions
> = async (app, { registration }) => {
  app.post(
    '/api/v1/hospital-registrations',
    {
      config: { rateLimit: HOSPITAL_REGISTRATION_RATE_LIMITS.register },
      schema: {
        tags: ['hospitals'],
        summary: 'Register a blood centre or hospital (public, hospitalRegistration)',
        description:
          `${FLAG_NOTE} ` +
          '`{name, licenceNumber, facilityId, contactName, email, phone, password, language?}`. `facilityId` is the ' +
          'blood bank directory entry the centre is, chosen from `GET /api/v1/public/facilities/search?q=` (an unknown one is 400 on ' +
          '`body.facilityId`); `licenceNumber` the blood bank licence (Drugs and Cosmetics Rules, Form 28-C) as printed; ' +
          '`contactName` the person answering for it; `phone` a mobile (it is confirmed by a code by SMS, or by WhatsApp when SMS is not configured). Creates the hospital ' +
          '(`verificationStatus: "pending"`, `registeredVia: "self"`) and its account (role `hospital`), signs it in, ' +
          'and mails a 6-digit code to confirm the e-mail address. Until an administrator verifies it, the account can ' +
          'sign in, read its own account and registration and confirm its e-mail and phone; every other call is 403 ' +
          '`HOSPITAL_NOT_VERIFIED`. A taken e-mail or phone is 409 `EMAIL_TAKEN` / `PHONE_TAKEN`, as for donors. A directory ' +
          'entry already held by a verified account may be claimed: the registration waits like any other and ' +
          'administrators see the other account beside it. A weak password is 400 `WEAK_PASSWORD`. ' +
          'The mails it sends carry no registrant-typed text in the subject or first line: the name and contact name ' +
          'are quoted below the code, marked as what the registrant typed. ' +
          `At most ${REGISTRATIONS_PER_HOUR} registrations per hour from all addresses together (each mails an address ` +
          'nobody has confirmed yet); past it 429 `RATE_LIMITED` with Retry-After, and nothing is created or mailed. ' +
          `Rate limit: ${HOSPITAL_REGISTRATION_RATE_LIMITS.register.max} per hour per address.`,
        body: registerHospitalSchema,
        response: {
          201: successEnvelope(registerHospitalResultSchema),
          ...errorResponses(400, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const result = await registration.register(request.body, requestMeta(request));
      return reply.code(201).send({ success: true as const, data: result });
    },
  );

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addHook('onRequest', scope.authenticate);
    scope.addHook('onRequest', requireRole('hospital'));

    const ownConfig = { allowUnverifiedHospital: true } as const;

    scope.get(
      '/api/v1/hospital-registrations/me',
      {
        config: ownConfig,
        schema: {
          tags: ['hospitals'],
          summary: 'Where my registration stands (hospital)',
          description:
            `${OWN_FLAG_NOTE} The signed-in hospital account's registration: \`verificationStatus\` (\`pending\`, ` +
            '`verified`, `rejected` with `rejectionReason`), whether the e-mail and phone are confirmed, and whether an ' +
            'SMS provider is configured. A hospital account not linked to a hospital: 403.',
          security: BEARER,
          response: {
            200: successEnvelope(hospitalRegistrationResultSchema),
            ...errorResponses(401, 403, 404),
          },
        },
      },
      async (request) => ({
        success: true as const,
        data: { registration: await registration.status(currentUser(request)) },
      }),
    );

    scope.post(
      '/api/v1/hospital-registrations/me/email/code',
      {
        config: { ...ownConfig, rateLimit: HOSPITAL_REGISTRATION_RATE_LIMITS.codes },
        schema: {
          tags: ['hospitals'],
          summary: 'Mail a new e-mail confirmation code (hospital)',
          description:
            `${OWN_FLAG_NOTE} Voids the earlier codes and mails a new one, valid 10 minutes, 5 tries. At most ` +
            `${EMAIL_CODES_PER_DAY} a day per account (429 with Retry-After). 409 \`CONFLICT\` when already confirmed.`,
          security: BEARER,
          response: {
            200: successEnvelope(registrationCodeSentSchema),
            ...errorResponses(401, 403, 404, 409, 429),
          },
        },
      },
      async (request) => ({
        success: true as const,
        data: await registration.sendEmailCode(currentUser(request)),
      }),
    );

    scope.post(
      '/api/v1/hospital-registrations/me/email/confirm',
      {
        config: { ...ownConfig, rateLimit: HOSPITAL_REGISTRATION_RATE_LIMITS.codes },
        schema: {
          tags: ['hospitals'],
          summary: 'Confirm the e-mail address with its code (hospital)',
          description:
            `${OWN_FLAG_NOTE} \`{code}\`: the mailed code. A wrong, expired or used one is 400 \`INVALID_EMAIL_CODE\` on ` +
            '`body.code` (5 wrong tries void it). 409 `CONFLICT` when already confirmed.',
          security: BEARER,
          body: confirmRegistrationCodeSchema,
          response: {
            200: successEnvelope(hospitalRegistrationResultSchema),
            ...errorResponses(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (request) => ({
        success: true as const,
        data: {
          registration: await registration.confirmEmail(
            currentUser(request),
            request.body.code,
            requestMeta(request),
          ),
        },
      }),
    );

    scope.post(
      '/api/v1/hospital-registrations/me/phone/code',
      {
        config: { ...ownConfig, rateLimit: HOSPITAL_REGISTRATION_RATE_LIMITS.codes },
        schema: {
          tags: ['hospitals'],
          summary: 'Send a phone confirmation code by SMS or WhatsApp (hospital)',
          description:
            `${OWN_FLAG_NOTE} Sends a 6-digit code by SMS to the account's mobile (the donors' phone verification); with no SMS provider but WhatsApp configured, as WhatsApp's authentication template. ` +
            'With neither configured: 409 `SMS_UNAVAILABLE`, and the phone stays unconfirmed (administrators ' +
            `see it). At most 10 codes a day per phone number, every purpose together (429). 409 \`CONFLICT\` when already confirmed.`,
          security: BEARER,
          response: {
            200: successEnvelope(registrationCodeSentSchema),
            ...errorResponses(401, 403, 404, 409, 429),
          },
        },
      },
      async (request) => ({
        success: true as const,
        data: await registration.sendPhoneCode(currentUser(request)),
      }),
    );

    scope.post(
      '/api/v1/hospital-registrations/me/phone/confirm',
      {
        config: { ...ownConfig, rateLimit: HOSPITAL_REGISTRATION_RATE_LIMITS.codes },
        schema: {
          tags: ['hospitals'],
          summary: 'Confirm the phone with its code (hospital)',
          description:
            `${OWN_FLAG_NOTE} \`{code}\`: the code sent by SMS or WhatsApp. A wrong, expired or used one is 400 ` +
            '`INVALID_PHONE_CODE` on `body.code`.',
          security: BEARER,
          body: confirmRegistrationCodeSchema,
          response: {
            200: successEnvelope(hospitalRegistrationResultSchema),
            ...errorResponses(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (request) => ({
        success: true as const,
        data: {
          registration: await registration.confirmPhone(
            currentUser(request),
            request.body.code,
            requestMeta(request),
          ),
        },
      }),
    );
  });
};
