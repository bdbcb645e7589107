import { z } from 'zod';
import { multilineText, plainText } from './text';
import { paginated } from './api';
import { contactPhoneSchema, emailSchema, OTP_LENGTH, pincodeSchema } from './auth';
import { BLOOD_TYPES, LANGUAGES, URGENCIES } from './constants';

/**
 * Contracts of emergency blood requests (API.md "Blood requests"). A request is made by anyone
 * (guests too), verified by an administrator or the hospital it names, and then compatible
 * donors nearby are told. The requester's contact reaches a donor only once they accept.
 */

export const BLOOD_REQUEST_STATUSES = [
  /**
   * A guest's request waiting for the code sent by SMS to its contact phone (issue #16): not yet
   * seen by verifiers or in any list but its owner's; it expires unconfirmed.
   */
  'unconfirmed',
  'pending',
  'verified',
  'in_progress',
  'fulfilled',
  'cancelled',
  'expired',
] as const;
export type BloodRequestStatus = (typeof BLOOD_REQUEST_STATUSES)[number];

/** The statuses staff lists show and filter by: an unconfirmed request is in none of them. */
export const LISTED_BLOOD_REQUEST_STATUSES = BLOOD_REQUEST_STATUSES.filter(
  (status) => status !== 'unconfirmed',
);

/** Statuses in which a request still needs blood (and can be edited, cancelled or expire). */
export const OPEN_BLOOD_REQUEST_STATUSES = [
  'pending',
  'verified',
  'in_progress',
] as const satisfies readonly BloodRequestStatus[];

/**
 * API.md's state machine: pending → verified → in_progress → fulfilled; cancelled and expired
 * from any open state. `unconfirmed` (a guest's request before its phone code) becomes pending
 * once confirmed, or expires. Anything else is 409 INVALID_TRANSITION. A fake request is `cancelled`
 * with a note (there is no `rejected` status).
 */
export const BLOOD_REQUEST_TRANSITIONS: Record<BloodRequestStatus, readonly BloodRequestStatus[]> =
  {
    unconfirmed: ['pending', 'expired'],
    pending: ['verified', 'cancelled', 'expired'],
    verified: ['in_progress', 'cancelled', 'expired'],
    in_progress: ['fulfilled', 'cancelled', 'expired'],
    fulfilled: [],
    cancelled: [],
    expired: [],
  };

export function canTransition(from: BloodRequestStatus, to: BloodRequestStatus): boolean {
  return BLOOD_REQUEST_TRANSITIONS[from].includes(to);
}

export function isOpenStatus(status: BloodRequestStatus): boolean {
  return (OPEN_BLOOD_REQUEST_STATUSES as readonly string[]).includes(status);
}

export const BLOOD_REQUEST_LIMITS = {
  minUnits: 1,
  maxUnits: 10,
  notesMax: 1000,
  /** `requiredBy` at most this far ahead. */
  requiredByMaxDays: 30,
  /** Without `requiredBy` a request expires this long after it was made. */
  defaultLifetimeHours: 72,
  /** An `unconfirmed` request expires this long after it was made if its phone code never comes. */
  confirmationWindowMinutes: 60,
  /** Codes sent for one request's confirmation, the first one included. */
  confirmationCodesMax: 3,
} as const;

const DAY_MS = 86_400_000;
const text = (min: number, max: number) => plainText(z.string().trim().min(min).max(max));

/** An ISO date-time with a zone, in the future and at most 30 days ahead (checked when parsed). */
export const requiredBySchema = z.iso
  .datetime({ offset: true, message: 'Use an ISO date and time, e.g. 2026-05-01T18:00:00+05:30.' })
  .refine((value) => Date.parse(value) > Date.now(), 'This time has already passed.')
  .refine(
    (value) => Date.parse(value) <= Date.now() + BLOOD_REQUEST_LIMITS.requiredByMaxDays * DAY_MS,
    `Give a time within the next ${BLOOD_REQUEST_LIMITS.requiredByMaxDays} days.`,
  );

const latitudeSchema = z.number().min(-90).max(90);
const longitudeSchema = z.number().min(-180).max(180);

