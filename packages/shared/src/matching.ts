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
   * How donors of one type tier are ordered (docs/decisions/011-compatible-donors-by-default.md).
   * Every donor of a compatible type can be asked either way: the exact type first, then every
   * type that can give red cells to it (compatibility.ts), which fill the round only when the
   * exact type cannot.
   * - `nearest` (the default; `advancedMatching` off): nearest first.
   * - `likelyToAnswer` (`advancedMatching` on): by `travelScore`, the distance weighed by how
   *   likely the donor is to say yes, from their past answers.
   */
  ranking?: 'nearest' | 'likelyToAnswer';
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
  /**
   * The donor's past request alerts (other requests) that had time to be answered, and how many
   * they accepted; read for the `likelyToAnswer` ranking only (absent: no history).
   */
  responses?: { asked: number; accepted: number } | null;
}

export interface RankedCandidate {
  id: string;
  bloodType: BloodType;
  distanceKm: number;
  exactType: boolean;
  /** What orders the donors of one type tier: the distance (`nearest`) or `travelScore`. */
  score: number;
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
    !canDonateRedCells(candidate.bloodType, request.bloodType)
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
 * How likely a donor is to accept an alert, from their past answers: (accepted + 1) / (asked + 2),
 * Laplace's rule of succession, so a donor without a history counts as an even chance and one
 * answer moves it only a little (a donor who said no once is not written off).
 */
export function answerLikelihood(
  responses: { asked: number; accepted: number } | null | undefined,
): number {
  const asked = Math.max(0, responses?.asked ?? 0);
  const accepted = Math.min(asked, Math.max(0, responses?.accepted ?? 0));
  return (accepted + 1) / (asked + 2);
}

/**
 * The `likelyToAnswer` ranking's key: the kilometres travelled per donor who comes, if every
 * donor asked were as likely to come as this one, that is (distance + 1 km) / likelihood. The
 * extra kilometre keeps a donor next door who never answers from beating a reliable one a few
 * kilometres off. Never less than the distance (likelihood ≤ 1): the candidate query's pages,
 * read nearest first, can stop once a page's farthest distance passes the last score kept
 * (`isRankingSettled`).
 */
export function travelScore(distanceKm: number, likelihood: number): number {
  return (distanceKm + 1) / likelihood;
}

const byRanking = (a: RankedCandidate, b: RankedCandidate) =>
  Number(b.exactType) - Number(a.exactType) ||
  a.score - b.score ||
  a.distanceKm - b.distanceKm ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The donors to tell, in order. Every donor whose red cells the patient can receive may be asked
 * (compatibility.ts, the ABO/RhD table); the exact type comes first and the compatible types
 * fill the round only where the exact type cannot (docs/decisions/011). Within each tier,
 * nearest first (`nearest`) or by `travelScore` (`likelyToAnswer`); ties by distance, then id,
 * so the result is deterministic. Every donor in a round is within its radius — close enough to
 * reach the hospital — so the type decides first: it spares the universal O− donors, the only
 * ones an O− patient can receive, for the requests that need them.
 * Cut to `maxDonorsPerRequest`.
 */
export function rankCandidates(
  candidates: readonly MatchCandidate[],
  request: MatchRequest,
  now: number,
  settings: MatchSettings,
): RankedCandidate[] {
  const ranked: RankedCandidate[] = [];
  const likely = settings.ranking === 'likelyToAnswer';
  for (const candidate of candidates) {
    if (exclusionReason(candidate, request, now, settings) !== null) continue;
    const distanceKm = haversineKm(request, {
      latitude: candidate.latitude as number,
      longitude: candidate.longitude as number,
    });
    ranked.push({
      id: candidate.id,
      bloodType: candidate.bloodType as BloodType,
      distanceKm,
      exactType: candidate.bloodType === request.bloodType,
      score: likely ? travelScore(distanceKm, answerLikelihood(candidate.responses)) : distanceKm,
    });
  }
  ranked.sort(byRanking);
  return ranked.slice(0, Math.max(0, settings.maxDonorsPerRequest));
}

/**
 * Whether candidates read in the query's order (exact type first, then nearest) are enough:
 * no candidate after them could enter `rankCandidates`' result. With `nearest`, the first
 * `maxDonorsPerRequest` eligible ones are the result. With `likelyToAnswer`, a later candidate
 * is at least as far as the last one read, so its score is at least that distance: the result
 * is settled once it is full and its last donor is of a better tier than the last row read, or
 * of the same tier with a score no greater than that row's distance.
 */
export function isRankingSettled(
  candidates: readonly MatchCandidate[],
  request: MatchRequest,
  now: number,
  settings: MatchSettings,
): boolean {
  const ranked = rankCandidates(candidates, request, now, settings);
  if (ranked.length < settings.maxDonorsPerRequest) return false;
  if (settings.ranking !== 'likelyToAnswer') return true;
  const lastRead = candidates.at(-1);
  const lastKept = ranked.at(-1);
  if (!lastRead || !lastKept) return true;
  if (lastRead.latitude === null || lastRead.longitude === null) return false;
  const readExact = lastRead.bloodType === request.bloodType;
  if (lastKept.exactType && !readExact) return true;
  if (lastKept.exactType !== readExact) return false;
  const readKm = haversineKm(request, {
    latitude: lastRead.latitude,
    longitude: lastRead.longitude,
  });
  return lastKept.score <= readKm;
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
