import {
  BLOOD_REQUEST_LIMITS,
  OTP_MAX_ATTEMPTS,
  acceptedDonorsResultSchema,
  bloodRequestPageSchema,
  bloodRequestResultSchema,
  confirmBloodRequestSchema,
  createBloodRequestResultSchema,
  createBloodRequestSchema,
  fullBloodRequestResultSchema,
  idParamsSchema,
  listBloodRequestsQuerySchema,
  respondResultSchema,
  respondSchema,
  successEnvelope,
  trackingCodeParamsSchema,
  trackingSchema,
  updateBloodRequestSchema,
  updateStatusSchema,
} from '@bdms/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DAILY_LIMITS } from '../../lib/auth-limits';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireActiveAccount, requireRole } from '../../plugins/auth';
import { PHONE_LIMIT, type BloodRequestsService } from './blood-requests.service';

const BEARER = [{ bearerAuth: [] }];

/**
 * Per client address (@fastify/rate-limit). Creating is limited for guests and donors only:
 * the hook runs after `identify`, and hospital accounts and administrators are on the allow
 * list (they record requests for many patients), as are the RATE_LIMIT_ALLOWLIST addresses.
 */
export const BLOOD_REQUEST_RATE_LIMITS = {
  create: { max: 5, timeWindow: '1 hour' },
  track: { max: 60, timeWindow: '1 minute' },
  /** Confirming a request by its SMS code, and asking for a new one. */
  confirm: { max: 20, timeWindow: '15 minutes' },
} as const;

const isStaff = (request: FastifyRequest) =>
  request.user?.role === 'hospital' || request.user?.role === 'admin';

export interface BloodRequestsRoutesOptions {
  bloodRequests: BloodRequestsService;
}