const requestFields = {
  bloodType: z.enum(BLOOD_TYPES),
  unitsNeeded: z
    .number()
    .int()
    .min(BLOOD_REQUEST_LIMITS.minUnits)
    .max(BLOOD_REQUEST_LIMITS.maxUnits, 'At most 10 units per request.'),
  urgency: z.enum(URGENCIES),
  patientName: text(2, 100).optional(),
  hospitalName: text(2, 200),
  /** A facility of the blood bank directory (`bb-<n>`): its coordinates place the request. */
  facilityId: z.string().trim().min(1).max(64).optional(),
  city: text(2, 80),
  state: text(2, 80),
  address: text(2, 500).optional(),
  pincode: pincodeSchema.optional(),
  latitude: latitudeSchema.optional(),
  longitude: longitudeSchema.optional(),
  contactName: text(2, 100),
  /**
   * An Indian mobile, or a landline with its STD code (040-2345 6789); stored as E.164. Shown to
   * a donor only after they accept.
   */
  contactPhone: contactPhoneSchema,
  contactEmail: emailSchema.optional(),
  requiredBy: requiredBySchema.optional(),
  notes: multilineText(z.string().trim().max(BLOOD_REQUEST_LIMITS.notesMax)).optional(),
};

/**
 * Extension: the requester's language, for the messages sent to the contact given (a guest's
 * tracking link). The app sends its own; absent, English. Any interface language is accepted;
 * messages are written in en, es, hi, bn, mr, te and ta, and others get English.
 */
export const REQUEST_LANGUAGES = LANGUAGES;

const bothOrNeither = (
  body: { latitude?: number | null; longitude?: number | null },
  ctx: z.RefinementCtx,
) => {
  if ((body.latitude == null) !== (body.longitude == null)) {
    ctx.addIssue({
      code: 'custom',
      path: [body.latitude == null ? 'latitude' : 'longitude'],
      message: 'Send both latitude and longitude, or neither.',
    });
  }
};

/** `POST /api/v1/blood-requests`. */
export const createBloodRequestSchema = z
  .object({ ...requestFields, language: z.enum(REQUEST_LANGUAGES).optional() })
  .superRefine(bothOrNeither);
export type CreateBloodRequestInput = z.input<typeof createBloodRequestSchema>;
export type CreateBloodRequest = z.infer<typeof createBloodRequestSchema>;

/**
 * `PUT /api/v1/blood-requests/{id}`: details of an open request (never its status). Every field
 * is optional; `null` clears an optional one. Unknown fields are 400.
 */
export const updateBloodRequestSchema = z
  .object({
    bloodType: requestFields.bloodType.optional(),
    unitsNeeded: requestFields.unitsNeeded.optional(),
    urgency: requestFields.urgency.optional(),
    patientName: requestFields.patientName.unwrap().nullable().optional(),
    hospitalName: requestFields.hospitalName.optional(),
    facilityId: requestFields.facilityId.unwrap().nullable().optional(),
    city: requestFields.city.optional(),
    state: requestFields.state.optional(),
    address: requestFields.address.unwrap().nullable().optional(),
    pincode: pincodeSchema.nullable().optional(),
    latitude: latitudeSchema.nullable().optional(),
    longitude: longitudeSchema.nullable().optional(),
    contactName: requestFields.contactName.optional(),
    contactPhone: contactPhoneSchema.optional(),
    contactEmail: emailSchema.nullable().optional(),
    requiredBy: requiredBySchema.nullable().optional(),
    notes: requestFields.notes.unwrap().nullable().optional(),
  })
  .strict()
  .superRefine(bothOrNeither)
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change.');
export type UpdateBloodRequestInput = z.input<typeof updateBloodRequestSchema>;
export type UpdateBloodRequest = z.infer<typeof updateBloodRequestSchema>;

/** `PUT /api/v1/blood-requests/{id}/status`. */
export const updateStatusSchema = z.object({
  status: z.enum(BLOOD_REQUEST_STATUSES),
  notes: multilineText(z.string().trim().max(BLOOD_REQUEST_LIMITS.notesMax)).optional(),
});
export type UpdateBloodRequestStatus = z.infer<typeof updateStatusSchema>;

/**
 * A matched donor's answer. `withdrawn` (extension, issue #18): a donor who accepted can no
 * longer come; only from `accepted`, while the request is open. Like `declined`, never asked again.
 */
export const MATCH_RESPONSES = ['accepted', 'declined', 'withdrawn'] as const;
export type MatchResponse = (typeof MATCH_RESPONSES)[number];

/** `POST /api/v1/blood-requests/{id}/respond` (a matched donor). */
export const respondSchema = z.object({ response: z.enum(MATCH_RESPONSES) });
export type RespondToBloodRequest = z.infer<typeof respondSchema>;

