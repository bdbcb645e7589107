import { matchedBloodRequestSchema } from '@bdms/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  bloodRequestHistory,
  bloodRequestMatches,
  bloodRequests,
  mailOutbox,
  notificationDeliveries,
  notifications,
} from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { bearer, loginAs } from '../../test/auth-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';
import { wantsPostgres } from '../../test/test-database';

/**
 * Issue #22: what two people doing the same thing at once, or the clock, can break in a donor's
 * answer, a request's closing and the fairness cap. The concurrent cases need PostgreSQL (PGlite
 * runs one transaction at a time); each was seen to fail with its lock or check removed.
 */
const HOUR = 3_600_000;
let clock = Date.now();
const subject = useTestApp({ services: { now: () => clock } });
const db = () => subject.db;
beforeEach(() => {
  clock = Date.now();
});
let addressSequence = 0;

function call(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  user?: SignedInUser,
  payload?: object,
) {
  addressSequence += 1;
  return subject.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    payload,
    remoteAddress: `198.51.100.${addressSequence % 250}`,
  });
}

/** Moves the clock; the access tokens of before have expired by then, so `users` sign in again. */
async function moveClockTo(at: number, ...signedIn: SignedInUser[]) {
  clock = at;
  for (const user of signedIn) {
    const { tokens } = await loginAs(subject.app, user, `192.0.2.${(addressSequence += 1) % 250}`);
    user.headers = bearer(tokens.accessToken);
  }
}

async function guestRequest(overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/blood-requests', undefined, requestBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.request as { id: string; trackingCode: string };
}

async function setStatus(user: SignedInUser, id: string, status: string) {
  const res = await call('PUT', `/api/v1/blood-requests/${id}/status`, user, { status });
  expect(res.statusCode, res.body).toBe(200);
}

const respond = (donor: SignedInUser, id: string, response: 'accepted' | 'declined') =>
  call('POST', `/api/v1/blood-requests/${id}/respond`, donor, { response });

const storedRequest = async (id: string) =>
  (await db().select().from(bloodRequests).where(eq(bloodRequests.id, id)))[0]!;
const historyOf = (id: string) =>
  db().select().from(bloodRequestHistory).where(eq(bloodRequestHistory.requestId, id));
const matchOf = async (id: string, donorId: string) =>
  (
    await db()
      .select()
      .from(bloodRequestMatches)
      .where(and(eq(bloodRequestMatches.requestId, id), eq(bloodRequestMatches.donorId, donorId)))
  )[0]!;

/** Everything "telling someone" leaves behind: notifications, their deliveries, mail. */
async function toldSoFar() {
  const [notes, deliveries, mails] = await Promise.all([
    db().select().from(notifications),
    db().select().from(notificationDeliveries),
    db().select().from(mailOutbox),
  ]);
  return { notes: notes.length, deliveries: deliveries.length, mails: mails.length };
}

