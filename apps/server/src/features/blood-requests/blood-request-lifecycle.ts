import {
  canTransition,
  compatibleDonorTypes,
  isOpenStatus,
  boundingBox,
  isRankingSettled,
  MATCHING_DEFAULTS,
  rankCandidates,
  roundKm,
  type BloodRequestStatus,
  type MatchCandidate,
  type MatchSettings,
  widenedRadiusKm,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { BloodRequestRow } from '../../db/schema';
import { flagInTransaction } from '../flags/flag-in-transaction';
import { AppError } from '../../lib/app-error';
import type { MailLanguage } from '../notifications/mail/templates';
import { readNotificationSettings } from '../../lib/notification-settings';
import {
  writeNotificationBatch,
  type NotificationBatch,
} from '../notifications/notification-batch';
import type { Notifier, NotifyInput, NotifyRecipient } from '../notifications/notifier';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import { SYSTEM, type Actor } from './blood-request-access';
import { createBloodRequestsRepository } from './blood-requests.repository';
import { updateRequest } from './request-statements';

const DAY_MS = 86_400_000;
/** The shortest donation interval (men): nobody who gave more recently can be asked. */
// The SQL's cheap pre-filter: the interval opens at 00:00 IST of the 90th Indian day, up to a day
// less than 90 × 24 h after the donation, so it keeps one day more; the ranking decides exactly.
const SHORTEST_INTERVAL_MS = 89 * DAY_MS;
const FAIRNESS_WINDOW_MS = 7 * DAY_MS;
/** `advancedMatching`: a donor's answers of the last year tell how likely they are to come. */
const RESPONSE_HISTORY_MS = 365 * DAY_MS;
/** An alert left unanswered this long counts as a no; a younger one is not counted yet. */
const ANSWER_TIME_MS = 2 * DAY_MS;

const URGENCY_LABELS: Record<string, Record<MailLanguage, string>> = {
  urgent: {
    en: 'Urgent',
    es: 'Urgente',
    hi: 'अत्यावश्यक',
    bn: 'জরুরি',
    mr: 'तातडीचे',
    te: 'అత్యవసరం',
    ta: 'அவசரம்',
  },
  critical: {
    en: 'Critical',
    es: 'Crítico',
    hi: 'गंभीर',
    bn: 'সংকটজনক',
    mr: 'गंभीर',
    te: 'ప్రాణాపాయం',
    ta: 'மிக அவசரம்',
  },
};
const STATUS_LABELS: Record<BloodRequestStatus, Record<MailLanguage, string>> = {
  unconfirmed: {
    en: 'waiting for the code sent to the contact phone',
    es: 'esperando el código enviado al teléfono de contacto',
    hi: 'संपर्क फ़ोन पर भेजे गए कोड की प्रतीक्षा में',
    bn: 'যোগাযোগের ফোনে পাঠানো কোডের অপেক্ষায়',
    mr: 'संपर्क फोनवर पाठवलेल्या कोडच्या प्रतीक्षेत',
    te: 'సంప్రదింపు ఫోన్‌కు పంపిన కోడ్ కోసం వేచి ఉంది',
    ta: 'தொடர்பு எண்ணுக்கு அனுப்பிய குறியீட்டுக்குக் காத்திருக்கிறது',
  },
  pending: {
    en: 'waiting for verification',
    es: 'pendiente de verificación',
    hi: 'सत्यापन की प्रतीक्षा में',
    bn: 'যাচাইয়ের অপেক্ষায়',
    mr: 'पडताळणीच्या प्रतीक्षेत',
    te: 'ధృవీకరణ కోసం వేచి ఉంది',
    ta: 'சரிபார்ப்புக்குக் காத்திருக்கிறது',
  },
  verified: {
    en: 'verified: donors nearby are being told',
    es: 'verificada: avisamos a donantes cercanos',
    hi: 'सत्यापित: पास के दाताओं को बताया जा रहा है',
    bn: 'যাচাই হয়েছে: কাছাকাছি রক্তদাতাদের জানানো হচ্ছে',
    mr: 'पडताळली: जवळच्या रक्तदात्यांना कळवत आहोत',
    te: 'ధృవీకరించబడింది: దగ్గరలోని రక్తదాతలకు తెలియజేస్తున్నాం',
    ta: 'சரிபார்க்கப்பட்டது: அருகிலுள்ள கொடையாளர்களுக்குத் தெரிவிக்கப்படுகிறது',
  },
  in_progress: {
    en: 'in progress',
    es: 'en curso',
    hi: 'प्रगति में',
    bn: 'চলছে',
    mr: 'सुरू आहे',
    te: 'కొనసాగుతోంది',
    ta: 'நடைபெறுகிறது',
  },
  fulfilled: {
    en: 'fulfilled',
    es: 'completada',
    hi: 'पूरा हुआ',
    bn: 'পূরণ হয়েছে',
    mr: 'पूर्ण झाली',
    te: 'పూర్తయింది',
    ta: 'நிறைவேறியது',
  },
  cancelled: {
    en: 'cancelled',
    es: 'cancelada',
    hi: 'रद्द',
    bn: 'বাতিল',
    mr: 'रद्द',
    te: 'రద్దయింది',
    ta: 'ரத்துசெய்யப்பட்டது',
  },
  expired: {
    en: 'expired',
    es: 'caducada',
    hi: 'समाप्त',
    bn: 'মেয়াদ শেষ',
    mr: 'मुदत संपली',
    te: 'గడువు ముగిసింది',
    ta: 'காலாவதியானது',
  },
};

export interface RequestLifecycleDeps {
  notifier: Pick<Notifier, 'notify' | 'notifyMany' | 'planMany'>;
  now: () => number;
  /** The widest matching round (km). */
  maxRadiusKm: number;
}

/**
 * What happens to a request over its life: matching rounds, status changes along the state
 * machine (with history, activity log and the people to tell) and the way back to review.
 */
export function createRequestLifecycle(deps: RequestLifecycleDeps) {
  const { notifier, now } = deps;

  /**
   * The first round's radius: a request placed at its PIN code's point starts wider when that
   * point is approximate (medium or low confidence: widenedRadiusKm), so the donors near the
   * real place are not missed; never wider than the widest round.
   */
  async function firstRadius(tx: Db, row: BloodRequestRow, radiusKm: number): Promise<number> {
    if (row.locationSource !== 'pincode' || !row.pincode) return radiusKm;
    const point = await createBloodRequestsRepository(tx).findPincode(row.pincode);
    return Math.min(deps.maxRadiusKm, widenedRadiusKm(radiusKm, point?.confidence ?? null));
  }

  /**
   * One matching round inside `tx`: candidates from the one SQL query, ranked by the pure
   * module, match rows inserted and each new donor told (in-app, push, e-mail where on) in
   * the same transaction. The message has blood type, units, urgency, hospital, city and
   * distance — never the requester's contact. Resolves with the request as the round left it.
   */
  async function matchRound(
    tx: Db,
    row: BloodRequestRow,
    round: number,
    radiusKm: number,
    at: Date,
  ): Promise<BloodRequestRow> {
    const repo = createBloodRequestsRepository(tx);
    // A demo request (the mockData flag) never reaches a donor, real or demo: its rounds are
    // recorded and tell nobody (docs/decisions/010-demo-data.md).
    if (row.isDemo || row.latitude === null || row.longitude === null) {
      return repo.update(row.id, { matchRound: round, lastMatchedAt: at, updatedAt: at });
    }
    const settings = await readNotificationSettings(tx);
    const point = { latitude: row.latitude, longitude: row.longitude };
    // Every red-cell-compatible type is asked, the exact type first (issue #32 item 4,
    // docs/decisions/011-compatible-donors-by-default.md); `advancedMatching` orders each type
    // tier by how likely the donor is to come as well as how far they are.
    const advanced = await flagInTransaction(tx, 'advancedMatching');
    const rules: MatchSettings = {
      ranking: advanced ? 'likelyToAnswer' : 'nearest',
      radiusKm,
      maxDonorsPerRequest: settings.maxDonorsPerRequest,
      maxAlertsPerDonorPer7d:
        settings.maxAlertsPerDonorPer7d ?? MATCHING_DEFAULTS.maxAlertsPerDonorPer7d,
    };
    const request = { ...point, bloodType: row.bloodType };
    const rank = (rows: readonly MatchCandidate[]) =>
      rankCandidates(rows, request, at.getTime(), rules);
    const alertsSince = new Date(at.getTime() - FAIRNESS_WINDOW_MS);
    // Candidates come in the ranking's order, a page at a time, until the ranking has its donors.
    const candidates = await repo.findCandidates(
      {
        requestId: row.id,
        ...point,
        radiusKm,
        box: boundingBox(point, radiusKm),
        donorTypes: compatibleDonorTypes(row.bloodType),
        lastDonationBy: new Date(at.getTime() - SHORTEST_INTERVAL_MS),
        alertsSince,
        ...(advanced
          ? {
              responses: {
                since: new Date(at.getTime() - RESPONSE_HISTORY_MS),
                answeredBy: new Date(at.getTime() - ANSWER_TIME_MS),
              },
            }
          : {}),
      },
      (rows) => isRankingSettled(rows, request, at.getTime(), rules),
    );
    const chosen = rank(candidates);
    // The candidates' alert counts were read before any lock: count again under the per-donor
    // lock and leave out whoever a concurrent round has just brought to the cap.
    const counts = await repo.lockAlertCounts(
      chosen.map((candidate) => candidate.id),
      alertsSince,
    );
    const ranked = chosen.filter(
      (candidate) => (counts.get(candidate.id) ?? 0) < rules.maxAlertsPerDonorPer7d,
    );
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
    // Every donor of the round in one batch: a constant number of statements (issue #20).
    await notifier.notifyMany(
      tx,
      ranked
        .filter((candidate) => inserted.has(candidate.id))
        .map((candidate) => ({
          userId: candidate.id,
          input: {
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
            reachOut: true,
            // A reply to the alert (YES by SMS, "I can donate") answers this request; Critical
            // alerts never wait for quiet hours and may exceed a channel's daily budget.
            subject: { bloodRequestId: row.id },
            critical: row.urgency === 'critical',
          },
        })),
    );
    return updateRequest(
      tx,
      row.id,
      { matchRound: round, searchRadiusKm: radiusKm, lastMatchedAt: at, updatedAt: at },
      {
        activity: [
          {
            action: 'blood_request.matched',
            targetType: 'blood_request',
            targetId: row.id,
            details: { round, radiusKm, notified: inserted.size, candidates: candidates.length },
          },
        ],
      },
    );
  }

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
    // The change, its history step and its audit entry: one statement.
    let updated = await updateRequest(
      tx,
      row.id,
      {
        status: to,
        updatedAt: at,
        ...(to === 'verified' ? { verifiedAt: at } : {}),
        ...(to === 'fulfilled' ? { fulfilledAt: at } : {}),
      },
      {
        history: { requestId: row.id, status: to, notes, by: actor.id, byRole: actor.role, at },
        activity: [
          {
            action: 'blood_request.status_changed',
            actorId: actor.id,
            actorRole: actor.role,
            targetType: 'blood_request',
            targetId: row.id,
            details: { from: row.status, to, trackingCode: row.trackingCode },
            requestId: meta?.requestId ?? null,
          },
        ],
      },
    );
    await tellRequester(tx, updated, actor, to);
    if (to === 'cancelled' || to === 'fulfilled' || to === 'expired') {
      // Donors who accepted may be on their way: tell them not to travel.
      const input: NotifyInput = {
        type: 'blood_request.closed',
        params: {
          bloodType: row.bloodType,
          hospital: row.hospitalName,
          city: row.city,
          status: (language) => STATUS_LABELS[to][language],
        },
        link: '/dashboard',
        reachOut: true,
      };
      await notifier.notifyMany(
        tx,
        (await repo.acceptedNotDonated(row.id)).map((userId) => ({ userId, input })),
      );
    }
    if (to === 'verified') {
      const settings = await readNotificationSettings(tx);
      const radiusKm = await firstRadius(tx, updated, settings.matchRadiusKm);
      updated = await matchRound(tx, updated, 1, radiusKm, at);
      // Verified again after a change (backToReview): donors who had accepted are told, and
      // the request is in progress again. Never matched before, no donor can be waiting (a
      // walk-in's match row is a donation already), so a first verification reads nothing.
      const waiting = row.matchRound === 0 ? [] : await repo.acceptedNotDonated(row.id);
      const input: NotifyInput = {
        type: 'blood_request.verified_again',
        params: { bloodType: row.bloodType, hospital: row.hospitalName, city: row.city },
        link: `/dashboard?request=${row.id}`,
        reachOut: true,
      };
      await notifier.notifyMany(
        tx,
        waiting.map((userId) => ({ userId, input })),
      );
      if (waiting.length > 0) {
        updated = await transition(
          tx,
          updated,
          'in_progress',
          SYSTEM,
          'Donors had accepted.',
          meta,
        );
      }
    }
    return updated;
  }

  /**
   * What telling the staff of `row` writes (the administrators, and the hospital it names while
   * it awaits verification), planned without writing it: a new request sends it with its own
   * insert (blood-request-create.ts). `except`: users already told about this request by the
   * caller (the verifier, say).
   */
  async function planStaffNotifications(
    tx: Db,
    row: Pick<
      BloodRequestRow,
      'urgency' | 'status' | 'hospitalId' | 'unitsNeeded' | 'bloodType' | 'hospitalName' | 'city'
    >,
    except: ReadonlySet<string> = new Set(),
  ): Promise<NotificationBatch> {
    const repo = createBloodRequestsRepository(tx);
    const settings = await readNotificationSettings(tx);
    const params = {
      units: String(row.unitsNeeded),
      bloodType: row.bloodType,
      hospital: row.hospitalName,
      city: row.city,
    };
    const critical = row.urgency === 'critical' && settings.notifyAdminsOnCritical;
    const told = (ids: readonly string[], input: NotifyInput) =>
      ids.filter((userId) => !except.has(userId)).map((userId) => ({ userId, input }));
    const recipients: NotifyRecipient[] = [];
    if (critical || row.status === 'pending') {
      recipients.push(
        ...told(await repo.adminIds(), {
          type: critical ? 'blood_request.critical' : 'blood_request.awaiting_verification',
          params,
          link: '/admin/requests',
          reachOut: critical,
        }),
      );
    }
    // The hospital the request names can verify it.
    if (row.status === 'pending' && row.hospitalId) {
      recipients.push(
        ...told(await repo.hospitalUserIds(row.hospitalId), {
          type: 'blood_request.awaiting_verification',
          params,
          link: '/hospital/dashboard',
        }),
      );
    }
    return notifier.planMany(tx, recipients);
  }

  async function notifyStaff(
    tx: Db,
    row: BloodRequestRow,
    except: ReadonlySet<string> = new Set(),
  ) {
    await writeNotificationBatch(tx, await planStaffNotifications(tx, row, except));
  }

  /**
   * A verified (or in-progress) request whose requester changed `changed` goes back to
   * `pending`: no donor is told and no contact is handed out until a verifier checks it again
   * (widening runs only on verified requests). The verifier, the administrators and the hospital
   * it names are told; donors who accepted are asked not to travel or pay until it is verified.
   */
  async function backToReview(
    tx: Db,
    before: BloodRequestRow,
    row: BloodRequestRow,
    changed: readonly string[],
    caller: AuthUser,
    meta: Pick<RequestMeta, 'requestId'>,
  ): Promise<BloodRequestRow> {
    if (!isOpenStatus(row.status) || row.status === 'pending') return row;
    const repo = createBloodRequestsRepository(tx);
    const at = new Date(now());
    const updated = await updateRequest(
      tx,
      row.id,
      { status: 'pending', verifiedAt: null, updatedAt: at },
      {
        history: {
          requestId: row.id,
          status: 'pending',
          notes: `Changed by the requester after verification (${changed.join(', ')}): waiting for verification again.`,
          by: caller.id,
          byRole: caller.role,
          at,
        },
        activity: [
          {
            action: 'blood_request.back_to_review',
            actorId: caller.id,
            actorRole: caller.role,
            targetType: 'blood_request',
            targetId: row.id,
            details: { from: row.status, fields: changed, trackingCode: row.trackingCode },
            requestId: meta.requestId,
          },
        ],
      },
    );
    const params = {
      code: row.trackingCode,
      bloodType: before.bloodType,
      hospital: before.hospitalName,
      city: before.city,
      fields: changed.join(', '),
    };
    const told = new Set<string>([caller.id]);
    const recipients: NotifyRecipient[] = [];
    for (const verifier of await repo.verifiersOf(row.id)) {
      if (told.has(verifier.id)) continue;
      told.add(verifier.id);
      recipients.push({
        userId: verifier.id,
        input: {
          type: 'blood_request.back_to_review',
          params,
          link: verifier.role === 'hospital' ? '/hospital/dashboard' : '/admin/requests',
          reachOut: true,
        },
      });
    }
    for (const donorId of await repo.acceptedNotDonated(row.id)) {
      recipients.push({
        userId: donorId,
        input: {
          type: 'blood_request.on_hold',
          params,
          link: `/dashboard?request=${row.id}`,
          reachOut: true,
        },
      });
    }
    await notifier.notifyMany(tx, recipients);
    await notifyStaff(tx, updated, told);
    return updated;
  }

  return { matchRound, transition, notifyStaff, planStaffNotifications, backToReview };
}

export type RequestLifecycle = ReturnType<typeof createRequestLifecycle>;
