import {
  BLOOD_REQUEST_LIMITS,
  MATCHING_DEFAULTS,
  isOpenStatus,
  nextRadius,
  type AcceptedDonor,
  type BloodRequest,
  type BloodRequestPage,
  type BloodRequestTracking,
  type BloodRequestView,
  type ListBloodRequestsQuery,
  type MatchedBloodRequest,
  type MatchResponse,
  type UpdateBloodRequest,
  type UpdateBloodRequestStatus,
  roundKm,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { BloodRequestMatchRow, BloodRequestRow, NewBloodRequestRow } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import type { DailyCounters } from '../../lib/daily-counters';
import type { Idempotency } from '../../lib/idempotency';
import type { Mailer } from '../notifications/mail/mailer';
import type { Notifier, NotifyInput } from '../notifications/notifier';
import { createRequesterMessages } from '../notifications/requester-messages';
import type { RequestMeta } from '../../lib/request-context';
import type { PhoneCodes } from '../../lib/sms/phone-codes';
import { SUSPENDED_MESSAGE, type AuthUser } from '../../plugins/auth';
import type { FlagsService } from '../flags/flags.service';
import {
  accessOf,
  actorOf,
  forbidden,
  loadLocked,
  logContactAccess,
  notFound,
  requireManager,
  SYSTEM,
} from './blood-request-access';
import { createRequestIntake } from './blood-request-create';
import { createRequestLifecycle } from './blood-request-lifecycle';
import { locate } from './blood-request-location';
import { fullView, fullViews, toMatchedView } from './blood-request-views';
import { createBloodRequestsRepository, hospitalNameKey } from './blood-requests.repository';
import { assertMayGiveNow, createDonorStanding } from './donor-standing';
import { createRequestConfirmation } from './request-confirmation';
import { answerMatch, findLockedWithMatch } from './request-statements';

export {
  CREATE_ROUTE_KEY,
  DUPLICATE_WINDOW_MS,
  PHONE_LIMIT,
  TRACKING_CODE_LENGTH,
  TRACKING_LINK_RESEND_MS,
  generateTrackingCode,
} from './blood-request-create';

/** The history note of a request cancelled because its requester erased their account. */
export const ERASED_NOTE = 'Cancelled: the requester erased their account.';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * What donors act on and a verifier checked: a change to any of these by the requester after
 * verification sends the request back to review (the "send a UPI advance" scam changes the
 * contact of a verified request). `notes` too (issue #32 item 12): donors who accepted read
 * them, so "pay a processing fee to this UPI id" moved there; while the request waits for the
 * verifier again, a donor's view shows no notes (toMatchedView). The requester may still
 * change `requiredBy`.
 */
export const REVIEWED_FIELDS = [
  'bloodType',
  'unitsNeeded',
  'urgency',
  'patientName',
  'hospitalName',
  'facilityId',
  'city',
  'state',
  'address',
  'pincode',
  'latitude',
  'longitude',
  'contactName',
  'contactPhone',
  'contactEmail',
  'notes',
] as const satisfies readonly (keyof UpdateBloodRequest & keyof BloodRequestRow)[];
export interface MatchingOptions {
  radiusStepKm: number;
  maxRadiusKm: number;
  widenAfterMinutes: number;
}

export interface BloodRequestsServiceDeps {
  db: Db;
  notifier: Pick<Notifier, 'notify' | 'notifyMany' | 'planMany' | 'kick' | 'messageRequester'>;
  idempotency: Idempotency;
  /** Tracking links to the contact on file (a duplicate made by someone who may not see it). */
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  config: { jwtSecret: string; publicUrl: string };
  now?: () => number;
  matching?: Partial<MatchingOptions>;
  /** Codes by SMS for a guest's request (issue #16); the flag decides whether they are asked. */
  phoneCodes: PhoneCodes;
  counters: DailyCounters;
  flags: Pick<FlagsService, 'getFlags'>;
  logger?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createBloodRequestsService(deps: BloodRequestsServiceDeps) {
  const { db, notifier } = deps;
  const now = deps.now ?? Date.now;
  const matching: MatchingOptions = {
    radiusStepKm: deps.matching?.radiusStepKm ?? MATCHING_DEFAULTS.radiusStepKm,
    maxRadiusKm: deps.matching?.maxRadiusKm ?? MATCHING_DEFAULTS.maxRadiusKm,
    widenAfterMinutes: deps.matching?.widenAfterMinutes ?? MATCHING_DEFAULTS.widenAfterMinutes,
  };
  const lifecycle = createRequestLifecycle({ notifier, now, maxRadiusKm: matching.maxRadiusKm });
  const { matchRound, transition, backToReview } = lifecycle;
  // A guest requester's tracking code and link on their phone (issue #16).
  const requester = createRequesterMessages({ notifier, publicUrl: deps.config.publicUrl, now });
  const confirmation = createRequestConfirmation({ ...deps, now, requester }, lifecycle);
  const intake = createRequestIntake({ ...deps, now, confirmation, requester }, lifecycle);
  const standing = createDonorStanding({ notifier, now });

  return {
    create: intake.create,

    /** Anyone with the code: progress only, no personal data. */
    async track(code: string): Promise<BloodRequestTracking> {
      const repo = createBloodRequestsRepository(db);
      const row = await repo.findByTrackingCode(code);
      if (!row)
        throw new AppError('NOT_FOUND', 'There is no blood request with this tracking code.');
      const [history, counts, names, pendingCode] = await Promise.all([
        repo.historyFor([row.id]),
        repo.matchCountsFor([row.id]),
        repo.donorsOnTheirWay(row.id),
        confirmation.view(db, row),
      ]);
      return {
        trackingCode: row.trackingCode,
        status: row.status,
        urgency: row.urgency,
        bloodType: row.bloodType,
        unitsNeeded: row.unitsNeeded,
        hospitalName: row.hospitalName,
        city: row.city,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        searchRadiusKm: row.searchRadiusKm,
        matches: counts.get(row.id) ?? { notified: 0, accepted: 0, declined: 0 },
        donorsOnTheirWay: names.map((name) => ({ firstName: name.trim().split(/\s+/)[0] ?? '' })),
        history: history.map((item) => ({ status: item.status, at: item.at.toISOString() })),
        confirmation: pendingCode,
      };
    },

    /** Anyone with the tracking code and the SMS code: the request goes to review. */
    async confirmByCode(
      trackingCode: string,
      code: string,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<void> {
      await confirmation.confirm(db, trackingCode, code, meta);
      notifier.kick();
    },

    /** Anyone with the tracking code: a new code to the contact phone (limited per request). */
    resendConfirmation: (trackingCode: string) => confirmation.resend(db, trackingCode),

    /**
     * Administrators: all (with contacts; the access is logged). Hospitals: their own and those
     * naming their facility or name. Donors: their own (full) and those they were told about
     * (matched view, contact only after accepting).
     */
    async list(
      caller: AuthUser,
      query: ListBloodRequestsQuery,
      meta: RequestMeta,
    ): Promise<BloodRequestPage> {
      const repo = createBloodRequestsRepository(db);
      const scope =
        caller.role === 'admin'
          ? ({ kind: 'all' } as const)
          : caller.role === 'hospital'
            ? ({
                kind: 'hospital',
                userId: caller.id,
                hospital: await repo.hospitalOfUser(caller.id),
              } as const)
            : ({ kind: 'donor', userId: caller.id } as const);
      const { items, total } = await repo.list(scope, query);
      const own = items.filter((row) => scope.kind !== 'donor' || row.createdBy === caller.id);
      const full = new Map((await fullViews(db, own)).map((view) => [view.id, view]));
      const matches =
        scope.kind === 'donor'
          ? new Map(
              (
                await repo.matchesOfDonor(
                  caller.id,
                  items.filter((row) => !full.has(row.id)).map((row) => row.id),
                )
              ).map((match) => [match.requestId, match]),
            )
          : new Map<string, BloodRequestMatchRow>();
      const views: BloodRequestView[] = [];
      for (const row of items) {
        const view = full.get(row.id);
        if (view) views.push({ ...view, view: 'full' });
        else {
          const match = matches.get(row.id);
          if (match) views.push({ ...toMatchedView(row, match), view: 'matched' });
        }
      }
      // Administrators' and hospitals' reads of other people's contact details are logged.
      const others = own.filter((row) => row.createdBy !== caller.id).length;
      if ((caller.role === 'admin' || caller.role === 'hospital') && others > 0) {
        await logContactAccess(db, caller, meta, 'blood_request.contacts_viewed', null, {
          count: others,
          page: query.page,
        });
      }
      return { items: views, total, page: query.page, pageSize: query.pageSize };
    },

    async get(caller: AuthUser, id: string, meta: RequestMeta): Promise<BloodRequestView> {
      const repo = createBloodRequestsRepository(db);
      const row = await repo.findById(id);
      if (!row) throw notFound();
      const { access, match } = await accessOf(repo, caller, row);
      if (!access) throw forbidden();
      if (access === 'matched') return { ...toMatchedView(row, match!), view: 'matched' };
      if ((access === 'admin' || access === 'hospital') && row.createdBy !== caller.id) {
        await logContactAccess(db, caller, meta, 'blood_request.contacts_viewed', row.id, {
          count: 1,
        });
      }
      return { ...(await fullView(db, row)), view: 'full' };
    },

    /** Details of an open request (never its status); the owner, administrators, the hospital. */
    async update(
      caller: AuthUser,
      id: string,
      body: UpdateBloodRequest,
      meta: RequestMeta,
    ): Promise<BloodRequest> {
      const row = await db.transaction(async (tx) => {
        const repo = createBloodRequestsRepository(tx);
        const current = await loadLocked(tx, id);
        const access = await requireManager(repo, caller, current, true);
        if (!isOpenStatus(current.status)) {
          throw new AppError(
            'CONFLICT',
            `A ${current.status} blood request can no longer be changed.`,
          );
        }
        const set: Partial<NewBloodRequestRow> = {};
        const fields = Object.keys(body) as (keyof UpdateBloodRequest)[];
        for (const field of fields) {
          const value = body[field];
          if (field === 'requiredBy') continue;
          (set as Record<string, unknown>)[field] = value;
        }
        if (body.hospitalName !== undefined)
          set.hospitalNameKey = hospitalNameKey(body.hospitalName);
        if (body.requiredBy !== undefined) {
          set.requiredBy = body.requiredBy ? new Date(body.requiredBy) : null;
          set.expiresAt =
            set.requiredBy ??
            new Date(
              current.createdAt.getTime() + BLOOD_REQUEST_LIMITS.defaultLifetimeHours * HOUR_MS,
            );
        }
        const moves = ['facilityId', 'latitude', 'longitude', 'pincode'].some((key) => key in body);
        if (moves) {
          const facilityId = body.facilityId !== undefined ? body.facilityId : current.facilityId;
          const givenLat =
            body.latitude !== undefined
              ? body.latitude
              : current.locationSource === 'given'
                ? current.latitude
                : null;
          const givenLng =
            body.longitude !== undefined
              ? body.longitude
              : current.locationSource === 'given'
                ? current.longitude
                : null;
          Object.assign(
            set,
            await locate(repo, {
              facilityId,
              latitude: givenLat,
              longitude: givenLng,
              pincode: body.pincode !== undefined ? body.pincode : current.pincode,
            }),
          );
          if (body.facilityId !== undefined && current.createdByRole !== 'hospital') {
            set.hospitalId = body.facilityId
              ? await repo.hospitalForFacility(body.facilityId)
              : null;
          }
        }
        set.updatedAt = new Date(now());
        let updated = await repo.update(id, set);
        await createActivityLog(tx).record({
          action: 'blood_request.updated',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'blood_request',
          targetId: id,
          details: { fields },
          requestId: meta.requestId,
        });
        // A verifier's own edit stands; the requester's edit of what was verified is checked again.
        const changed = REVIEWED_FIELDS.filter((field) => current[field] !== updated[field]);
        if (access === 'owner' && current.verifiedAt !== null && changed.length > 0) {
          updated = await backToReview(tx, current, updated, changed, caller, meta);
        }
        return updated;
      });
      notifier.kick();
      return fullView(db, row);
    },

    /** DELETE: cancels (status cancelled, with history); never a hard delete. */
    async cancel(caller: AuthUser, id: string, meta: RequestMeta): Promise<BloodRequest> {
      const row = await db.transaction(async (tx) => {
        const current = await loadLocked(tx, id);
        const access = await requireManager(
          createBloodRequestsRepository(tx),
          caller,
          current,
          true,
        );
        const notes = access === 'owner' ? 'Cancelled by the requester.' : 'Cancelled.';
        return transition(tx, current, 'cancelled', actorOf(caller), notes, meta);
      });
      notifier.kick();
      return fullView(db, row);
    },

    /** Administrators, and the hospital for its own or named requests. */
    async setStatus(
      caller: AuthUser,
      id: string,
      body: UpdateBloodRequestStatus,
      meta: RequestMeta,
    ): Promise<BloodRequest> {
      const row = await db.transaction(async (tx) => {
        const current = await loadLocked(tx, id);
        await requireManager(createBloodRequestsRepository(tx), caller, current, false);
        // Only the code sent to its contact phone confirms an unconfirmed request (issue #16),
        // and it expires by itself: staff neither move it nor move anything back to it.
        if (current.status === 'unconfirmed' || body.status === 'unconfirmed') {
          throw new AppError(
            'INVALID_TRANSITION',
            'A request waiting for its SMS code is confirmed only by that code, or expires.',
            { from: current.status, to: body.status },
          );
        }
        return transition(tx, current, body.status, actorOf(caller), body.notes ?? null, meta);
      });
      notifier.kick();
      return fullView(db, row);
    },

    /**
     * A matched donor answers. Accept: the reply carries the requester's contact, a verified
     * request becomes in_progress, and the requester (if registered) and the hospital are told
     * how many donors are on their way; a guest requester gets one message on the contact phone
     * at the first acceptance (requester-messages.ts). Decline: never asked again for this request. The same
     * answer again is idempotent (200, same reply); the other answer after one was given is 409.
     * Withdraw (issue #18): only after accepting, before a donation is recorded, while the request
     * is open; the contact is hidden again and the registered requester and the hospital are told.
     */
    async respond(
      caller: AuthUser,
      id: string,
      response: MatchResponse,
      // Only the request id is kept (history, activity log): a reply by SMS has no HTTP request.
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<MatchedBloodRequest> {
      if (caller.role !== 'donor')
        throw new AppError('FORBIDDEN', 'Only donors respond to blood requests.');
      const view = await db.transaction(async (tx) => {
        const repo = createBloodRequestsRepository(tx);
        // The request (locked) and this donor's match, in one statement.
        const found = await findLockedWithMatch(tx, id, caller.id);
        if (!found) throw notFound();
        let row = found.request;
        const match = found.match;
        if (!match) throw new AppError('NOT_FOUND', 'You were not asked about this blood request.');
        // Issue #32 items 2 and 6: who the donor is NOW, read in this transaction, whatever way
        // the answer came (web, SMS reply, WhatsApp button): the route's preHandler is not the
        // only door. A suspended (or erased) donor answers nothing.
        const donor = found.donor;
        if (donor.deletedAt) throw notFound();
        if (donor.status === 'suspended') throw new AppError('FORBIDDEN', SUSPENDED_MESSAGE);
        if (response === 'accepted') assertMayGiveNow(donor, now());
        if (match.response === response) return toMatchedView(row, match);
        if (response === 'withdrawn') {
          if (match.response !== 'accepted')
            throw new AppError('CONFLICT', 'Only a donor who accepted can withdraw.');
          if (match.donatedAt)
            throw new AppError('CONFLICT', 'Your donation for this request is already recorded.');
        } else if (match.response) {
          throw new AppError('CONFLICT', `You already ${match.response} this request.`);
        }
        const at = new Date(now());
        // Issue #22: a closed request (cancelled, fulfilled, expired) — or one past its expiry that
        // the expiry job has not reached yet — hands no donor the requester's contact.
        if ((row.status !== 'verified' && row.status !== 'in_progress') || row.expiresAt <= at) {
          throw new AppError('CONFLICT', 'This blood request is no longer looking for donors.');
        }
        const answered = await answerMatch(tx, {
          matchId: match.id,
          response,
          at,
          activity: {
            action: 'blood_request.responded',
            actorId: caller.id,
            actorRole: caller.role,
            targetType: 'blood_request',
            targetId: id,
            details: { response },
            requestId: meta.requestId,
          },
        });
        if (!answered) throw new AppError('CONFLICT', 'You already responded to this request.');
        if (response === 'accepted') {
          if (row.status === 'verified') {
            row = await transition(tx, row, 'in_progress', SYSTEM, 'A donor accepted.', meta);
            // The first acceptance: a guest requester learns a donor is coming (no name, no phone).
            await requester.donorComing(tx, row);
          }
          const told = new Set<string>();
          if (row.createdBy && row.createdBy !== caller.id) told.add(row.createdBy);
          if (row.hospitalId)
            for (const userId of await repo.hospitalUserIds(row.hospitalId)) told.add(userId);
          const params = {
            count: String(answered.accepted),
            code: row.trackingCode,
            hospital: row.hospitalName,
          };
          const input: NotifyInput = {
            type: 'blood_request.donor_accepted',
            params,
            link: '/dashboard',
            reachOut: true,
          };
          await notifier.notifyMany(
            tx,
            [...told].map((userId) => ({ userId, input })),
          );
        }
        if (response === 'withdrawn') {
          // Issue #18: whoever counts on this donor learns they are not coming, with how many
          // still are. A guest requester's tracking page stops listing the donor (no SMS: no
          // approved template for it yet).
          const told = new Set<string>();
          if (row.createdBy && row.createdBy !== caller.id) told.add(row.createdBy);
          if (row.hospitalId)
            for (const userId of await repo.hospitalUserIds(row.hospitalId)) told.add(userId);
          const input: NotifyInput = {
            type: 'blood_request.donor_withdrew',
            params: {
              count: String(answered.accepted),
              code: row.trackingCode,
              hospital: row.hospitalName,
            },
            link: '/dashboard',
            reachOut: true,
          };
          await notifier.notifyMany(
            tx,
            [...told].map((userId) => ({ userId, input })),
          );
        }
        return toMatchedView(row, answered);
      });
      notifier.kick();
      return view;
    },

    /** Accepted donors with name and phone: the hospital named and administrators (logged). */
    async acceptedDonors(
      caller: AuthUser,
      id: string,
      meta: RequestMeta,
    ): Promise<AcceptedDonor[]> {
      const repo = createBloodRequestsRepository(db);
      const row = await repo.findById(id);
      if (!row) throw notFound();
      await requireManager(repo, caller, row, false);
      const donors = (await repo.acceptedDonors(id)).filter((donor) => !donor.deletedAt);
      await logContactAccess(db, caller, meta, 'blood_request.donor_contacts_viewed', id, {
        count: donors.length,
      });
      return donors.map((donor) => ({
        donorId: donor.donorId,
        name: donor.name,
        phone: donor.phone,
        bloodType: (donor.bloodType as AcceptedDonor['bloodType']) ?? null,
        distanceKm: donor.distanceKm === null ? null : roundKm(donor.distanceKm),
        respondedAt: donor.respondedAt?.toISOString() ?? null,
        donated: donor.donatedAt !== null,
      }));
    },

    /** Job: open requests past `expires_at` become expired (history by the system). */
    async expireDue(): Promise<number> {
      const at = new Date(now());
      let expired = 0;
      for (const candidate of await createBloodRequestsRepository(db).dueForExpiry(at)) {
        const done = await db.transaction(async (tx) => {
          const row = await createBloodRequestsRepository(tx).findById(candidate.id, true);
          if (!row || row.expiresAt > at) return false;
          if (row.status === 'unconfirmed') {
            await transition(
              tx,
              row,
              'expired',
              SYSTEM,
              'Not confirmed with the code in time.',
              null,
            );
            return true;
          }
          if (!isOpenStatus(row.status)) return false;
          await transition(tx, row, 'expired', SYSTEM, 'No longer needed after its time.', null);
          return true;
        });
        if (done) expired += 1;
      }
      if (expired > 0) notifier.kick();
      return expired;
    },

    /**
     * Erasure of the account that made requests (composed into the users feature's erasure in
     * services.ts, inside its transaction): its open requests are cancelled like any cancel
     * (history, donors who accepted told not to travel), then its contact details and the
     * patients' names leave every request it made. Returns how many were cancelled; the caller
     * kicks the notifier after commit.
     */
    async forgetRequester(
      tx: Db,
      requester: { id: string; fullName: string; phone: string | null; email: string },
      caller: AuthUser,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<number> {
      const repo = createBloodRequestsRepository(tx);
      let cancelled = 0;
      for (const id of await repo.openIdsCreatedBy(requester.id)) {
        const row = await repo.findById(id, true);
        if (!row || !isOpenStatus(row.status)) continue;
        await transition(tx, row, 'cancelled', actorOf(caller), ERASED_NOTE, meta);
        cancelled += 1;
      }
      await repo.scrubRequester(requester);
      return cancelled;
    },

    /**
     * Job: verified or in-progress requests with fewer accepted donors than units needed,
     * `widenAfterMinutes` after their last round, get the next round with a wider radius
     * (nextRadius: 25 → 50 → 100 km); only donors not told before are told.
     */
    async widenDue(): Promise<number> {
      const at = new Date(now());
      const before = new Date(at.getTime() - matching.widenAfterMinutes * MINUTE_MS);
      let rounds = 0;
      const due = await createBloodRequestsRepository(db).dueForWidening(
        before,
        matching.maxRadiusKm,
      );
      for (const candidate of due) {
        const done = await db.transaction(async (tx) => {
          const row = await createBloodRequestsRepository(tx).findById(candidate.id, true);
          if (!row || (row.status !== 'verified' && row.status !== 'in_progress')) return false;
          if (!row.lastMatchedAt || row.lastMatchedAt > before || row.searchRadiusKm === null)
            return false;
          const radius = nextRadius(
            row.searchRadiusKm,
            matching.radiusStepKm,
            matching.maxRadiusKm,
          );
          if (radius === null) return false;
          await matchRound(tx, row, row.matchRound + 1, radius, at);
          return true;
        });
        if (done) rounds += 1;
      }
      if (rounds > 0) notifier.kick();
      return rounds;
    },

    // Issue #32 items 6 and 14: what an account's change of standing does to requests.
    ...standing,
  };
}

export type BloodRequestsService = ReturnType<typeof createBloodRequestsService>;
