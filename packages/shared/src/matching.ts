import { canDonateRedCells, isBloodType } from './compatibility';
import type { BloodType } from './constants';
import { addIsoDays, startOfIndianDay } from './dates';
import { AVAILABILITY_TTL_DAYS, type QuestionnaireAnswers } from './donors';
import { ageDeferral, evaluateEligibility, nextEligibleAfterDonation } from './eligibility';
import { haversineKm, type LatLng } from './geo';

/**
 * Who is told about a blood request, as a pure function of candidates the database found in a
 * bounding box. The server's query already applies the cheap filters; every rule is applied
 * again here so it is tested in one place and the two cannot drift apart silently.
 */

const DAY_MS = 86_400_000;

export const MATCHING_DEFAULTS = {
  /** First round's radius (API.md: default 25 km); admins change it in notification settings. */
  matchRadiusKm: 25,
  /** API.md: at most 20 donors are told per request (per round). */
  maxDonorsPerRequest: 20,
  /** Fairness: a donor gets at most this many request alerts in any 7 days. */
  maxAlertsPerDonorPer7d: 2,
  /** Widening: the radius grows by at least this much per round (and at least doubles)… */
  radiusStepKm: 25,
  /** …up to this radius. */
  maxRadiusKm: 100,
  /** A verified request with too few accepted donors widens this long after its last round. */
  widenAfterMinutes: 30,
} as const;

export interface MatchSettings {
  radiusKm: number;
  maxDonorsPerRequest: number;
  maxAlertsPerDonorPer7d: number;
  /**
   * The `advancedMatching` flag off (issue #21): the donor's type must be the request's exactly.
   * On (or absent): exact type first, then every type that can give red cells to it.
   */
  exactTypeOnly?: boolean;
}

export interface MatchRequest extends LatLng {
  bloodType: BloodType;
}

/** What the database knows about a possible donor. */
export interface MatchCandidate {
  id: string;
  role: string;
  status: string;
  bloodType: string | null;
  gender: string | null;
  latitude: number | null;
  longitude: number | null;
  /** The stored flag; lapsing is checked below from the two dates. */
  available: boolean;
  availabilityConfirmedAt: Date | string | null;
  /** The last day (YYYY-MM-DD, inclusive) the donor said they are available. */
  availableUntil: string | null;
  lastDonationAt: Date | string | null;
  deletedAt?: Date | string | null;
  /** YYYY-MM-DD; the age limits are decided at matching time from it. */
  dateOfBirth: string | null;
  /**
   * The questionnaire's answers, decided again at matching time (age limits, the interval and
   * timed deferrals that started or ended since it was saved), never the verdict stored then;
   * `onHold` when an administrator's review holds the donor back (the answers were rejected, or
   * a change reopened the review and no administrator has decided yet). Null without one.
   */
  questionnaire: { answers: QuestionnaireAnswers; onHold: boolean } | null;
  /** Request alerts (match rows) the donor got in the last 7 days, any request. */
  alertsLast7d: number;
  /** Already told about this request in an earlier round (or declined it): never again. */
  alreadyMatched: boolean;
}

export interface RankedCandidate {
  id: string;
  bloodType: BloodType;
  distanceKm: number;
  exactType: boolean;
}

export type ExclusionReason =
  | 'not_donor'
  | 'not_approved'
  | 'deleted'
  | 'unavailable'
  | 'incompatible'
  | 'donation_interval'
  | 'deferred'
  | 'no_location'
  | 'too_far'
  | 'already_matched'
  | 'fairness_cap';

const toTime = (value: Date | string) => new Date(value).getTime();

/** Available at `now`: said so, within AVAILABILITY_TTL_DAYS of confirming, before `until` ends. */
export function isAvailableAt(
  candidate: Pick<MatchCandidate, 'available' | 'availabilityConfirmedAt' | 'availableUntil'>,
  now: number,
): boolean {
  if (!candidate.available || !candidate.availabilityConfirmedAt) return false;
  if (now >= toTime(candidate.availabilityConfirmedAt) + AVAILABILITY_TTL_DAYS * DAY_MS) {
    return false;
  }
  // The `until` day is an Indian day: available to its end, 24:00 IST.
  return (
    !candidate.availableUntil ||
    now < startOfIndianDay(addIsoDays(candidate.availableUntil, 1)).getTime()
  );
}

/** The donation interval has passed (90 days for men, 120 for women and `other`). */
export function isPastDonationInterval(
  candidate: Pick<MatchCandidate, 'lastDonationAt' | 'gender'>,
  now: number,
): boolean {
  if (!candidate.lastDonationAt) return true;
  return now >= nextEligibleAfterDonation(candidate.lastDonationAt, candidate.gender).getTime();
}