/** A registered requester's verified request with `donors` matched donors (all O- nearby). */
async function verifiedRequest(donors: number, overrides: Record<string, unknown> = {}) {
  const admin = await signIn(subject.app, db(), { role: 'admin', fullName: 'Admin Anita' });
  const requester = await signIn(subject.app, db(), { fullName: 'Ravi Kumar' });
  const matched: SignedInUser[] = [];
  for (let index = 0; index < donors; index += 1) {
    matched.push(
      await makeDonor(subject.app, db(), { km: 2 + index, fullName: `Donor ${index}`, now: clock }),
    );
  }
  const created = await call(
    'POST',
    '/api/v1/blood-requests',
    requester,
    requestBody({ unitsNeeded: 1, ...overrides }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const request = created.json().data.request as { id: string; trackingCode: string };
  await setStatus(admin, request.id, 'verified');
  for (const donor of matched) expect(await matchOf(request.id, donor.row.id)).toBeDefined();
  return { admin, requester, donors: matched, request };
}

describe('a donor’s answer to a closed request', () => {
  const closings = {
    'cancelled by the requester': async (
      id: string,
      ctx: Awaited<ReturnType<typeof verifiedRequest>>,
    ) => {
      const res = await call('DELETE', `/api/v1/blood-requests/${id}`, ctx.requester);
      expect(res.statusCode, res.body).toBe(200);
    },
    'fulfilled by the administrator': async (
      id: string,
      ctx: Awaited<ReturnType<typeof verifiedRequest>>,
    ) => {
      expect((await respond(ctx.donors[1]!, id, 'accepted')).statusCode).toBe(200);
      await setStatus(ctx.admin, id, 'fulfilled');
    },
    'expired by the administrator': async (
      id: string,
      ctx: Awaited<ReturnType<typeof verifiedRequest>>,
    ) => {
      await setStatus(ctx.admin, id, 'expired');
    },
    'past its expiry, before the expiry job ran': async (
      id: string,
      ctx: Awaited<ReturnType<typeof verifiedRequest>>,
    ) => {
      const row = await storedRequest(id);
      await moveClockTo(row.expiresAt.getTime() + 1, ...ctx.donors);
    },
  } as const;

  it.each(Object.keys(closings) as (keyof typeof closings)[])(
    'is refused when the request was %s: no contact, nothing changed, nobody told',
    async (closing) => {
      const ctx = await verifiedRequest(2);
      const { request, donors } = ctx;
      await closings[closing](request.id, ctx);
      const before = await toldSoFar();
      const statusBefore = (await storedRequest(request.id)).status;
      const historyBefore = (await historyOf(request.id)).length;

      const res = await respond(donors[0]!, request.id, 'accepted');
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe('This blood request is no longer looking for donors.');
      const stored = await storedRequest(request.id);
      for (const secret of [stored.contactPhone, stored.contactName, stored.address!]) {
        expect(res.body).not.toContain(secret);
      }
      // The donor's answer was not recorded, the request did not move, nobody was told.
      const match = await matchOf(request.id, donors[0]!.row.id);
      expect(match).toMatchObject({ response: null, respondedAt: null });
      expect(stored.status).toBe(statusBefore);
      expect(await historyOf(request.id)).toHaveLength(historyBefore);
      expect(await toldSoFar()).toEqual(before);
      // Declining a closed request is refused the same way.
      expect((await respond(donors[0]!, request.id, 'declined')).statusCode).toBe(409);
      expect((await matchOf(request.id, donors[0]!.row.id)).response).toBeNull();
    },
  );

  it('is accepted one millisecond before the expiry, with the contact', async () => {
    const { request, donors } = await verifiedRequest(1);
    await moveClockTo((await storedRequest(request.id)).expiresAt.getTime() - 1, donors[0]!);
    const res = await respond(donors[0]!, request.id, 'accepted');
    expect(res.statusCode, res.body).toBe(200);
    const view = matchedBloodRequestSchema.parse(res.json().data.request);
    expect(view.contactPhone).toBe((await storedRequest(request.id)).contactPhone);
  });
});

describe('a decline', () => {
  it('records the answer and changes nothing else: no status, no history, nobody told', async () => {
    const { request, donors } = await verifiedRequest(2);
    const before = await toldSoFar();
    const historyBefore = await historyOf(request.id);

    const res = await respond(donors[0]!, request.id, 'declined');
    expect(res.statusCode, res.body).toBe(200);
    const view = matchedBloodRequestSchema.parse(res.json().data.request);
    expect(view).toMatchObject({ response: 'declined', contactPhone: null, address: null });
    expect(await matchOf(request.id, donors[0]!.row.id)).toMatchObject({ response: 'declined' });
    expect((await storedRequest(request.id)).status).toBe('verified');
    expect(await historyOf(request.id)).toEqual(historyBefore);
    expect(await toldSoFar()).toEqual(before);
    // The other donor is still asked, and the decliner can not change their mind into an accept.
    expect((await matchOf(request.id, donors[1]!.row.id)).response).toBeNull();
    expect((await respond(donors[0]!, request.id, 'accepted')).statusCode).toBe(409);
  });
});

/**
 * The design for more donors than units: every donor who accepts is welcome and gets the contact
 * (a blood centre defers some donors at screening, so a second donor for the last unit is useful,
 * not a mistake); the requester is told each time with the running count, and the request moves
 * to in_progress once.
 */
async function expectAllWelcome(
  ctx: Awaited<ReturnType<typeof verifiedRequest>>,
  answers: Awaited<ReturnType<typeof respond>>[],
) {
  const stored = await storedRequest(ctx.request.id);
  for (const res of answers) {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.request.contactPhone).toBe(stored.contactPhone);
  }
  expect(stored.status).toBe('in_progress');
  const moves = (await historyOf(ctx.request.id)).filter((item) => item.status === 'in_progress');
  expect(moves).toHaveLength(1);
  const told = await db()
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, ctx.requester.row.id),
        eq(notifications.type, 'blood_request.donor_accepted'),
      ),
    );
  // One message per accepting donor, each with its own running count: 1, 2, …
  const counts = told.map((note) => /^(\d+) donor/.exec(note.message)?.[1]).sort();
  expect(counts).toEqual(answers.map((_, index) => String(index + 1)));
}

describe('donors accepting the last unit needed', () => {
  it('one after the other: both welcome, the requester told twice (1, then 2)', async () => {
    const ctx = await verifiedRequest(2);
    const first = await respond(ctx.donors[0]!, ctx.request.id, 'accepted');
    const second = await respond(ctx.donors[1]!, ctx.request.id, 'accepted');
    await expectAllWelcome(ctx, [first, second]);
  });

  it.runIf(wantsPostgres())(
    'at the same moment: all welcome, one move to in_progress, each count told once',
    async () => {
      for (let round = 0; round < 3; round += 1) {
        const ctx = await verifiedRequest(4);
        const answers = await Promise.all(
          ctx.donors.map((donor) => respond(donor, ctx.request.id, 'accepted')),
        );
        await expectAllWelcome(ctx, answers);
        await db().delete(notifications);
      }
    },
  );
});

