import { createHmac, randomInt } from 'node:crypto';
import {
  BLOOD_REQUEST_LIMITS,
  MATCHING_DEFAULTS,
  boundingBox,
  canTransition,
  compatibleDonorTypes,
  isOpenStatus,
  nextRadius,
  rankCandidates,
  roundKm,
  type AcceptedDonor,
  type BloodRequest,
  type BloodRequestPage,
  type BloodRequestStatus,
  type BloodRequestTracking,
  type BloodRequestView,
  type CreateBloodRequest,
  type CreateBloodRequestResult,
  type ListBloodRequestsQuery,
  type MatchCandidate,
  type MatchedBloodRequest,
  type MatchResponse,
  type UpdateBloodRequest,
  type UpdateBloodRequestStatus,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type {
  BloodRequestHistoryRow,
  BloodRequestMatchRow,
  BloodRequestRow,
  NewBloodRequestRow,
} from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { uniqueViolation } from '../../lib/db-errors';
import { fingerprint, type Idempotency } from '../../lib/idempotency';
import type { MailLanguage } from '../../lib/mail/templates';
import { readNotificationSettings } from '../../lib/notification-settings';
import type { Notifier } from '../../lib/notifications/notifier';
import { queryAll } from '../../lib/query-all';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import {
  createBloodRequestsRepository,
  hospitalNameKey,
  type BloodRequestsRepository,
  type HospitalInfo,
  type MatchCounts,
} from './blood-requests.repository';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export const CREATE_ROUTE_KEY = 'POST /api/v1/blood-requests';

/** Per contact phone (guests and donors), counted in the database so every process agrees. */
export const PHONE_LIMIT = { max: 3, windowMs: DAY_MS } as const;
/** An open request with the same phone, blood type and hospital within this window is returned instead. */
export const DUPLICATE_WINDOW_MS = DAY_MS;
/** The shortest donation interval (men): nobody who gave more recently can be asked. */
const SHORTEST_INTERVAL_MS = 90 * DAY_MS;
const FAIRNESS_WINDOW_MS = 7 * DAY_MS;

// No 0/O, 1/I/L or U: a code read over the phone or typed from a screenshot is not mistaken.
const TRACKING_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TRACKING_CODE_LENGTH = 8;

/** 8 characters of a 30-letter alphabet: 30^8 ≈ 6.6 × 10^11 codes (≈ 39 bits), uniformly drawn. */
export function generateTrackingCode(): string {
  let code = '';
  for (let i = 0; i < TRACKING_CODE_LENGTH; i += 1) {
    code += TRACKING_ALPHABET[randomInt(TRACKING_ALPHABET.length)];
  }
  return code;
}

const URGENCY_LABELS: Record<string, Record<MailLanguage, string>> = {
  urgent: { en: 'Urgent', es: 'Urgente', hi: 'अत्यावश्यक' },
  critical: { en: 'Critical', es: 'Crítico', hi: 'गंभीर' },
};
const STATUS_LABELS: Record<BloodRequestStatus, Record<MailLanguage, string>> = {
  pending: {
    en: 'waiting for verification',
    es: 'pendiente de verificación',
    hi: 'सत्यापन की प्रतीक्षा में',
  },
  verified: {
    en: 'verified: donors nearby are being told',
    es: 'verificada: avisamos a donantes cercanos',
    hi: 'सत्यापित: पास के दाताओं को बताया जा रहा है',
  },
  in_progress: { en: 'in progress', es: 'en curso', hi: 'प्रगति में' },
  fulfilled: { en: 'fulfilled', es: 'completada', hi: 'पूरा हुआ' },
  cancelled: { en: 'cancelled', es: 'cancelada', hi: 'रद्द' },
  expired: { en: 'expired', es: 'caducada', hi: 'समाप्त' },
};

export interface MatchingOptions {
  radiusStepKm: number;
  maxRadiusKm: number;
  widenAfterMinutes: number;
}

export interface BloodRequestsServiceDeps {
  db: Db;
  notifier: Pick<Notifier, 'notify' | 'kick'>;
  idempotency: Idempotency;
  config: { jwtSecret: string };
  now?: () => number;
  matching?: Partial<MatchingOptions>;
  logger?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Who acts: a signed-in user, a guest, or the server itself (expiry, widening). */
interface Actor {
  id: string | null;
  role: 'guest' | 'donor' | 'hospital' | 'admin' | 'system';
}

const actorOf = (caller: AuthUser | null): Actor =>
  caller ? { id: caller.id, role: caller.role } : { id: null, role: 'guest' };
const SYSTEM: Actor = { id: null, role: 'system' };

/** The history note of a request cancelled because its requester erased their account. */
export const ERASED_NOTE = 'Cancelled: the requester erased their account.';

const notFound = () => new AppError('NOT_FOUND', 'There is no blood request with this id.');
const forbidden = () =>
  new AppError('FORBIDDEN', 'You do not have permission to see or change this blood request.');

type Access = 'admin' | 'owner' | 'hospital' | 'matched';

export function createBloodRequestsService(deps: BloodRequestsServiceDeps) {
  const { db, notifier } = deps;
  const now = deps.now ?? Date.now;
  const matching: MatchingOptions = {
    radiusStepKm: deps.matching?.radiusStepKm ?? MATCHING_DEFAULTS.radiusStepKm,
    maxRadiusKm: deps.matching?.maxRadiusKm ?? MATCHING_DEFAULTS.maxRadiusKm,
    widenAfterMinutes: deps.matching?.widenAfterMinutes ?? MATCHING_DEFAULTS.widenAfterMinutes,
  };

  const ipHash = (ip: string) =>
    createHmac('sha256', deps.config.jwtSecret)
      .update(`blood-request-ip:${ip}`)
      .digest('hex')
      .slice(0, 32);

  // ---- views -------------------------------------------------------------------------------

  function toFullView(
    row: BloodRequestRow,
    history: BloodRequestHistoryRow[],
    counts: MatchCounts | undefined,
  ): BloodRequest {
    return {
      id: row.id,
      trackingCode: row.trackingCode,
      status: row.status,
      urgency: row.urgency,
      bloodType: row.bloodType,
      unitsNeeded: row.unitsNeeded,
      patientName: row.patientName,
      hospitalName: row.hospitalName,
      facilityId: row.facilityId,
      city: row.city,
      state: row.state,
      address: row.address,
      pincode: row.pincode,
      latitude: row.latitude,
      longitude: row.longitude,
      contactName: row.contactName,
      contactPhone: row.contactPhone,
      contactEmail: row.contactEmail,
      requiredBy: row.requiredBy?.toISOString() ?? null,
      notes: row.notes,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      history: history.map((item) => ({
        status: item.status,
        notes: item.notes,
        by: item.by,
        byRole: item.byRole,
        at: item.at.toISOString(),
      })),
      matches: counts ?? { notified: 0, accepted: 0, declined: 0 },
      expiresAt: row.expiresAt.toISOString(),
      searchRadiusKm: row.searchRadiusKm,
      locationSource: row.locationSource ?? null,
    };
  }

  /** What a matched donor sees; the contact only once they accepted. */
  function toMatchedView(row: BloodRequestRow, match: BloodRequestMatchRow): MatchedBloodRequest {
    const accepted = match.response === 'accepted';
    return {
      id: row.id,
      status: row.status,
      urgency: row.urgency,
      bloodType: row.bloodType,
      unitsNeeded: row.unitsNeeded,
      hospitalName: row.hospitalName,
      city: row.city,
      state: row.state,
      distanceKm: match.distanceKm === null ? null : roundKm(match.distanceKm),
      requiredBy: row.requiredBy?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      notifiedAt: match.notifiedAt.toISOString(),
      response: match.response ?? null,
      respondedAt: match.respondedAt?.toISOString() ?? null,
      contactName: accepted ? row.contactName : null,
      contactPhone: accepted ? row.contactPhone : null,
      address: accepted ? row.address : null,
    };
  }

  /** `db` is the pool, or the transaction of the change (one connection: see queryAll). */
  async function fullViews(db: Db, rows: BloodRequestRow[]) {
    const repo = createBloodRequestsRepository(db);
    const ids = rows.map((row) => row.id);
    const [history, counts] = await queryAll(db, [
      () => repo.historyFor(ids),
      () => repo.matchCountsFor(ids),
    ]);
    return rows.map((row) =>
      toFullView(
        row,
        history.filter((item) => item.requestId === row.id),
        counts.get(row.id),
      ),
    );
  }

  async function fullView(db: Db, row: BloodRequestRow) {
    const [view] = await fullViews(db, [row]);
    return view!;
  }

  // ---- access ------------------------------------------------------------------------------

  async function hospitalOf(
    repo: BloodRequestsRepository,
    caller: AuthUser,
  ): Promise<HospitalInfo | null> {
    return caller.role === 'hospital' ? repo.hospitalOfUser(caller.id) : null;
  }

  async function accessOf(
    repo: BloodRequestsRepository,
    caller: AuthUser,
    row: BloodRequestRow,
  ): Promise<{ access: Access | null; match?: BloodRequestMatchRow }> {
    if (caller.role === 'admin') return { access: 'admin' };
    if (row.createdBy === caller.id) return { access: 'owner' };
    if (caller.role === 'hospital') {
      const inScope = await repo.isInHospitalScope(
        row.id,
        caller.id,
        await hospitalOf(repo, caller),
      );
      return { access: inScope ? 'hospital' : null };
    }
    if (caller.role === 'donor') {
      const match = await repo.findMatch(row.id, caller.id);
      if (match) return { access: 'matched', match };
    }
    return { access: null };
  }

  async function logContactAccess(
    tx: Db,
    caller: AuthUser,
    meta: Pick<RequestMeta, 'requestId'>,
    action: string,
    targetId: string | null,
    details: Record<string, unknown>,
  ) {
    await createActivityLog(tx).record({
      action,
      actorId: caller.id,
      actorRole: caller.role,
      targetType: 'blood_request',
      targetId,
      details,
      requestId: meta.requestId,
    });
  }

  // ---- location ----------------------------------------------------------------------------

  /**
   * The request's point: the facility's coordinates, else the given point, else the PIN code's
   * centroid, else none (matching then cannot run; the request is still shown to admins).
   */
  async function locate(
    repo: BloodRequestsRepository,
    input: {
      facilityId: string | null;
      latitude: number | null;
      longitude: number | null;
      pincode: string | null;
    },
  ): Promise<Pick<NewBloodRequestRow, 'latitude' | 'longitude' | 'locationSource'>> {
    if (input.facilityId) {
      const facility = await repo.findFacility(input.facilityId);
      if (!facility) {
        const message = 'There is no facility with this id.';
        throw new AppError('VALIDATION_ERROR', message, [{ path: 'body.facilityId', message }]);
      }
      if (facility.latitude !== null && facility.longitude !== null) {
        return {
          latitude: facility.latitude,
          longitude: facility.longitude,
          locationSource: 'facility',
        };
      }
    }
    if (input.latitude !== null && input.longitude !== null) {
      return { latitude: input.latitude, longitude: input.longitude, locationSource: 'given' };
    }
    if (input.pincode) {
      const centroid = await repo.findPincode(input.pincode);
      if (centroid) {
        return {
          latitude: centroid.latitude,
          longitude: centroid.longitude,
          locationSource: 'pincode',
        };
      }
    }
    return { latitude: null, longitude: null, locationSource: null };
  }

  // ---- matching ----------------------------------------------------------------------------

  /**
   * One matching round inside `tx`: candidates from the one SQL query, ranked by the pure
   * module, match rows inserted and each new donor told (in-app, push, e-mail where on) in
   * the same transaction. The message has blood type, units, urgency, hospital, city and
   * distance — never the requester's contact. Returns how many donors were told.
   */
  async function matchRound(
    tx: Db,
    row: BloodRequestRow,
    round: number,
    radiusKm: number,
    at: Date,
  ): Promise<number> {
    const repo = createBloodRequestsRepository(tx);
    if (row.latitude === null || row.longitude === null) {
      await repo.update(row.id, { matchRound: round, lastMatchedAt: at, updatedAt: at });
      return 0;
    }
    const settings = await readNotificationSettings(tx);
    const point = { latitude: row.latitude, longitude: row.longitude };
    const rules = {
      radiusKm,
      maxDonorsPerRequest: settings.maxDonorsPerRequest,
      maxAlertsPerDonorPer7d:
        settings.maxAlertsPerDonorPer7d ?? MATCHING_DEFAULTS.maxAlertsPerDonorPer7d,
    };
    const rank = (rows: readonly MatchCandidate[]) =>
      rankCandidates(rows, { ...point, bloodType: row.bloodType }, at.getTime(), rules);
    // Candidates come in the ranking's order, a page at a time, until the ranking has its donors.
    const candidates = await repo.findCandidates(
      {
        requestId: row.id,
        ...point,
        radiusKm,
        box: boundingBox(point, radiusKm),
        donorTypes: compatibleDonorTypes(row.bloodType),
        lastDonationBy: new Date(at.getTime() - SHORTEST_INTERVAL_MS),
        alertsSince: new Date(at.getTime() - FAIRNESS_WINDOW_MS),
      },
      (rows) => rank(rows).length >= rules.maxDonorsPerRequest,
    );
    const ranked = rank(candidates);
    const inserted = await repo.insertMatches(
      ranked.map((candidate) => ({
        requestId: row.id,
        donorId: candidate.id,
        distanceKm: candidate.distanceKm,
        exactType: candidate.exactType,
        round,
        notifiedAt: at,
      })),
    );
    for (const candidate of ranked) {
      if (!inserted.has(candidate.id)) continue;
      await notifier.notify(tx, candidate.id, {
        type: 'blood_request.match',
        params: {
          urgency: (language) => URGENCY_LABELS[row.urgency]![language],
          bloodType: row.bloodType,
          units: String(row.unitsNeeded),
          hospital: row.hospitalName,
          city: row.city,
          distance: String(roundKm(candidate.distanceKm)),
        },
        link: `/dashboard?request=${row.id}`,
        email: true,
      });
    }
    await repo.recordRound(row.id, round, radiusKm, at);
    await createActivityLog(tx).record({
      action: 'blood_request.matched',
      targetType: 'blood_request',
      targetId: row.id,
      details: { round, radiusKm, notified: inserted.size, candidates: candidates.length },
    });
    return inserted.size;
  }

  // ---- status changes ----------------------------------------------------------------------

  async function tellRequester(
    tx: Db,
    row: BloodRequestRow,
    actor: Actor,
    status: BloodRequestStatus,
  ) {
    if (!row.createdBy || row.createdBy === actor.id || status === 'in_progress') return;
    await notifier.notify(tx, row.createdBy, {
      type: 'blood_request.status_changed',
      params: { code: row.trackingCode, status: (language) => STATUS_LABELS[status][language] },
      link: '/dashboard',
    });
  }

  /**
   * Moves `row` (locked by the caller) to `to`: checks the state machine (409
   * INVALID_TRANSITION), appends history, logs it, tells the requester, and runs the first
   * matching round when it becomes verified.
   */
  async function transition(
    tx: Db,
    row: BloodRequestRow,
    to: BloodRequestStatus,
    actor: Actor,
    notes: string | null,
    meta: Pick<RequestMeta, 'requestId'> | null,
  ): Promise<BloodRequestRow> {
    if (!canTransition(row.status, to)) {
      throw new AppError(
        'INVALID_TRANSITION',
        `A blood request that is ${row.status.replace('_', ' ')} cannot become ${to.replace('_', ' ')}.`,
        { from: row.status, to },
      );
    }
    const repo = createBloodRequestsRepository(tx);
    const at = new Date(now());
    let updated = await repo.update(row.id, {
      status: to,
      updatedAt: at,
      ...(to === 'verified' ? { verifiedAt: at } : {}),
      ...(to === 'fulfilled' ? { fulfilledAt: at } : {}),
    });
    await repo.addHistory({
      requestId: row.id,
      status: to,
      notes,
      by: actor.id,
      byRole: actor.role,
      at,
    });
    await createActivityLog(tx).record({
      action: 'blood_request.status_changed',
      actorId: actor.id,
      actorRole: actor.role,
      targetType: 'blood_request',
      targetId: row.id,
      details: { from: row.status, to, trackingCode: row.trackingCode },
      requestId: meta?.requestId ?? null,
    });
    await tellRequester(tx, updated, actor, to);
    if (to === 'cancelled' || to === 'fulfilled' || to === 'expired') {
      // Donors who accepted may be on their way: tell them not to travel.
      for (const donorId of await repo.acceptedNotDonated(row.id)) {
        await notifier.notify(tx, donorId, {
          type: 'blood_request.closed',
          params: {
            bloodType: row.bloodType,
            hospital: row.hospitalName,
            city: row.city,
            status: (language) => STATUS_LABELS[to][language],
          },
          link: '/dashboard',
          email: true,
        });
      }
    }
    if (to === 'verified') {
      const settings = await readNotificationSettings(tx);
      await matchRound(tx, updated, 1, settings.matchRadiusKm, at);
      updated = (await repo.findById(row.id)) ?? updated;
    }
    return updated;
  }

  async function notifyStaff(tx: Db, row: BloodRequestRow) {
    const repo = createBloodRequestsRepository(tx);
    const settings = await readNotificationSettings(tx);
    const params = {
      units: String(row.unitsNeeded),
      bloodType: row.bloodType,
      hospital: row.hospitalName,
      city: row.city,
    };
    const critical = row.urgency === 'critical' && settings.notifyAdminsOnCritical;
    if (critical || row.status === 'pending') {
      for (const adminId of await repo.adminIds()) {
        await notifier.notify(tx, adminId, {
          type: critical ? 'blood_request.critical' : 'blood_request.awaiting_verification',
          params,
          link: '/admin/requests',
          email: critical,
        });
      }
    }
    // The hospital the request names can verify it.
    if (row.status === 'pending' && row.hospitalId) {
      for (const userId of await repo.hospitalUserIds(row.hospitalId)) {
        await notifier.notify(tx, userId, {
          type: 'blood_request.awaiting_verification',
          params,
          link: '/hospital/dashboard',
        });
      }
    }
  }

  async function loadLocked(tx: Db, id: string): Promise<BloodRequestRow> {
    const row = await createBloodRequestsRepository(tx).findById(id, true);
    if (!row) throw notFound();
    return row;
  }

  async function requireManager(
    repo: BloodRequestsRepository,
    caller: AuthUser,
    row: BloodRequestRow,
    allowOwner: boolean,
  ): Promise<Access> {
    const { access } = await accessOf(repo, caller, row);
    if (access === 'admin' || access === 'hospital' || (allowOwner && access === 'owner')) {
      return access;
    }
    // A hospital account's own request is "its own" (API.md: status and accepted donors are for
    // the hospital for its own requests), though `accessOf` sees its author as the owner first.
    if (access === 'owner' && caller.role === 'hospital') return 'hospital';
    throw forbidden();
  }

  return {
    /**
     * Anyone (guests too). Guests and donors → pending; hospital accounts and administrators →
     * verified, and the first matching round runs in the same transaction. Duplicate guard,
     * per-phone limit and idempotency as documented on the route.
     */
    async create(
      caller: AuthUser | null,
      body: CreateBloodRequest,
      meta: RequestMeta,
    ): Promise<{ statusCode: 200 | 201; result: CreateBloodRequestResult; replayed: boolean }> {
      if (caller?.status === 'suspended') {
        throw new AppError('FORBIDDEN', 'Your account is suspended, so you cannot make requests.');
      }
      const actor = actorOf(caller);
      const privileged = actor.role === 'hospital' || actor.role === 'admin';

      const work = async (
        tx: Db,
      ): Promise<{ statusCode: 200 | 201; body: CreateBloodRequestResult }> => {
        const repo = createBloodRequestsRepository(tx);
        const at = new Date(now());
        const nameKey = hospitalNameKey(body.hospitalName);
        const duplicate = await repo.findOpenDuplicate({
          contactPhone: body.contactPhone,
          bloodType: body.bloodType,
          facilityId: body.facilityId ?? null,
          hospitalNameKey: nameKey,
          city: body.city,
          since: new Date(at.getTime() - DUPLICATE_WINDOW_MS),
        });
        if (duplicate) {
          return {
            statusCode: 200,
            body: { request: await fullView(tx, duplicate), duplicate: true },
          };
        }
        if (!privileged) {
          const recent = await repo.recentByPhone(
            body.contactPhone,
            new Date(at.getTime() - PHONE_LIMIT.windowMs),
          );
          if (recent.length >= PHONE_LIMIT.max) {
            const freeAt =
              recent[recent.length - PHONE_LIMIT.max]!.getTime() + PHONE_LIMIT.windowMs;
            const seconds = Math.max(1, Math.ceil((freeAt - at.getTime()) / 1000));
            throw new AppError(
              'RATE_LIMITED',
              `This phone number has made ${PHONE_LIMIT.max} requests in the last 24 hours. Please call the hospital's blood bank, or try again later.`,
              undefined,
              { 'retry-after': String(seconds) },
            );
          }
        }
        // A hospital account's request is at its own facility unless it names another one.
        const ownHospital =
          actor.role === 'hospital' && caller ? await repo.hospitalOfUser(caller.id) : null;
        const facilityId = body.facilityId ?? ownHospital?.facilityId ?? null;
        const location = await locate(repo, {
          facilityId,
          latitude: body.latitude ?? null,
          longitude: body.longitude ?? null,
          pincode: body.pincode ?? null,
        });
        let hospitalId = ownHospital?.id ?? null;
        if (!hospitalId && facilityId) hospitalId = await repo.hospitalForFacility(facilityId);
        const status: BloodRequestStatus = privileged ? 'verified' : 'pending';
        const requiredBy = body.requiredBy ? new Date(body.requiredBy) : null;
        const values: NewBloodRequestRow = {
          trackingCode: '',
          status: 'pending',
          urgency: body.urgency,
          bloodType: body.bloodType,
          unitsNeeded: body.unitsNeeded,
          patientName: body.patientName ?? null,
          hospitalName: body.hospitalName,
          hospitalNameKey: nameKey,
          facilityId,
          hospitalId,
          city: body.city,
          state: body.state,
          address: body.address ?? null,
          pincode: body.pincode ?? null,
          ...location,
          contactName: body.contactName,
          contactPhone: body.contactPhone,
          contactEmail: body.contactEmail ?? null,
          requiredBy,
          expiresAt:
            requiredBy ??
            new Date(at.getTime() + BLOOD_REQUEST_LIMITS.defaultLifetimeHours * HOUR_MS),
          notes: body.notes ?? null,
          createdBy: actor.id,
          createdByRole: actor.role,
          requesterIpHash: ipHash(meta.ip),
          createdAt: at,
          updatedAt: at,
        };
        let row: BloodRequestRow | undefined;
        for (let attempt = 0; !row; attempt += 1) {
          try {
            row = await tx.transaction((inner) =>
              createBloodRequestsRepository(inner).insert({
                ...values,
                trackingCode: generateTrackingCode(),
              }),
            );
          } catch (error) {
            if (attempt < 3 && uniqueViolation(error)?.includes('tracking_code')) continue;
            throw error;
          }
        }
        await repo.addHistory({
          requestId: row.id,
          status: 'pending',
          notes: null,
          by: actor.id,
          byRole: actor.role,
          at,
        });
        await createActivityLog(tx).record({
          action: 'blood_request.created',
          actorId: actor.id,
          actorRole: caller?.role ?? null,
          targetType: 'blood_request',
          targetId: row.id,
          details: {
            trackingCode: row.trackingCode,
            urgency: row.urgency,
            bloodType: row.bloodType,
            unitsNeeded: row.unitsNeeded,
            locationSource: row.locationSource,
          },
          requestId: meta.requestId,
        });
        if (status === 'verified') {
          row = await transition(
            tx,
            row,
            'verified',
            actor,
            'Made by a hospital or an administrator.',
            meta,
          );
        }
        await notifyStaff(tx, row);
        return { statusCode: 201, body: { request: await fullView(tx, row), duplicate: false } };
      };

      let outcome: { statusCode: number; body: unknown; replayed: boolean };
      if (meta.idempotencyKey) {
        outcome = await deps.idempotency.run(
          {
            key: meta.idempotencyKey,
            route: CREATE_ROUTE_KEY,
            requestHash: fingerprint({ body, caller: caller?.id ?? null }, deps.config.jwtSecret),
          },
          work,
        );
      } else {
        outcome = { ...(await db.transaction(work)), replayed: false };
      }
      notifier.kick();
      return {
        statusCode: outcome.statusCode === 200 ? 200 : 201,
        result: outcome.body as CreateBloodRequestResult,
        replayed: outcome.replayed,
      };
    },

    /** Anyone with the code: progress only, no personal data. */
    async track(code: string): Promise<BloodRequestTracking> {
      const repo = createBloodRequestsRepository(db);
      const row = await repo.findByTrackingCode(code);
      if (!row)
        throw new AppError('NOT_FOUND', 'There is no blood request with this tracking code.');
      const [history, counts, names] = await Promise.all([
        repo.historyFor([row.id]),
        repo.matchCountsFor([row.id]),
        repo.donorsOnTheirWay(row.id),
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
      };
    },

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
        await requireManager(repo, caller, current, true);
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
        const updated = await repo.update(id, set);
        await createActivityLog(tx).record({
          action: 'blood_request.updated',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'blood_request',
          targetId: id,
          details: { fields },
          requestId: meta.requestId,
        });
        return updated;
      });
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
        return transition(tx, current, body.status, actorOf(caller), body.notes ?? null, meta);
      });
      notifier.kick();
      return fullView(db, row);
    },

    /**
     * A matched donor answers. Accept: the reply carries the requester's contact, a verified
     * request becomes in_progress, and the requester (if registered) and the hospital are told
     * how many donors are on their way. Decline: never asked again for this request. The same
     * answer again is idempotent (200, same reply); the other answer after one was given is 409.
     */
    async respond(
      caller: AuthUser,
      id: string,
      response: MatchResponse,
      meta: RequestMeta,
    ): Promise<MatchedBloodRequest> {
      if (caller.role !== 'donor')
        throw new AppError('FORBIDDEN', 'Only donors respond to blood requests.');
      const view = await db.transaction(async (tx) => {
        const repo = createBloodRequestsRepository(tx);
        let row = await loadLocked(tx, id);
        const match = await repo.findMatch(id, caller.id);
        if (!match) throw new AppError('NOT_FOUND', 'You were not asked about this blood request.');
        if (match.response) {
          if (match.response === response) return toMatchedView(row, match);
          throw new AppError('CONFLICT', `You already ${match.response} this request.`);
        }
        if (row.status !== 'verified' && row.status !== 'in_progress') {
          throw new AppError('CONFLICT', 'This blood request is no longer looking for donors.');
        }
        const at = new Date(now());
        const answered = await repo.respond(match.id, response, at);
        if (!answered) throw new AppError('CONFLICT', 'You already responded to this request.');
        if (response === 'accepted') {
          if (row.status === 'verified') {
            row = await transition(tx, row, 'in_progress', SYSTEM, 'A donor accepted.', meta);
          }
          const accepted = (await repo.matchCountsFor([id])).get(id)?.accepted ?? 1;
          const params = {
            count: String(accepted),
            code: row.trackingCode,
            hospital: row.hospitalName,
          };
          const told = new Set<string>();
          if (row.createdBy && row.createdBy !== caller.id) told.add(row.createdBy);
          if (row.hospitalId)
            for (const userId of await repo.hospitalUserIds(row.hospitalId)) told.add(userId);
          for (const userId of told) {
            await notifier.notify(tx, userId, {
              type: 'blood_request.donor_accepted',
              params,
              link: '/dashboard',
              email: true,
            });
          }
        }
        await createActivityLog(tx).record({
          action: 'blood_request.responded',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'blood_request',
          targetId: id,
          details: { response },
          requestId: meta.requestId,
        });
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
          if (!row || !isOpenStatus(row.status) || row.expiresAt > at) return false;
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
  };
}

export type BloodRequestsService = ReturnType<typeof createBloodRequestsService>;
