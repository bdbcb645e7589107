import { registerBody } from '../auth-helpers';
import { HEALTHY_ANSWERS } from '../admin-helpers';
import { nextPhone, requestBody } from '../blood-request-helpers';
import { multipart, SAMPLE_FILES, type SignedInUser } from '../donor-helpers';
import { ROLES, type Role, type World } from './world';

/**
 * Issue #9, "Authorisation matrix": every route the server registers, called as each role, is
 * checked against this declared table of who may call it. A route missing from the table fails.
 *
 * - `allow`: the call must succeed (2xx, or a status listed in `ok` when the resource's state
 *   decides, e.g. 409 for a second cancellation): never 401 or 403, never 5xx.
 * - `deny`: 401 UNAUTHENTICATED for the anonymous caller, 403 FORBIDDEN for a signed-in one.
 * - `hidden`: 404 NOT_FOUND where the API deliberately does not reveal that a resource exists
 *   (another user's notification; a blood request the donor was not asked about).
 *
 * Every `{id}` in a path is another user's resource for all callers but its owner
 * (`approvedDonor`, see world.ts), so a missing ownership check (IDOR) shows up as an `allow`.
 * Bodies are valid for the allowed callers, so what decides the answer is who calls, not what
 * they send (validation runs before the preHandler that checks the token).
 */
export type Expectation = 'allow' | 'deny' | 'hidden';
export type Access = Record<Role, Expectation>;

export interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  payload?: object | string | Buffer;
  headers?: Record<string, string>;
  /** Calls as this account instead of the role's (e.g. a fresh owner for destructive calls). */
  as?: SignedInUser;
  /**
   * Harnesses that pick other callers use `as` for them too: the call ends the caller's session
   * (sign-out raises the token version), so it must never run as the world's shared accounts.
   */
  asAnyCaller?: boolean;
}

export interface Rule {
  access: Access;
  call?: (world: World, role: Role) => Call | Promise<Call>;
  /** Statuses besides 2xx that an allowed call may get (state-dependent answers). */
  ok?: number[];
  /** Which variant of the route this rule covers (when a route has several). */
  variant?: string;
}

const A = 'allow' as const;
const D = 'deny' as const;
const H = 'hidden' as const;

/** In ROLES order: anonymous, pendingDonor, approvedDonor (owner), otherDonor, hospital, admin. */
const access = (...values: Expectation[]): Access =>
  Object.fromEntries(ROLES.map((role, i) => [role, values[i]!])) as Access;

const PUBLIC = access(A, A, A, A, A, A);
const SIGNED_IN = access(D, A, A, A, A, A);
const ADMIN = access(D, D, D, D, D, A);
const STAFF = access(D, D, D, D, A, A);
const OWNER_OR_ADMIN = access(D, D, A, D, D, A);
const OWNER_ONLY = access(D, D, A, D, D, D);
const DONORS = access(D, A, A, A, D, D);
/** The hospital account of the centre in the path (or its own centre): nobody else. */
const CENTRE = access(D, D, D, D, A, D);
/** Hospital accounts only (their own registration). */
const HOSPITAL_ONLY = access(D, D, D, D, A, D);

const owner = (w: World) => ({ id: w.callers.approvedDonor.row.id });
let sequence = 0;
const unique = () => (sequence += 1);

/** A fresh victim for calls that destroy their subject; the owner role calls as the victim. */
const freshOwner = async (w: World, role: Role, payload: (victim: SignedInUser) => object) => {
  const victim = await w.freshDonor();
  return {
    params: { id: victim.row.id },
    payload: payload(victim),
    ...(role === 'approvedDonor' ? { as: victim } : {}),
  };
};