describe.runIf(wantsPostgres())('two people closing one request at the same moment', () => {
  it('fulfil and cancel: exactly one wins, the history holds one decision', async () => {
    for (let round = 0; round < 5; round += 1) {
      const ctx = await verifiedRequest(1);
      expect((await respond(ctx.donors[0]!, ctx.request.id, 'accepted')).statusCode).toBe(200);
      const [fulfil, cancel] = await Promise.all([
        call('PUT', `/api/v1/blood-requests/${ctx.request.id}/status`, ctx.admin, {
          status: 'fulfilled',
        }),
        call('DELETE', `/api/v1/blood-requests/${ctx.request.id}`, ctx.requester),
      ]);
      const codes = [fulfil.statusCode, cancel.statusCode].sort();
      expect(codes, `${fulfil.body} ${cancel.body}`).toEqual([200, 409]);
      const closing = (await historyOf(ctx.request.id)).filter((item) =>
        ['fulfilled', 'cancelled'].includes(item.status),
      );
      expect(closing).toHaveLength(1);
      expect((await storedRequest(ctx.request.id)).status).toBe(closing[0]!.status);
    }
  });

  it('two administrators cancelling: one 200, one 409, one history entry', async () => {
    for (let round = 0; round < 5; round += 1) {
      const ctx = await verifiedRequest(0);
      const other = await signIn(subject.app, db(), { role: 'admin', fullName: 'Admin Bala' });
      const answers = await Promise.all(
        [ctx.admin, other].map((admin) =>
          call('PUT', `/api/v1/blood-requests/${ctx.request.id}/status`, admin, {
            status: 'cancelled',
          }),
        ),
      );
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      const cancelled = (await historyOf(ctx.request.id)).filter(
        (item) => item.status === 'cancelled',
      );
      expect(cancelled).toHaveLength(1);
    }
  });
});

describe('the fairness cap (2 alerts per donor in 7 days)', () => {
  it('holds one round after another: a third request does not reach the donor', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { km: 3, now: clock });
    for (let index = 0; index < 3; index += 1) {
      const request = await guestRequest();
      await setStatus(admin, request.id, 'verified');
    }
    const matches = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.donorId, donor.row.id));
    expect(matches).toHaveLength(2);
  });

  it('opens again after 7 days', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { km: 3, now: clock });
    for (let index = 0; index < 2; index += 1) {
      await setStatus(admin, (await guestRequest()).id, 'verified');
    }
    await moveClockTo(clock + 7 * 24 * HOUR + 1, admin);
    await setStatus(admin, (await guestRequest()).id, 'verified');
    const matches = await db()
      .select()
      .from(bloodRequestMatches)
      .where(eq(bloodRequestMatches.donorId, donor.row.id));
    expect(matches).toHaveLength(3);
  });

  it.runIf(wantsPostgres())(
    'holds when four requests are verified at the same moment by four administrators',
    async () => {
      for (let round = 0; round < 3; round += 1) {
        const admins: SignedInUser[] = [];
        for (let index = 0; index < 4; index += 1) {
          admins.push(
            await signIn(subject.app, db(), { role: 'admin', fullName: `Admin ${round}-${index}` }),
          );
        }
        const donor = await makeDonor(subject.app, db(), { km: 3, now: clock });
        const requests = [];
        for (let index = 0; index < 4; index += 1) requests.push(await guestRequest());
        const answers = await Promise.all(
          requests.map((request, index) =>
            call('PUT', `/api/v1/blood-requests/${request.id}/status`, admins[index], {
              status: 'verified',
            }),
          ),
        );
        for (const res of answers) expect(res.statusCode, res.body).toBe(200);
        const matches = await db()
          .select()
          .from(bloodRequestMatches)
          .where(
            and(
              eq(bloodRequestMatches.donorId, donor.row.id),
              inArray(
                bloodRequestMatches.requestId,
                requests.map((request) => request.id),
              ),
            ),
          );
        // Exactly the cap: never more, and the cap is filled, not left short.
        expect(matches).toHaveLength(2);
        const alerts = await db()
          .select()
          .from(notifications)
          .where(
            and(
              eq(notifications.userId, donor.row.id),
              eq(notifications.type, 'blood_request.match'),
            ),
          );
        expect(alerts).toHaveLength(2);
        // The next round's donor is a new one: close these requests.
        for (const request of requests) {
          await call('PUT', `/api/v1/blood-requests/${request.id}/status`, admins[0], {
            status: 'cancelled',
          });
        }
        await db().delete(activityLog);
      }
    },
  );
});