/**
 * Whether a deferral applies at `now`: the questionnaire held by a review, or its answers
 * evaluated now (Schedule F XII-B / NBTC 2017, see eligibility.ts) with the date of birth and the
 * last donation; without a questionnaire, the age limits alone.
 */
export function isDeferredAt(
  candidate: Pick<MatchCandidate, 'questionnaire' | 'dateOfBirth' | 'gender' | 'lastDonationAt'>,
  now: number,
): boolean {
  const { questionnaire } = candidate;
  if (!questionnaire) {
    return candidate.dateOfBirth
      ? ageDeferral(candidate.dateOfBirth, false, new Date(now)) !== null
      : false;
  }
  if (questionnaire.onHold) return true;
  return !evaluateEligibility({
    dateOfBirth: candidate.dateOfBirth,
    gender: candidate.gender,
    answers: questionnaire.answers,
    lastDonationAt: candidate.lastDonationAt,
    now: new Date(now),
  }).eligible;
}

/**
 * The donor-selection part of `exclusionReason` alone (issue #32 items 1 and 2): the donation
 * interval, then every deferral (answers evaluated at `now`, a review on hold, age). Null when
 * the donor may give at `now`. Status, deletion, availability, type and distance are the
 * caller's. The matcher, the accept-time check and the "you can give blood again" reminder all
 * decide with it, so they cannot disagree.
 */
export function selectionDeferral(
  candidate: Pick<MatchCandidate, 'questionnaire' | 'dateOfBirth' | 'gender' | 'lastDonationAt'>,
  now: number,
): 'donation_interval' | 'deferred' | null {
  if (!isPastDonationInterval(candidate, now)) return 'donation_interval';
  if (isDeferredAt(candidate, now)) return 'deferred';
  return null;
}

/** Why a candidate is not told, or null when they are eligible for this request. */
export function exclusionReason(
  candidate: MatchCandidate,
  request: MatchRequest,
  now: number,
  settings: MatchSettings,
): ExclusionReason | null {
  if (candidate.role !== 'donor') return 'not_donor';
  if (candidate.status !== 'approved') return 'not_approved';
  if (candidate.deletedAt) return 'deleted';
  if (!isAvailableAt(candidate, now)) return 'unavailable';
  if (
    !isBloodType(candidate.bloodType) ||
    !canDonateRedCells(candidate.bloodType, request.bloodType) ||
    (settings.exactTypeOnly && candidate.bloodType !== request.bloodType)
  ) {
    return 'incompatible';
  }
  const deferral = selectionDeferral(candidate, now);
  if (deferral) return deferral;
  if (candidate.latitude === null || candidate.longitude === null) return 'no_location';
  const distance = haversineKm(request, {
    latitude: candidate.latitude,
    longitude: candidate.longitude,
  });
  if (distance > settings.radiusKm) return 'too_far';
  if (candidate.alreadyMatched) return 'already_matched';
  if (candidate.alertsLast7d >= settings.maxAlertsPerDonorPer7d) return 'fairness_cap';
  return null;
}

/**
 * The donors to tell, in order. Order: exact type first, then compatible types; within each,
 * nearest first; ties by id so the result is deterministic. Every donor in a round is within
 * its radius — close enough to reach the hospital — so the type decides first: it spares the
 * universal O− donors, the only ones an O− patient can receive, for the requests that need them.
 * Cut to `maxDonorsPerRequest`.
 */
export function rankCandidates(
  candidates: readonly MatchCandidate[],
  request: MatchRequest,
  now: number,
  settings: MatchSettings,
): RankedCandidate[] {
  const ranked: RankedCandidate[] = [];
  for (const candidate of candidates) {
    if (exclusionReason(candidate, request, now, settings) !== null) continue;
    ranked.push({
      id: candidate.id,
      bloodType: candidate.bloodType as BloodType,
      distanceKm: haversineKm(request, {
        latitude: candidate.latitude as number,
        longitude: candidate.longitude as number,
      }),
      exactType: candidate.bloodType === request.bloodType,
    });
  }
  ranked.sort(
    (a, b) =>
      Number(b.exactType) - Number(a.exactType) ||
      a.distanceKm - b.distanceKm ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return ranked.slice(0, Math.max(0, settings.maxDonorsPerRequest));
}

/**
 * The next round's radius: at least doubled and at least `stepKm` more (25 → 50 → 100 with the
 * defaults), capped at `maxKm`; null when `currentKm` already reached the cap (no more rounds).
 */
export function nextRadius(
  currentKm: number,
  stepKm: number = MATCHING_DEFAULTS.radiusStepKm,
  maxKm: number = MATCHING_DEFAULTS.maxRadiusKm,
): number | null {
  if (currentKm >= maxKm) return null;
  return Math.min(maxKm, Math.max(currentKm * 2, currentKm + stepKm));
}