export const bloodRequestsRoutes: FastifyPluginAsyncZod<BloodRequestsRoutesOptions> = async (
  app,
  { bloodRequests },
) => {
  app.post(
    '/api/v1/blood-requests',
    {
      preHandler: app.identify,
      config: {
        rateLimit: {
          ...BLOOD_REQUEST_RATE_LIMITS.create,
          hook: 'preHandler',
          // Replaces the global allow list, so RATE_LIMIT_ALLOWLIST is asked here as well.
          // The address itself: the key is its /64 for IPv6 (lib/client-address.ts).
          allowList: (request: FastifyRequest) =>
            isStaff(request) || app.isRateLimitExempt(request.ip),
        },
      },
      schema: {
        tags: ['blood-requests'],
        summary: 'Make an emergency blood request (anyone, guests too)',
        description:
          'Signed in or not (a bearer token is optional). A guest’s or donor’s request starts `pending` (an ' +
          'administrator or the hospital it names verifies it; until then no donor hears of it, so fake requests ' +
          'never reach donors); a hospital account’s or an administrator’s starts `verified` and the first matching ' +
          'round runs at once. **Location**: the facility’s coordinates (`facilityId`, from the hospital picker), else ' +
          '`latitude`/`longitude`, else the PIN code’s point (where that point is approximate — medium or low ' +
          'confidence — the first matching round searches wider: +5 km, or twice as far and at least 20 km more), ' +
          'else none — then the request is kept and shown, but ' +
          'matching needs a point and tells nobody (`searchRadiusKm` stays null, `locationSource` null). ' +
          '**Contact phone**: an Indian mobile, or a landline with its STD code (`040-2345 6789`), stored E.164 ' +
          '(`+914023456789`). `language`: any supported interface language; messages are in en, es, hi, bn, mr, te or ta, others ' +
          'get English. ' +
          '**Confirmation by phone code** (issue #16), only while the `phoneVerification` flag is on and SMS or ' +
          'WhatsApp is configured: a guest’s request (or a signed-in requester’s whose own phone is not verified) ' +
          'starts `unconfirmed` and a 6-digit code valid 10 minutes goes by SMS (by WhatsApp when SMS is not configured) to `contactPhone`, which must then be ' +
          'a mobile (a landline is 400 on `body.contactPhone`). Until `POST /track/{trackingCode}/confirm` gets the code ' +
          'it is in no list but its owner’s, nobody is told, and it expires ' +
          `${BLOOD_REQUEST_LIMITS.confirmationWindowMinutes} minutes after it was made; once confirmed it is \`pending\` ` +
          'with its normal expiry. Hospital accounts, administrators and requesters with a verified phone skip it. ' +
          'With the flag off, or no provider, requests start `pending` as before. ' +
          '**Guest requester by SMS/WhatsApp**: when a guest’s request becomes `pending` (at once, or when its code ' +
          'is confirmed; never while `unconfirmed`) one message with its tracking code and a link to its tracking page ' +
          'goes to a mobile `contactPhone`, by SMS (`smsNotifications` flag, `smsEnabled`, SMS configured) else by ' +
          'WhatsApp (`whatsappIntegration`, WhatsApp configured), in its `language`, through the delivery outbox ' +
          '(no quiet-hours wait; a Critical request’s may exceed the daily budget). ' +
          '**Expiry**: `requiredBy`, else 72 hours after creation (`expiresAt`). **Critical** requests tell every ' +
          'administrator at once (in-app, push and e-mail) while `notifyAdminsOnCritical` is on; pending ones tell ' +
          'administrators (and the named hospital) in-app.\n\n' +
          '**Duplicate guard**: an open request (pending, verified, in progress) with the same contact phone, blood ' +
          'type and hospital (the same `facilityId`, else the same hospital name, ignoring case and punctuation, in ' +
          'the same city) made in the last 24 hours means nothing new is made: **200** with `duplicate: true`. The ' +
          'stored request is in the reply only when the caller may read it (its owner signed in, an administrator, ' +
          'the hospital in scope); anyone else (a guest too) gets `request: null` — nothing they did not send — and ' +
          'the request’s tracking link is e-mailed to the address given with it (at most once an hour; the reply ' +
          'is the same whether one was on file or not). The per-phone limit is checked **before** the duplicate ' +
          'guard, so past it a duplicate is 429 like any other request and the limit tells no prober which guess ' +
          'matched. `language` is the language of those messages (en, es, hi, bn, mr, te, ta; any other gets English). ' +
          '**Idempotent** by `X-Request-ID` (same id and body → the first reply, ' +
          '`Idempotent-Replayed: true`). **Limits** (guests and donors; hospitals and administrators are exempt): ' +
          `${BLOOD_REQUEST_RATE_LIMITS.create.max} requests per hour per client address, and ${PHONE_LIMIT.max} per ` +
          'contact phone in 24 hours (counted in the database); over either, 429 `RATE_LIMITED` with `Retry-After`. ' +
          'A suspended account gets 403. The reply carries the full request with its `trackingCode` (8 characters, ' +
          'no 0/O/1/I/L/U): keep it to follow the request at `/blood-requests/track/{trackingCode}`.',
        body: createBloodRequestSchema,
        response: {
          200: successEnvelope(createBloodRequestResultSchema).describe(
            'An open duplicate, returned',
          ),
          201: successEnvelope(createBloodRequestResultSchema),
          ...errorResponses(400, 403, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const { statusCode, result, replayed } = await bloodRequests.create(
        request.user,
        request.body,
        requestMeta(request),
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(statusCode).send({ success: true as const, data: result });
    },
  );

  app.post(
    '/api/v1/blood-requests/track/:trackingCode/confirm',
    {
      config: { rateLimit: BLOOD_REQUEST_RATE_LIMITS.confirm },
      schema: {
        tags: ['blood-requests'],
        summary:
          'Confirm an unconfirmed request with the code sent to its contact phone (anyone with both)',
        description:
          'The request goes to review (`pending`; administrators and the named hospital are told) with its normal ' +
          'expiry, and the reply is the tracking view. A wrong, expired, used or void code is 400 `INVALID_PHONE_CODE` ' +
          `on \`body.code\`; each code takes ${OTP_MAX_ATTEMPTS} tries (parallel tries cannot exceed it), then it is void. ` +
          'A request that is not `unconfirmed` (already confirmed, expired) is 409 `CONFLICT`; unknown codes are 404. ' +
          `Rate limit: ${BLOOD_REQUEST_RATE_LIMITS.confirm.max} per 15 minutes per address.`,
        params: trackingCodeParamsSchema,
        body: confirmBloodRequestSchema,
        response: {
          200: successEnvelope(trackingSchema),
          ...errorResponses(400, 404, 409, 429),
        },
      },
    },
    async (request) => {
      await bloodRequests.confirmByCode(
        request.params.trackingCode,
        request.body.code,
        requestMeta(request),
      );
      return {
        success: true as const,
        data: await bloodRequests.track(request.params.trackingCode),
      };
    },
  );

  app.post(
    '/api/v1/blood-requests/track/:trackingCode/confirm/resend',
    {
      config: { rateLimit: BLOOD_REQUEST_RATE_LIMITS.confirm },
      schema: {
        tags: ['blood-requests'],
        summary:
          'Send a new confirmation code to an unconfirmed request’s contact phone (anyone with the code)',
        description:
          'Voids the earlier code and answers the tracking view (`confirmation.codeExpiresAt` is the new code’s ' +
          `expiry). At most ${BLOOD_REQUEST_LIMITS.confirmationCodesMax} codes per request (the first included), and ` +
          `${DAILY_LIMITS.phoneCodesPerPurpose.request_confirmation} confirmation codes per phone number per day (India time, in the database; sign-in and ` +
          'phone-change codes to the same number do not count), then ' +
          '429 with Retry-After. 409 `CONFLICT` when the request is not `unconfirmed`; 409 `SMS_UNAVAILABLE` with neither ' +
          'SMS nor WhatsApp configured.',
        params: trackingCodeParamsSchema,
        response: {
          200: successEnvelope(trackingSchema),
          ...errorResponses(400, 404, 409, 429),
        },
      },
    },
    async (request) => {
      await bloodRequests.resendConfirmation(request.params.trackingCode);
      return {
        success: true as const,
        data: await bloodRequests.track(request.params.trackingCode),
      };
    },
  );

  app.get(
    '/api/v1/blood-requests/track/:trackingCode',
    {
      config: { rateLimit: BLOOD_REQUEST_RATE_LIMITS.track },
      schema: {
        tags: ['blood-requests'],
        summary: 'Follow a request by its tracking code (anyone)',
        description:
          'Status, urgency, blood type, units, hospital, city, times, the radius searched, match counts and the ' +
          'first names of donors on their way (accepted, not yet donated). **No personal data**: no patient or ' +
          'requester name, phone, e-mail, address or notes. **Why first names**: the family waiting at the hospital ' +
          'needs to recognise who is coming and to know that someone is; a first name alone does not identify a ' +
          'donor to whoever holds the code (surnames, phones and distances are never shown). The code is ' +
          'case-insensitive; unknown codes are 404. ' +
          `Rate limit: ${BLOOD_REQUEST_RATE_LIMITS.track.max} per minute per address (codes cannot be guessed).`,
        params: trackingCodeParamsSchema,
        response: {
          200: successEnvelope(trackingSchema),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bloodRequests.track(request.params.trackingCode),
    }),
  );

  app.get(
    '/api/v1/blood-requests',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['blood-requests'],
        summary: 'Blood requests the caller may see',
        description:
          'Newest first, paginated, filtered by `status`, `bloodType`, `urgency`, `city` (whole name, any case). ' +
          'Administrators: all, with contacts. Hospitals: their ' +
          'own, their hospital’s, and those naming their facility (or their name in their city). Administrators’ and ' +
          'hospitals’ reads of other people’s contact details are recorded in the activity log. Donors: their own ' +
          '(`view: "full"`) and those they were told about (`view: "matched"`: blood type, units, urgency, hospital, ' +
          'city, distance, `requiredBy`; the requester’s `contactName`, `contactPhone`, the `address`, `pincode`, ' +
          '`latitude`/`longitude` and `notes` only after accepting, and no longer after withdrawing).',
        security: BEARER,
        querystring: listBloodRequestsQuerySchema,
        response: {
          200: successEnvelope(bloodRequestPageSchema),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bloodRequests.list(currentUser(request), request.query, requestMeta(request)),
    }),
  );

  app.get(
    '/api/v1/blood-requests/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['blood-requests'],
        summary: 'One blood request',
        description:
          'The owner, administrators (logged) and the hospital it names get the full request (`view: "full"`); a ' +
          'donor told about it gets the matched view (`view: "matched"`, contact, address, point and notes after accepting, hidden again after withdrawing). Others 403; ' +
          'unknown ids 404.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(bloodRequestResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        request: await bloodRequests.get(
          currentUser(request),
          request.params.id,
          requestMeta(request),
        ),
      },
    }),
  );

  app.put(
    '/api/v1/blood-requests/:id',
    {
      preHandler: [app.authenticate, requireActiveAccount],
      schema: {
        tags: ['blood-requests'],
        summary: 'Change an open request’s details',
        description:
          'The owner, administrators, and the hospital for its own or named requests. Any request field but the ' +
          'status (use `/status`); `null` clears an optional field; unknown fields are 400. Changing `facilityId`, ' +
          '`latitude`/`longitude` or `pincode` places the request again; `requiredBy` moves `expiresAt`. Donors ' +
          'already told are not told again; the next widening round uses the new values. A request that is no ' +
          'longer open is 409 `CONFLICT`.\n\n' +
          '**After verification** the requester (the owner, unless an administrator or the hospital in scope) may ' +
          'still change `requiredBy` freely. A change to anything a verifier checked — blood type, ' +
          'units, urgency, patient name, hospital name, facility, city, state, address, PIN code, point, contact ' +
          'name, phone or e-mail, and `notes` — with a value that differs sends the request back to `pending` (history: who and ' +
          'which fields; activity log `blood_request.back_to_review`): no donor is told and no widening round runs ' +
          'until it is verified again, donors who accepted see no contact, address or notes meanwhile and are asked not to travel or ' +
          'pay anyone, and the accounts that verified it, the administrators and the hospital it names are told; ' +
          'the verifiers read the new text in the full view and the fields named in the history. ' +
          'When verified again, those donors are told and the request is `in_progress` again. Edits by an ' +
          'administrator or the hospital in scope (verifiers themselves) keep the status. `notes` are reviewed like ' +
          'the contact (issue #32 item 12) rather than kept as a second, pending copy: donors who accepted read ' +
          'them, so an unreviewed note ("pay a processing fee to this UPI id") reaches them exactly like an ' +
          'unreviewed phone number would; one rule for both, and no unreviewed copy to keep, show or erase.',
        security: BEARER,
        params: idParamsSchema,
        body: updateBloodRequestSchema,
        response: {
          200: successEnvelope(fullBloodRequestResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        request: await bloodRequests.update(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      },
    }),
  );

  app.delete(
    '/api/v1/blood-requests/:id',
    {
      preHandler: [app.authenticate, requireActiveAccount],
      schema: {
        tags: ['blood-requests'],
        summary: 'Cancel a request (not a hard delete)',
        description:
          'The owner, administrators, and the hospital for its own or named requests. The request becomes ' +
          '`cancelled` with a history entry and stays readable. A request that is not open is 409 `INVALID_TRANSITION`.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(fullBloodRequestResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        request: await bloodRequests.cancel(
          currentUser(request),
          request.params.id,
          requestMeta(request),
        ),
      },
    }),
  );

  app.put(
    '/api/v1/blood-requests/:id/status',
    {
      preHandler: [app.authenticate, requireRole('admin', 'hospital'), requireActiveAccount],
      schema: {
        tags: ['blood-requests'],
        summary: 'Move a request through its states',
        description:
          'Administrators, and a hospital for its own or named requests. `pending → verified → in_progress → ' +
          'fulfilled`; `cancelled` and `expired` from any open state (pending, verified, in_progress); an `unconfirmed` request (waiting for its SMS code) moves only by that code or its expiry; anything else ' +
          'is 409 `INVALID_TRANSITION`. There is no `rejected`: a fake request is `cancelled` with `notes` saying ' +
          'so. Each change appends `{status, notes, by, byRole, at}` to `history`, is recorded in the activity log ' +
          'and tells a registered requester. Becoming `verified` runs the first matching round (see "Matching").',
        security: BEARER,
        params: idParamsSchema,
        body: updateStatusSchema,
        response: {
          200: successEnvelope(fullBloodRequestResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        request: await bloodRequests.setStatus(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/v1/blood-requests/:id/respond',
    {
      preHandler: [app.authenticate, requireRole('donor'), requireActiveAccount],
      schema: {
        tags: ['blood-requests'],
        summary: 'A matched donor accepts, declines or withdraws',
        description:
          'Only a donor who was told about the request (others: 403 for non-donors, 404 for donors not asked). ' +
          '`accepted`: the reply carries the requester’s `contactName`, `contactPhone`, the hospital `address` and ' +
          '`pincode`, the request’s `latitude`/`longitude` (for a maps link) and its `notes` (ward, blood bank): ' +
          'these fields are null for a donor who has not accepted or has withdrawn; ' +
          'the first acceptance moves a verified request to `in_progress`; the requester (if registered) and the ' +
          'hospital are told how many donors are on their way. `declined`: the donor is never asked again for this ' +
          'request and nobody is told. The same answer again is idempotent (200, same reply); the other answer after ' +
          'one was given is 409 `CONFLICT`, as is answering a request that is no longer open (cancelled, fulfilled, ' +
          'expired, or past its `expiresAt` before the expiry job ran): no contact is released then. More donors ' +
          'than units: every donor who accepts is welcome and gets the contact (blood centres defer some donors at ' +
          'screening), and the requester is told each time with the running count; simultaneous acceptances are ' +
          'serialised on the request, so it moves to `in_progress` once and each count is told once. A guest ' +
          'requester gets one SMS (else WhatsApp) at the first acceptance only: a donor is coming, with the tracking ' +
          'code and link, never the donor’s name or phone. `withdrawn` (issue #18): a donor who accepted can no ' +
          'longer come; only from `accepted` (409 otherwise, also once their donation for it is recorded), only ' +
          'while the request is open (409); the reply hides the contact, address, point and notes again; the ' +
          'registered requester and the hospital are told (`blood_request.donor_withdrew`, with the donors still ' +
          'coming), the accepted count drops and a guest’s tracking page no longer lists the donor. Withdrawing ' +
          'again is idempotent; a withdrawn donor is not asked again.\n\n' +
          '**Checked at the moment of answering, in the service (issue #32), so an SMS reply or a WhatsApp button ' +
          'meets the same rules:** a suspended donor answers nothing (403 `FORBIDDEN`; their open matches were voided ' +
          'at the suspension); `accepted` needs the donor to be able to give blood now, decided as the matcher ' +
          'decides (the donation interval, every deferral of the questionnaire evaluated now, a review on hold, the ' +
          'age limits): otherwise 409 `DONOR_NOT_ELIGIBLE` with `details: {reason: "donation_interval" | ' +
          '"deferred", nextEligibleAt}` (`nextEligibleAt` null when no date is known, e.g. a permanent deferral), ' +
          'nothing changes and no contact is released; by SMS or WhatsApp the donor gets the same refusal in their ' +
          'language, with the date. Declining and withdrawing stay open to a deferred donor.',
        security: BEARER,
        params: idParamsSchema,
        body: respondSchema,
        response: {
          200: successEnvelope(respondResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        request: await bloodRequests.respond(
          currentUser(request),
          request.params.id,
          request.body.response,
          requestMeta(request),
        ),
      },
    }),
  );

  app.get(
    '/api/v1/blood-requests/:id/donors',
    {
      preHandler: [app.authenticate, requireRole('admin', 'hospital'), requireActiveAccount],
      schema: {
        tags: ['blood-requests'],
        summary: 'Donors who accepted, with their phone (hospital, admin)',
        description:
          'The hospital for its own or named requests, and administrators: each accepted donor’s name, phone, blood ' +
          'type, distance, when they answered and whether a donation for this request was recorded. Every read is ' +
          'recorded in the activity log (who, which request, how many), never the numbers themselves. **Why the ' +
          'hospital sees the phone**: a donor who accepts has chosen to help at this hospital, and its blood bank ' +
          'must call them to arrange the donation (time, ward, pre-donation checks) — the same as a walk-in giving ' +
          'their number at the desk. Only donors who accepted are listed (never those told or who declined), only ' +
          'for requests in the hospital’s scope, and a donor who erases their account disappears from the list.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(acceptedDonorsResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        items: await bloodRequests.acceptedDonors(
          currentUser(request),
          request.params.id,
          requestMeta(request),
        ),
      },
    }),
  );
};
