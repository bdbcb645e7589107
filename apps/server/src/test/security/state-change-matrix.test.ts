import { BLOOD_REQUEST_STATUSES, canTransition, type BloodRequestStatus } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bloodRequestMatches,
  bloodRequests,
  hospitals,
  notifications,
  questionnaires,
  users,
} from '../../db/schema';
import { REVIEWED_FIELDS } from '../../features/blood-requests/blood-requests.service';
import {
  makeDonor,
  makeHospital,
  nextPhone,
  northOfHyderabad,
  requestBody,
} from '../blood-request-helpers';
import { bearer, loginAs } from '../auth-helpers';
import { healthyAnswers, signIn, type SignedInUser } from '../donor-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { createTestDatabase, type TestDatabase } from '../test-database';
import { seedFacility } from '../stock-helpers';

/**
 * Issue #14, "state-change matrix": for each write to a blood request, which callers may change
 * which fields in which states, proved by reading the stored row back after every call (not by
 * the status code alone). One request per cell, made in the state the cell names.
 */
let testDb: TestDatabase;
let subject: TestApp;
let cast: {
  owner: SignedInUser;
  admin: SignedInUser;
  hospitalInScope: SignedInUser;
  hospitalElsewhere: SignedInUser;
  otherDonor: SignedInUser;
  matchedDonor: SignedInUser;
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp({
    database: testDb.database,
    // The cast signs in from inject's default address, many times: that address is exempt.
    env: { RATE_LIMIT_ALLOWLIST: '203.0.113.10' },
    services: { backgroundJobs: false },
  });
  const { app } = subject;
  const db = testDb.database.db;
  cast = {
    owner: await signIn(app, db, { role: 'donor', fullName: 'Owner Requester' }),
    admin: await signIn(app, db, { role: 'admin' }),
    hospitalInScope: await makeHospital(app, db, { name: 'Gandhi Hospital' }),
    hospitalElsewhere: await makeHospital(app, db, { name: 'Apollo Hospital' }),
    otherDonor: await signIn(app, db, { role: 'donor' }),
    matchedDonor: await makeDonor(app, db, { km: 5 }),
  };
}, 60_000);

afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;
let addressSequence = 0;

function call(method: 'POST' | 'PUT' | 'DELETE', url: string, user?: SignedInUser, body?: object) {
  addressSequence += 1;
  return subject.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    payload: body,
    remoteAddress: `100.64.${(addressSequence >> 8) & 255}.${addressSequence & 255}`,
  });
}

const stored = async (id: string) =>
  (await db().select().from(bloodRequests).where(eq(bloodRequests.id, id)))[0]!;

/**
 * The owner's request, brought to `state` the way the product does (expired: by the clock). From
 * `verified` on, a donor of its own was matched to it (and accepted, from `in_progress` on): the
 * "matchedDonor" of the cell.
 */