const pushSubscription = () => ({
  subscription: {
    endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${unique()}`,
    expirationTime: null,
    keys: {
      p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
      auth: Buffer.alloc(16, 3).toString('base64url'),
    },
  },
});

export const TABLE: Record<string, Rule | Rule[]> = {
  // Health and configuration
  'GET /healthz': { access: PUBLIC },
  'GET /readyz': { access: PUBLIC },
  'GET /api/v1/config': { access: PUBLIC },
  'GET /api/v1/admin/flags': { access: ADMIN },
  'PUT /api/v1/admin/flags': { access: ADMIN, call: () => ({ payload: { bloodRequests: true } }) },

  // Auth: public by nature; each call gets its own e-mail so per-address limits never answer.
  'POST /api/v1/auth/register': {
    access: PUBLIC,
    call: () => ({ payload: registerBody({ phone: nextPhone() }) }),
  },
  'POST /api/v1/auth/login': {
    access: PUBLIC,
    call: (w) => ({
      payload: { email: w.loginAccount.email, password: w.loginAccount.password },
    }),
  },
  'POST /api/v1/auth/login-otp': {
    access: PUBLIC,
    call: () => ({ payload: { email: `otp-${unique()}@example.org` } }),
  },
  'POST /api/v1/auth/refresh': {
    access: PUBLIC,
    call: (w) => ({ payload: { refreshToken: w.loginAccount.refreshToken } }),
  },
  'POST /api/v1/auth/logout': {
    access: PUBLIC,
    // Signing out ends the caller's access tokens (issue #14), so the signed-in roles sign out
    // a throwaway account of their own instead of the world's.
    call: async (w, role) => ({
      payload: {},
      ...(role === 'anonymous' ? {} : { as: await w.freshDonor(), asAnyCaller: true }),
    }),
  },
  'GET /api/v1/auth/me': { access: SIGNED_IN },
  'POST /api/v1/auth/check-email': {
    access: PUBLIC,
    call: () => ({ payload: { email: `free-${unique()}@example.org` } }),
  },
  'POST /api/v1/auth/check-phone': {
    access: PUBLIC,
    call: () => ({ payload: { phone: nextPhone() } }),
  },
  'POST /api/v1/auth/reset-password': {
    access: PUBLIC,
    call: () => ({ payload: { email: `reset-${unique()}@example.org` } }),
  },

  // Users: the owner is approvedDonor
  'GET /api/v1/users/:id': { access: OWNER_OR_ADMIN, call: (w) => ({ params: owner(w) }) },
  'PATCH /api/v1/users/:id': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: owner(w), payload: { city: 'Secunderabad' } }),
  },
  'POST /api/v1/users/:id/password': {
    access: OWNER_ONLY,
    call: (w, role) =>
      freshOwner(w, role, (victim) => ({
        currentPassword: victim.password,
        newPassword: 'a brand new passphrase',
      })),
  },
  'POST /api/v1/users/:id/phone/confirm': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: owner(w), payload: { code: '000000' } }),
    // No change is pending, so an allowed caller gets 400 INVALID_PHONE_CODE.
    ok: [400],
  },
  'POST /api/v1/users/:id/phone/verification': {
    access: OWNER_ONLY,
    call: (w) => ({ params: owner(w) }),
    // No SMS provider in the harness: an allowed caller gets 409 SMS_UNAVAILABLE (or CONFLICT).
    ok: [409],
  },
  'POST /api/v1/users/:id/phone/verify': {
    access: OWNER_ONLY,
    call: (w) => ({ params: owner(w), payload: { code: '000000' } }),
    // No code was sent, so an allowed caller gets 400 INVALID_PHONE_CODE.
    ok: [400],
  },
  'GET /api/v1/users/:id/activity': { access: OWNER_OR_ADMIN, call: (w) => ({ params: owner(w) }) },
  'GET /api/v1/users/:id/export': { access: OWNER_OR_ADMIN, call: (w) => ({ params: owner(w) }) },
  'DELETE /api/v1/users/:id': {
    access: OWNER_OR_ADMIN,
    call: (w, role) =>
      freshOwner(w, role, (victim) =>
        role === 'approvedDonor' ? { password: victim.password } : {},
      ),
  },
  'GET /api/v1/users/:id/questionnaire': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: owner(w) }),
  },
  'PUT /api/v1/users/:id/questionnaire': {
    access: OWNER_ONLY,
    call: (w) => ({ params: owner(w), payload: { answers: HEALTHY_ANSWERS } }),
  },
  'GET /api/v1/users/:id/onboarding-status': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: owner(w) }),
  },
  'GET /api/v1/users/:id/availability': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: owner(w) }),
  },
  'PUT /api/v1/users/:id/availability': {
    access: OWNER_ONLY,
    call: (w) => ({ params: owner(w), payload: { available: true } }),
  },
  'GET /api/v1/users/:id/stats': { access: OWNER_OR_ADMIN, call: (w) => ({ params: owner(w) }) },
  'GET /api/v1/users/:id/donations': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: owner(w) }),
  },
  'POST /api/v1/users/:id/donations': {
    access: OWNER_ONLY,
    call: (w) => ({
      params: owner(w),
      payload: { donatedAt: '2023-01-15', place: 'Red Cross Blood Bank' },
    }),
  },

  // Documents
  'POST /api/v1/documents': {
    access: DONORS,
    call: () => {
      const body = multipart({ type: 'address_proof' }, [
        { filename: 'bill.pdf', contentType: 'application/pdf', data: SAMPLE_FILES.pdf },
      ]);
      return { payload: body.payload, headers: body.headers };
    },
  },
  'GET /api/v1/documents/list': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ query: { userId: w.callers.approvedDonor.row.id } }),
  },
  'GET /api/v1/documents/:id/file': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: { id: w.documentId } }),
  },
  'PUT /api/v1/documents/:id/verify': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.documentId }, payload: { verified: true } }),
  },

  // Donations and certificates
  'POST /api/v1/donations': {
    access: STAFF,
    // A hospital records at its own facility (no other place), and each caller's donation is
    // outside the other's interval (issue #32 item 17): both are 201.
    call: (w, role) => ({
      payload: {
        donorId: w.callers.otherDonor.row.id,
        ...(role === 'hospital'
          ? { donatedAt: '2023-03-01' }
          : { donatedAt: '2023-09-01', place: 'Matrix Blood Bank' }),
      },
    }),
  },
  'GET /api/v1/donations/:id/certificate': {
    access: OWNER_OR_ADMIN,
    call: (w) => ({ params: { id: w.donationId } }),
  },
  'GET /api/v1/certificates/:number': {
    access: PUBLIC,
    call: (w) => ({ params: { number: w.certificateNumber } }),
  },

  // Notifications: the caller's own; another user's notification is hidden (404)
  'GET /api/v1/notifications': { access: SIGNED_IN },
  'GET /api/v1/notifications/channels': { access: SIGNED_IN },
  'PUT /api/v1/notifications/channels/:channel': {
    access: SIGNED_IN,
    call: () => ({ params: { channel: 'sms' }, payload: { consent: false, language: 'en' } }),
  },
  'GET /api/v1/admin/notifications/channels': { access: ADMIN },
  // An SMS short link: a redirect for anyone (an unknown code goes to the home page).
  'GET /r/:code': { access: PUBLIC, call: () => ({ params: { code: 'Ab3dE9' } }), ok: [302] },
  'POST /api/v1/notifications/:id/read': {
    access: access(D, H, A, H, H, H),
    call: (w) => ({ params: { id: w.notificationId } }),
  },
  'POST /api/v1/notifications/read-all': { access: SIGNED_IN },
  'POST /api/v1/notifications/push-subscription': {
    access: SIGNED_IN,
    call: () => ({ payload: pushSubscription() }),
  },
  'DELETE /api/v1/notifications/push-subscription': {
    access: SIGNED_IN,
    call: () => ({
      payload: { subscription: { endpoint: 'https://fcm.googleapis.com/fcm/send/x' } },
    }),
  },

  // Administrators: `{id}` is subjectDonor / subjectHospital, never a caller
  'GET /api/v1/admin/donors': { access: ADMIN },
  'GET /api/v1/admin/donors/pending': { access: ADMIN },
  'GET /api/v1/admin/donors/stats': { access: ADMIN },
  'GET /api/v1/admin/donors/:id/details': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectDonorId } }),
  },
  'POST /api/v1/admin/donors/:id/approve': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectDonorId } }),
  },
  'POST /api/v1/admin/donors/:id/suspend': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectDonorId }, payload: { reason: 'Matrix check' } }),
  },
  'POST /api/v1/admin/donors/:id/reactivate': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectDonorId } }),
  },
  'POST /api/v1/admin/donors/:id/reject': {
    access: ADMIN,
    // The subject is approved by now: rejecting it is not a valid move.
    ok: [409],
    call: (w) => ({ params: { id: w.subjectDonorId }, payload: { reason: 'Matrix check' } }),
  },
  'PUT /api/v1/admin/donors/:id/questionnaire/review': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectDonorId }, payload: { decision: 'accepted' } }),
  },
  'POST /api/v1/admin/export/donors': { access: ADMIN, call: () => ({ payload: {} }) },
  'GET /api/v1/admin/activity/recent': { access: ADMIN },
  'GET /api/v1/admin/requests/summary': { access: ADMIN },
  'GET /api/v1/admin/email/status': { access: ADMIN },
  'POST /api/v1/admin/email/test': {
    access: ADMIN,
    call: () => ({ payload: { email: 'ops@example.org' } }),
  },
  'GET /api/v1/admin/notifications/settings': { access: ADMIN },
  'PUT /api/v1/admin/notifications/settings': {
    access: ADMIN,
    call: () => ({ payload: { matchRadiusKm: 25 } }),
  },
  'POST /api/v1/admin/hospitals': {
    access: ADMIN,
    call: () => ({
      payload: {
        name: `Matrix Clinic ${unique()}`,
        email: `clinic-${unique()}@example.org`,
        phone: nextPhone(),
        city: 'Pune',
        state: 'Maharashtra',
      },
    }),
  },
  'GET /api/v1/admin/hospitals': { access: ADMIN },
  'GET /api/v1/admin/hospitals/:id': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectHospitalId } }),
  },
  'POST /api/v1/admin/hospitals/:id/disable': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectHospitalId } }),
  },
  'POST /api/v1/admin/hospitals/:id/enable': {
    access: ADMIN,
    call: (w) => ({ params: { id: w.subjectHospitalId } }),
  },
  // The world's hospital is verified (an invitation): neither move applies to it (409).
  'POST /api/v1/admin/hospitals/:id/verify': {
    access: ADMIN,
    ok: [409],
    call: (w) => ({ params: { id: w.subjectHospitalId } }),
  },
  'POST /api/v1/admin/hospitals/:id/reject': {
    access: ADMIN,
    ok: [409],
    call: (w) => ({
      params: { id: w.subjectHospitalId },
      payload: { reason: 'The licence does not match.' },
    }),
  },
  // Hospital self-registration (issue #17): 404 while hospitalRegistration is off (the world's
  // default); with it on, hospital-registration.test.ts.
  'POST /api/v1/hospital-registrations': {
    access: PUBLIC,
    ok: [404],
    call: () => ({
      payload: {
        name: `Matrix Blood Centre ${unique()}`,
        licenceNumber: 'MH/28C/100/2010',
        facilityId: 'bb-1',
        contactName: 'Asha Kulkarni',
        email: `centre-${unique()}@example.org`,
        phone: nextPhone(),
        password: 'saffron lantern quietly 42',
      },
    }),
  },
  'GET /api/v1/hospital-registrations/me': { access: HOSPITAL_ONLY, ok: [404] },
  'POST /api/v1/hospital-registrations/me/email/code': { access: HOSPITAL_ONLY, ok: [404] },
  'POST /api/v1/hospital-registrations/me/email/confirm': {
    access: HOSPITAL_ONLY,
    ok: [404],
    call: () => ({ payload: { code: '123456' } }),
  },
  'POST /api/v1/hospital-registrations/me/phone/code': { access: HOSPITAL_ONLY, ok: [404] },
  'POST /api/v1/hospital-registrations/me/phone/confirm': {
    access: HOSPITAL_ONLY,
    ok: [404],
    call: () => ({ payload: { code: '123456' } }),
  },
  'GET /api/v1/analytics/dashboard': { access: ADMIN },
  'GET /api/v1/reports/monthly': { access: ADMIN },
  'GET /api/v1/reports/monthly.csv': { access: ADMIN },
  'GET /api/v1/reports/monthly.pdf': { access: ADMIN },
  'GET /api/v1/referrals/me': { access: DONORS },
  'GET /api/v1/admin/referrals': { access: ADMIN },

  // Blood bank directory (public)
  'GET /api/v1/public/facilities/search': {
    access: PUBLIC,
    call: () => ({ query: { q: 'blood' } }),
  },
  'GET /api/v1/public/facilities/directory': { access: PUBLIC },
  'GET /api/v1/public/facilities/nearby': {
    access: PUBLIC,
    call: () => ({ query: { lat: '17.385', lng: '78.4867' } }),
  },
  'GET /api/v1/public/facilities/facets': { access: PUBLIC },
  'GET /api/v1/public/places': {
    access: PUBLIC,
    call: () => ({ query: { q: 'secunderabad' } }),
  },
  'GET /api/v1/public/facilities/:id': {
    access: PUBLIC,
    call: (w) => ({ params: { id: w.facilityId } }),
  },

  // Blood stock (issue #17): the world's facility is the hospital account's own centre.
  'GET /api/v1/public/facilities/:id/stock': {
    access: PUBLIC,
    call: (w) => ({ params: { id: w.facilityId } }),
  },
  // Issue #18: the emergency form sent before the app's script arrived. It reads no sign-in (the
  // app signs in with a bearer token, never a cookie): anyone may send it from the site's own
  // page (issue #32 item 8), and the browser is sent on to the tracking page (303).
  'POST /emergency': {
    access: PUBLIC,
    ok: [303],
    call: () => ({
      payload: new URLSearchParams({
        language: 'en',
        bloodType: 'O-',
        unitsNeeded: '1',
        urgency: 'urgent',
        patientName: 'Lakshmi Devi',
        hospitalName: 'Gandhi Hospital',
        state: 'Telangana',
        city: 'Secunderabad',
        contactName: 'Ravi Kumar',
        contactPhone: nextPhone(),
      }).toString(),
      // Sent by the site's own page (issue #32 item 8: another site's form is refused).
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
    }),
  },
  'GET /api/v1/public/stock/availability': {
    access: PUBLIC,
    call: () => ({ query: { bloodType: 'O-', lat: '17.385', lng: '78.4867' } }),
  },
  // A hospital account linked to a blood centre only: administrators have no centre of their own.
  'GET /api/v1/hospital/stock': { access: CENTRE },
  'PUT /api/v1/facilities/:id/stock': {
    access: CENTRE,
    call: (w) => ({
      params: { id: w.facilityId },
      payload: { lines: [{ bloodType: 'O-', component: 'prbc', units: 4 }] },
    }),
  },
  // 409 while the centre has published nothing yet (the rules run in no fixed order).
  'POST /api/v1/facilities/:id/stock/confirm': {
    access: CENTRE,
    call: (w) => ({ params: { id: w.facilityId } }),
    ok: [409],
  },
  'GET /api/v1/facilities/:id/stock/history': {
    access: STAFF,
    call: (w) => ({ params: { id: w.facilityId } }),
  },
  'GET /api/v1/admin/stock/summary': { access: ADMIN },
  'GET /api/v1/admin/stock/summary.csv': { access: ADMIN },

  // Blood requests
  'POST /api/v1/blood-requests': [
    { access: PUBLIC, call: () => ({ payload: requestBody() }) },
    {
      // What a prober knows (phone, blood type, hospital, city): the privacy matrix checks that
      // the reply carries none of the guest's request to anyone but an administrator.
      variant: "a duplicate of a guest's open request",
      access: PUBLIC,
      call: (w) => {
        const { contactPhone, bloodType, hospitalName, city, state } = w.guestRequest.body;
        return {
          payload: requestBody({ contactPhone, bloodType, hospitalName, city, state }),
        };
      },
    },
  ],
  // Anyone holding the tracking code (the guest's only key); the request is not unconfirmed: 409.
  'POST /api/v1/blood-requests/track/:trackingCode/confirm': {
    access: PUBLIC,
    call: (w) => ({
      params: { trackingCode: w.donorRequest.trackingCode },
      payload: { code: '000000' },
    }),
    ok: [409],
  },
  'POST /api/v1/blood-requests/track/:trackingCode/confirm/resend': {
    access: PUBLIC,
    call: (w) => ({ params: { trackingCode: w.donorRequest.trackingCode } }),
    ok: [409],
  },
  'GET /api/v1/blood-requests/track/:trackingCode': {
    access: PUBLIC,
    call: (w) => ({ params: { trackingCode: w.donorRequest.trackingCode } }),
  },
  'GET /api/v1/blood-requests': { access: SIGNED_IN },
  'GET /api/v1/blood-requests/:id': [
    {
      variant: "a donor's own request",
      access: OWNER_OR_ADMIN,
      call: (w) => ({ params: { id: w.donorRequest.id } }),
    },
    {
      variant: "the hospital's own request, approvedDonor matched",
      access: access(D, D, A, D, A, A),
      call: (w) => ({ params: { id: w.hospitalRequest.id } }),
    },
  ],
  'PUT /api/v1/blood-requests/:id': [
    {
      variant: "a donor's own request",
      access: OWNER_OR_ADMIN,
      call: (w) => ({ params: { id: w.donorRequest.id }, payload: { notes: 'Checked by matrix' } }),
    },
    {
      variant: "the hospital's own request, approvedDonor matched",
      access: STAFF,
      call: (w) => ({
        params: { id: w.hospitalRequest.id },
        payload: { notes: 'Checked by matrix' },
      }),
    },
  ],
  'DELETE /api/v1/blood-requests/:id': [
    {
      variant: "a donor's own request",
      access: OWNER_OR_ADMIN,
      ok: [409],
      call: (w) => ({ params: { id: w.donorRequestToCancel.id } }),
    },
    {
      variant: "the hospital's own request",
      access: STAFF,
      ok: [409],
      call: (w) => ({ params: { id: w.hospitalRequestToCancel.id } }),
    },
  ],
  'PUT /api/v1/blood-requests/:id/status': [
    {
      variant: "a donor's request, not naming the hospital",
      access: ADMIN,
      call: (w) => ({ params: { id: w.donorRequest.id }, payload: { status: 'verified' } }),
    },
    {
      variant: "the hospital's own request",
      access: STAFF,
      ok: [409],
      call: (w) => ({ params: { id: w.hospitalRequest.id }, payload: { status: 'verified' } }),
    },
  ],
  'POST /api/v1/blood-requests/:id/respond': {
    // Donors who were not asked get 404, as for an unknown request.
    access: access(D, H, A, H, D, D),
    call: (w) => ({ params: { id: w.hospitalRequest.id }, payload: { response: 'accepted' } }),
  },
  'GET /api/v1/blood-requests/:id/donors': [
    {
      variant: "a donor's request, not naming the hospital",
      access: ADMIN,
      call: (w) => ({ params: { id: w.donorRequest.id } }),
    },
    {
      variant: "the hospital's own request",
      access: STAFF,
      call: (w) => ({ params: { id: w.hospitalRequest.id } }),
    },
  ],

  // Education and policy pages (public)
  'GET /api/public/education/content': { access: PUBLIC },
  'GET /api/public/education/content/:slug': {
    access: PUBLIC,
    call: (w) => ({ params: { slug: w.article.slug } }),
  },
  'POST /api/public/education/content/:id/download': {
    access: PUBLIC,
    call: (w) => ({ params: { id: w.article.id } }),
  },
  'GET /api/public/education/featured': { access: PUBLIC },
  'GET /api/public/education/popular': { access: PUBLIC },
  'GET /api/public/education/categories': { access: PUBLIC },
  'GET /api/public/education/faqs': { access: PUBLIC },
  'GET /api/public/education/faqs/:id': {
    access: PUBLIC,
    call: (w) => ({ params: { id: w.faqId } }),
  },
  'POST /api/public/education/faqs/:id/feedback': {
    access: PUBLIC,
    call: (w) => ({ params: { id: w.faqId }, payload: { helpful: true } }),
  },
  'GET /api/public/pages/:slug': { access: PUBLIC, call: () => ({ params: { slug: 'privacy' } }) },
  'POST /api/v1/contact': {
    access: PUBLIC,
    call: () => ({
      payload: {
        name: 'Matrix Tester',
        email: 'tester@example.org',
        subject: 'Authorisation check',
        message: 'Checking who may send this form.',
      },
    }),
  },

  // Public home page figures and the web app's error and performance reports
  'GET /api/v1/public/stats': { access: PUBLIC },
  'POST /api/v1/client-logs': {
    access: PUBLIC,
    call: () => ({
      payload: {
        entries: [{ level: 'error', message: 'Matrix check', timestamp: new Date().toISOString() }],
      },
    }),
  },
  'GET /api/v1/admin/client-logs': { access: ADMIN },
  // 404 while debugMode is off (the world's default); 200 with it on (debug.test.ts).
  'GET /api/v1/admin/debug': { access: ADMIN, ok: [404] },

  // The API documentation and the web app's files are public by design (API.md).
  'GET /api/docs': { access: PUBLIC },
  'GET /api/docs/json': { access: PUBLIC },
  'GET /api/docs/yaml': { access: PUBLIC },
  // Redirects to the UI at /api/docs/.
  'GET /api/docs/static/index.html': { access: PUBLIC, ok: [302] },
  'GET /api/docs/static/swagger-initializer.js': { access: PUBLIC },
  'GET /api/docs/static/*': { access: PUBLIC, call: () => ({ params: { '*': 'swagger-ui.css' } }) },
  'GET /*': { access: PUBLIC, call: () => ({ params: { '*': 'robots.txt' } }) },
};

/** Every rule of the table with its route key (a route with variants has several). */
export const RULES = Object.entries(TABLE).flatMap(([key, entry]) =>
  (Array.isArray(entry) ? entry : [entry]).map((rule) => ({ key, rule })),
);