export const trackingCodeParamsSchema = z.object({
  trackingCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[0-9A-Z]{4,16}$/, 'Not a tracking code.'),
});

/** `GET /api/v1/blood-requests?status=&bloodType=&urgency=&city=&page=&pageSize=`. */
export const listBloodRequestsQuerySchema = z.object({
  status: z.enum(BLOOD_REQUEST_STATUSES).optional(),
  bloodType: z.enum(BLOOD_TYPES).optional(),
  urgency: z.enum(URGENCIES).optional(),
  city: plainText(z.string().trim().min(1).max(80)).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListBloodRequestsQuery = z.infer<typeof listBloodRequestsQuerySchema>;

/** Who made a status change: their user id (null for a guest or the server itself) and role. */
export const BLOOD_REQUEST_ACTOR_ROLES = ['guest', 'donor', 'hospital', 'admin', 'system'] as const;
export const bloodRequestHistoryItemSchema = z.object({
  status: z.enum(BLOOD_REQUEST_STATUSES),
  notes: z.string().nullable(),
  /** The user id of who made the change; null for a guest or the server (expiry). */
  by: z.string().nullable(),
  /** Extension. */
  byRole: z.enum(BLOOD_REQUEST_ACTOR_ROLES),
  at: z.string(),
});
export type BloodRequestHistoryItem = z.infer<typeof bloodRequestHistoryItemSchema>;

export const matchCountsSchema = z.object({
  /** Donors told so far (all rounds). */
  notified: z.number().int(),
  accepted: z.number().int(),
  declined: z.number().int(),
});
export type MatchCounts = z.infer<typeof matchCountsSchema>;

/** Where the request's point came from; null when it has none (then no donor can be matched). */
export const LOCATION_SOURCES = ['facility', 'given', 'pincode'] as const;

/** The full request: for its owner, administrators and the hospital it names. */
export const bloodRequestSchema = z.object({
  id: z.string(),
  trackingCode: z.string(),
  status: z.enum(BLOOD_REQUEST_STATUSES),
  urgency: z.enum(URGENCIES),
  bloodType: z.enum(BLOOD_TYPES),
  unitsNeeded: z.number().int(),
  patientName: z.string().nullable(),
  hospitalName: z.string(),
  facilityId: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  address: z.string().nullable(),
  pincode: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Null once the requester erased their account (when the contact was them). */
  contactName: z.string().nullable(),
  /** Null once the requester erased their account. */
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  /**
   * Extension (issue #32 item 9): whether the contact phone was confirmed with a code sent to it.
   * `false`: a code was needed but none could be sent (the number's or the platform's codes for
   * the day were spent) and the request went to review unconfirmed: verifiers must check the
   * contact by other means. `null`: no code was asked (a hospital, an administrator, a requester
   * whose own phone is verified, or SMS confirmation not in use).
   */
  contactPhoneConfirmed: z.boolean().nullable(),
  requiredBy: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  history: z.array(bloodRequestHistoryItemSchema),
  matches: matchCountsSchema,
  /** Extension: when the request stops by itself (requiredBy, else 72 hours after creation). */
  expiresAt: z.string(),
  /** Extension: the radius of the latest matching round, km; null before matching. */
  searchRadiusKm: z.number().nullable(),
  /** Extension: where the point came from (`facility`, `given`, `pincode`), null without one. */
  locationSource: z.enum(LOCATION_SOURCES).nullable(),
  /** Extension: a demo request (the `mockData` flag); absent for every real one. */
  isDemo: z.literal(true).optional(),
});
export type BloodRequest = z.infer<typeof bloodRequestSchema>;

/**
 * A request as a matched donor sees it: what they need to decide, never the requester's contact
 * until they accept. `contactName`, `contactPhone` and `address` are null before accepting.
 */
export const matchedBloodRequestSchema = z.object({
  id: z.string(),
  status: z.enum(BLOOD_REQUEST_STATUSES),
  urgency: z.enum(URGENCIES),
  bloodType: z.enum(BLOOD_TYPES),
  unitsNeeded: z.number().int(),
  hospitalName: z.string(),
  city: z.string(),
  state: z.string(),
  /** From the donor's own point to the request's, rounded to 0.1 km. */
  distanceKm: z.number().nullable(),
  /**
   * Extension: true when the request is placed at its PIN code's point (no facility, no given
   * point), so the distance is only roughly right; the app says "approximate".
   */
  distanceApproximate: z.boolean(),
  requiredBy: z.string().nullable(),
  createdAt: z.string(),
  notifiedAt: z.string(),
  response: z.enum(MATCH_RESPONSES).nullable(),
  respondedAt: z.string().nullable(),
  /** Only after accepting (null again after withdrawing). */
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  address: z.string().nullable(),
  /** Extension, only after accepting: the hospital's PIN code, for the maps link. */
  pincode: z.string().nullable(),
  /** Extension, only after accepting: the request's point, for the maps link. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Extension, only after accepting: the ward or blood-bank notes the requester wrote. */
  notes: z.string().nullable(),
});
export type MatchedBloodRequest = z.infer<typeof matchedBloodRequestSchema>;

/** A list item or `GET /{id}`: the full request (`view: "full"`) or a matched donor's view. */
export const bloodRequestViewSchema = z.discriminatedUnion('view', [
  bloodRequestSchema.extend({ view: z.literal('full') }),
  matchedBloodRequestSchema.extend({ view: z.literal('matched') }),
]);
export type BloodRequestView = z.infer<typeof bloodRequestViewSchema>;

export const bloodRequestPageSchema = paginated(bloodRequestViewSchema);
export type BloodRequestPage = z.infer<typeof bloodRequestPageSchema>;

/** `POST /api/v1/blood-requests` reply. */
export const createBloodRequestResultSchema = z.object({
  /**
   * The request made, or the open duplicate when the caller may see it (its owner, an
   * administrator, the hospital it names). `null` for a duplicate anyone else sent: nothing the
   * caller did not send is handed back; its tracking link goes to the contact on file instead.
   */
  request: bloodRequestSchema.nullable(),
  /** Extension: true when an open request with the same phone, blood type and hospital exists. */
  duplicate: z.boolean(),
});
export type CreateBloodRequestResult = z.infer<typeof createBloodRequestResultSchema>;

/** `POST /api/v1/blood-requests/track/{trackingCode}/confirm`: the code sent by SMS. */
export const confirmBloodRequestSchema = z.object({
  code: z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `The code has ${OTP_LENGTH} digits.`),
});
export type ConfirmBloodRequest = z.infer<typeof confirmBloodRequestSchema>;

export const bloodRequestResultSchema = z.object({ request: bloodRequestViewSchema });
export const fullBloodRequestResultSchema = z.object({ request: bloodRequestSchema });

/**
 * `GET /api/v1/blood-requests/track/{trackingCode}` (anyone with the code): progress only, no
 * personal data — no patient or requester name, phone, e-mail, address, notes or donor surname.
 */
export const trackingSchema = z.object({
  trackingCode: z.string(),
  status: z.enum(BLOOD_REQUEST_STATUSES),
  urgency: z.enum(URGENCIES),
  bloodType: z.enum(BLOOD_TYPES),
  unitsNeeded: z.number().int(),
  hospitalName: z.string(),
  city: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
  searchRadiusKm: z.number().nullable(),
  matches: matchCountsSchema,
  /** First names of the donors who accepted (and have not donated or withdrawn). */
  donorsOnTheirWay: z.array(z.object({ firstName: z.string() })),
  /** Status changes, without notes or who made them. */
  history: z.array(z.object({ status: z.enum(BLOOD_REQUEST_STATUSES), at: z.string() })),
  /**
   * Extension, while `unconfirmed`: the contact phone the code went to, masked (last digits
   * only), and when the newest code stops working. Null otherwise.
   */
  confirmation: z
    .object({ phoneHint: z.string(), codeExpiresAt: z.string().nullable() })
    .nullable(),
});
export type BloodRequestTracking = z.infer<typeof trackingSchema>;

/** `POST /{id}/respond` reply: the donor's view, with the contact after accepting. */
export const respondResultSchema = z.object({ request: matchedBloodRequestSchema });
export type RespondResult = z.infer<typeof respondResultSchema>;

/** `GET /{id}/donors` (the hospital named, administrators): accepted donors, to reach them. */
export const acceptedDonorSchema = z.object({
  donorId: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  bloodType: z.enum(BLOOD_TYPES).nullable(),
  distanceKm: z.number().nullable(),
  respondedAt: z.string().nullable(),
  /** A donation linked to this request was recorded for the donor. */
  donated: z.boolean(),
});
export type AcceptedDonor = z.infer<typeof acceptedDonorSchema>;
export const acceptedDonorsResultSchema = z.object({ items: z.array(acceptedDonorSchema) });