async function requestIn(
  state: BloodRequestStatus,
): Promise<{ id: string; matched?: SignedInUser }> {
  const res = await call(
    'POST',
    '/api/v1/blood-requests',
    cast.owner,
    requestBody({ contactPhone: nextPhone(), hospitalName: 'Gandhi Hospital' }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.request.id as string;
  const to = (status: string) =>
    call('PUT', `/api/v1/blood-requests/${id}/status`, cast.admin, { status });
  if (state === 'pending') return { id };
  if (state === 'unconfirmed') {
    // As the code flow leaves a request whose phone code has not come back (issue #16; the
    // flow itself is tested in blood-requests/request-confirmation.test.ts).
    await db().update(bloodRequests).set({ status: 'unconfirmed' }).where(eq(bloodRequests.id, id));
    return { id };
  }
  if (state === 'cancelled') {
    expect((await to('cancelled')).statusCode).toBe(200);
    return { id };
  }
  if (state === 'expired') {
    await db()
      .update(bloodRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(bloodRequests.id, id));
    await subject.app.services.bloodRequests.expireDue();
    expect((await stored(id)).status).toBe('expired');
    return { id };
  }
  // Fairness tells a donor of a few requests a week: each request gets a donor of its own.
  const matched = await makeDonor(subject.app, db(), { km: 5 });
  expect((await to('verified')).statusCode).toBe(200);
  if (state === 'verified') return { id, matched };
  const accept = await call('POST', `/api/v1/blood-requests/${id}/respond`, matched, {
    response: 'accepted',
  });
  expect(accept.statusCode, accept.body).toBe(200);
  if (state === 'in_progress') return { id, matched };
  expect((await to('fulfilled')).statusCode).toBe(200);
  return { id, matched };
}

type Caller = keyof typeof cast | 'anonymous';
const CALLERS: Caller[] = [
  'anonymous',
  'owner',
  'admin',
  'hospitalInScope',
  'hospitalElsewhere',
  'otherDonor',
  'matchedDonor',
];
const OPEN: BloodRequestStatus[] = ['pending', 'verified', 'in_progress'];
const userOf = (caller: Caller, matched?: SignedInUser) =>
  caller === 'anonymous'
    ? undefined
    : caller === 'matchedDonor' && matched
      ? matched
      : cast[caller];

/** One representative change per kind of field: reviewed (each group) and free. */
const CHANGES: { field: string; body: () => Record<string, unknown>; reviewed: boolean }[] = [
  { field: 'contactPhone', body: () => ({ contactPhone: nextPhone() }), reviewed: true },
  { field: 'unitsNeeded', body: () => ({ unitsNeeded: 7 }), reviewed: true },
  {
    field: 'hospitalName',
    body: () => ({ hospitalName: 'Gandhi General Hospital' }),
    reviewed: true,
  },
  { field: 'latitude', body: () => ({ ...northOfHyderabad(9) }), reviewed: true },
  // Issue #32 item 12: donors who accepted read the notes, so a verifier reads them first.
  { field: 'notes', body: () => ({ notes: 'Ward 4' }), reviewed: true },
  {
    field: 'requiredBy',
    body: () => ({ requiredBy: new Date(Date.now() + 2 * 86_400_000).toISOString() }),
    reviewed: false,
  },
];

/** What the matrix expects of `caller` changing `change` on a request in `state`. */
function expected(caller: Caller, state: BloodRequestStatus, reviewed: boolean) {
  if (caller === 'anonymous') return { status: 401, changes: false, becomes: state };
  // Donors asked about a request read it; they never change it. Other hospitals never see it.
  if (caller === 'otherDonor' || caller === 'matchedDonor' || caller === 'hospitalElsewhere') {
    return { status: 403, changes: false, becomes: state };
  }
  if (!OPEN.includes(state)) return { status: 409, changes: false, becomes: state };
  const backToReview = caller === 'owner' && reviewed && state !== 'pending';
  return { status: 200, changes: true, becomes: backToReview ? 'pending' : state };
}

describe('state-change matrix: PUT /api/v1/blood-requests/{id}', () => {
  it('names every reviewed field of the OpenAPI description in the rule', () => {
    expect([...REVIEWED_FIELDS].sort()).toEqual(
      [
        'address',
        'bloodType',
        'city',
        'contactEmail',
        'contactName',
        'contactPhone',
        'facilityId',
        'hospitalName',
        'latitude',
        'longitude',
        'notes',
        'patientName',
        'pincode',
        'state',
        'unitsNeeded',
        'urgency',
      ].sort(),
    );
  });

  for (const state of BLOOD_REQUEST_STATUSES) {
    it(`in state ${state}: who may change which field, and what becomes of the status`, async () => {
      const failures: string[] = [];
      for (const caller of CALLERS) {
        for (const change of CHANGES) {
          const { id, matched } = await requestIn(state);
          const before = await stored(id);
          const body = change.body();
          const res = await call(
            'PUT',
            `/api/v1/blood-requests/${id}`,
            userOf(caller, matched),
            body,
          );
          const after = await stored(id);
          const want = expected(caller, state, change.reviewed);
          const field = change.field as keyof typeof after;
          const changed = JSON.stringify(after[field]) !== JSON.stringify(before[field]);
          const label = `${caller} changing ${change.field} in ${state}`;
          if (res.statusCode !== want.status) {
            failures.push(`${label}: status ${res.statusCode}, expected ${want.status}`);
          }
          if (changed !== want.changes) {
            failures.push(`${label}: the field ${changed ? 'changed' : 'did not change'}`);
          }
          if (after.status !== want.becomes) {
            failures.push(`${label}: became ${after.status}, expected ${want.becomes}`);
          }
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }
});

describe('state-change matrix: PUT /api/v1/blood-requests/{id}/status', () => {
  /** Administrators and the hospital in scope move a request along the state machine only. */
  it('moves a request only for a verifier, and only along the state machine', async () => {
    const failures: string[] = [];
    for (const from of BLOOD_REQUEST_STATUSES) {
      for (const to of BLOOD_REQUEST_STATUSES) {
        for (const caller of CALLERS) {
          const { id, matched } = await requestIn(from);
          const res = await call(
            'PUT',
            `/api/v1/blood-requests/${id}/status`,
            userOf(caller, matched),
            {
              status: to,
            },
          );
          const after = await stored(id);
          const verifier = caller === 'admin' || caller === 'hospitalInScope';
          // Only its phone code confirms an unconfirmed request, and it expires by itself:
          // staff move nothing to or from `unconfirmed`.
          const byStaff = from !== 'unconfirmed' && to !== 'unconfirmed';
          const allowed = verifier && byStaff && canTransition(from, to);
          const wantStatus = caller === 'anonymous' ? 401 : !verifier ? 403 : allowed ? 200 : 409;
          // A donor who accepted earlier keeps a newly verified request in progress.
          const wantState = allowed ? to : from;
          const label = `${caller}: ${from} → ${to}`;
          if (res.statusCode !== wantStatus) {
            failures.push(`${label}: status ${res.statusCode}, expected ${wantStatus}`);
          }
          if (after.status !== wantState) {
            failures.push(`${label}: stored ${after.status}, expected ${wantState}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('state-change matrix: PATCH /api/v1/users/{id}', () => {
  it('changes no account field outside the profile, for the owner or an administrator', async () => {
    const failures: string[] = [];
    for (const caller of ['owner', 'admin'] as const) {
      for (const [field, value] of Object.entries({
        role: 'admin',
        status: 'approved',
        email: 'taken@example.org',
        hospitalId: '00000000-0000-4000-8000-000000000000',
        deletedAt: null,
        tokenVersion: 9,
      })) {
        const before = (await db().select().from(users).where(eq(users.id, cast.owner.row.id)))[0]!;
        const res = await subject.app.inject({
          method: 'PATCH',
          url: `/api/v1/users/${cast.owner.row.id}`,
          headers: cast[caller].headers,
          payload: { [field]: value },
        });
        const after = (await db().select().from(users).where(eq(users.id, cast.owner.row.id)))[0]!;
        if (res.statusCode !== 400) failures.push(`${caller} setting ${field}: ${res.statusCode}`);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          failures.push(`${caller} setting ${field} changed the account`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * Issue #32 items 2 and 6: the donor's own state decides what their answer may change, read at
 * the moment of answering. One verified request and its matched donor per cell; the donor is put
 * in the state after being told (and, for a withdrawal, after accepting).
 */
describe('state-change matrix: POST /api/v1/blood-requests/{id}/respond by the donor’s state', () => {
  type DonorState = 'approved' | 'suspended' | 'unwell_today' | 'gave_today';
  type Answer = 'accepted' | 'declined' | 'withdrawn';
  const STATES: DonorState[] = ['approved', 'suspended', 'unwell_today', 'gave_today'];
  const ANSWERS: Answer[] = ['accepted', 'declined', 'withdrawn'];

  async function become(donor: SignedInUser, state: DonorState) {
    if (state === 'suspended') {
      const res = await call('POST', `/api/v1/admin/donors/${donor.row.id}/suspend`, cast.admin, {
        reason: 'Under investigation',
      });
      expect(res.statusCode, res.body).toBe(200);
      // Suspension signs them out; a suspended donor may sign in again.
      const { tokens } = await loginAs(subject.app, donor);
      donor.headers = bearer(tokens.accessToken);
    } else if (state === 'unwell_today') {
      await db()
        .insert(questionnaires)
        .values({
          userId: donor.row.id,
          answers: healthyAnswers({ feelsWell: false }),
          eligible: false,
          submittedAt: new Date(),
        });
    } else if (state === 'gave_today') {
      await db()
        .update(users)
        .set({ lastDonationAt: new Date(Date.now() - 60_000) })
        .where(eq(users.id, donor.row.id));
    }
  }

  /** Status, the match's response and the request's status (null: as before the call). */
  function expectedCell(state: DonorState, answer: Answer) {
    if (state === 'suspended') {
      // Voided at the suspension: unanswered → declined, accepted → withdrawn.
      return {
        status: 403,
        response: answer === 'withdrawn' ? 'withdrawn' : 'declined',
        requestStatus: answer === 'withdrawn' ? 'in_progress' : 'verified',
      };
    }
    if (state !== 'approved' && answer === 'accepted') {
      return { status: 409, response: null, requestStatus: 'verified' };
    }
    return {
      status: 200,
      response: answer,
      requestStatus: answer === 'declined' ? 'verified' : 'in_progress',
    };
  }

  for (const state of STATES) {
    it(`as a donor ${state}: what accepting, declining and withdrawing change`, async () => {
      for (const answer of ANSWERS) {
        const { id, matched } = await requestIn('verified');
        const donor = matched!;
        if (answer === 'withdrawn') {
          const accepted = await call('POST', `/api/v1/blood-requests/${id}/respond`, donor, {
            response: 'accepted',
          });
          expect(accepted.statusCode, accepted.body).toBe(200);
        }
        await become(donor, state);
        const res = await call('POST', `/api/v1/blood-requests/${id}/respond`, donor, {
          response: answer,
        });
        const cell = expectedCell(state, answer);
        const where = `${state} ${answer}: ${res.body}`;
        expect(res.statusCode, where).toBe(cell.status);
        if (cell.status === 409) expect(res.json().error.code).toBe('DONOR_NOT_ELIGIBLE');
        const [match] = await db()
          .select()
          .from(bloodRequestMatches)
          .where(
            and(
              eq(bloodRequestMatches.requestId, id),
              eq(bloodRequestMatches.donorId, donor.row.id),
            ),
          );
        expect(match!.response, where).toBe(cell.response);
        expect((await stored(id)).status, where).toBe(cell.requestStatus);
        // The contact only in a 200 that accepted.
        if (!(cell.status === 200 && answer === 'accepted')) {
          expect(res.body).not.toContain((await stored(id)).contactPhone!);
        }
      }
    }, 60_000);
  }
});

/**
 * Issue #32 item 14: which hospital a request naming a facility is linked to, and whose accounts
 * hear of it, by the hospital's standing; and what an administrator's decision moves. Read from
 * the stored request and the stored notifications.
 */
describe('state-change matrix: a hospital’s standing and who hears of a request naming its facility', () => {
  const STANDINGS = ['pending', 'rejected', 'verified', 'disabled', 'suspended account'] as const;
  type Standing = (typeof STANDINGS)[number];

  async function hospitalIn(standing: Standing) {
    const facilityId = await seedFacility(db(), { latitude: 17.44, longitude: 78.5 });
    const [hospital] = await db()
      .insert(hospitals)
      .values({
        name: `Centre (${standing})`,
        city: 'Secunderabad',
        state: 'Telangana',
        facilityId,
        registeredVia: 'self',
        emailConfirmedAt: new Date(),
        verificationStatus:
          standing === 'pending' ? 'pending' : standing === 'rejected' ? 'rejected' : 'verified',
        disabledAt: standing === 'disabled' ? new Date() : null,
      })
      .returning();
    const account = await signIn(subject.app, db(), { role: 'hospital' });
    await db()
      .update(users)
      .set({
        hospitalId: hospital!.id,
        status: standing === 'suspended account' ? 'suspended' : 'approved',
      })
      .where(eq(users.id, account.row.id));
    return { facilityId, hospitalId: hospital!.id, userId: account.row.id };
  }

  async function guestRequestAt(facilityId: string) {
    const res = await call(
      'POST',
      '/api/v1/blood-requests',
      undefined,
      requestBody({ facilityId, contactPhone: nextPhone(), hospitalName: 'Some Centre' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.request.id as string;
    expect((await stored(id)).status).toBe('pending');
    return id;
  }

  const noticesOf = async (userId: string) =>
    (await db().select().from(notifications).where(eq(notifications.userId, userId))).filter(
      (notice) => notice.type.startsWith('blood_request.'),
    ).length;

  it('links and tells only a verified, enabled hospital, and only its active accounts', async () => {
    const failures: string[] = [];
    for (const standing of STANDINGS) {
      const { facilityId, hospitalId, userId } = await hospitalIn(standing);
      const id = await guestRequestAt(facilityId);
      const linked = standing === 'verified' || standing === 'suspended account';
      const told = standing === 'verified' ? 1 : 0;
      const got = (await stored(id)).hospitalId;
      if (got !== (linked ? hospitalId : null)) failures.push(`${standing}: linked to ${got}`);
      const notices = await noticesOf(userId);
      if (notices !== told) failures.push(`${standing}: ${notices} notices, expected ${told}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);

  const DECISIONS: { from: Standing; action: string; linked: boolean; told: number }[] = [
    { from: 'pending', action: 'verify', linked: true, told: 1 },
    { from: 'rejected', action: 'verify', linked: true, told: 1 },
    { from: 'pending', action: 'reject', linked: false, told: 0 },
    { from: 'verified', action: 'disable', linked: false, told: 1 },
    { from: 'disabled', action: 'enable', linked: true, told: 1 },
  ];

  it('moves the open requests of the facility when an administrator decides', async () => {
    const failures: string[] = [];
    for (const { from, action, linked, told } of DECISIONS) {
      const { facilityId, hospitalId, userId } = await hospitalIn(from);
      const id = await guestRequestAt(facilityId);
      const res = await call(
        'POST',
        `/api/v1/admin/hospitals/${hospitalId}/${action}`,
        cast.admin,
        action === 'reject' ? { reason: 'Not the blood centre.' } : undefined,
      );
      const label = `${from} → ${action}`;
      if (res.statusCode !== 200) failures.push(`${label}: ${res.statusCode} ${res.body}`);
      const got = (await stored(id)).hospitalId;
      if (got !== (linked ? hospitalId : null)) failures.push(`${label}: linked to ${got}`);
      const notices = await noticesOf(userId);
      if (notices !== told) failures.push(`${label}: ${notices} notices, expected ${told}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
