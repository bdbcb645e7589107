import { describe, expect, it } from 'vitest';
import {
  answerLikelihood,
  exclusionReason,
  isAvailableAt,
  isRankingSettled,
  MATCHING_DEFAULTS,
  nextRadius,
  rankCandidates,
  selectionDeferral,
  travelScore,
  type MatchCandidate,
  type MatchRequest,
  type MatchSettings,
} from './matching';
import type { QuestionnaireAnswers } from './donors';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const HYDERABAD = { latitude: 17.385, longitude: 78.4867 };
/** A point `km` north of Hyderabad (1° of latitude ≈ 111.195 km). */
const north = (km: number) => ({
  latitude: HYDERABAD.latitude + km / 111.195,
  longitude: HYDERABAD.longitude,
});

const REQUEST: MatchRequest = { ...HYDERABAD, bloodType: 'O-' };
const SETTINGS: MatchSettings = {
  radiusKm: 25,
  maxDonorsPerRequest: 20,
  maxAlertsPerDonorPer7d: 2,
};

const HEALTHY: QuestionnaireAnswers = {
  weightKg: 62,
  firstTimeDonor: false,
  feelsWell: true,
  conditions: [],
};
const answering = (answers: Partial<QuestionnaireAnswers>) => ({
  questionnaire: { answers: { ...HEALTHY, ...answers }, onHold: false },
});

let sequence = 0;
function candidate(overrides: Partial<MatchCandidate> = {}): MatchCandidate {
  sequence += 1;
  return {
    id: `donor-${String(sequence).padStart(4, '0')}`,
    role: 'donor',
    status: 'approved',
    bloodType: 'O-',
    gender: 'male',
    ...north(5),
    available: true,
    availabilityConfirmedAt: new Date(NOW - 10 * DAY),
    availableUntil: null,
    lastDonationAt: null,
    deletedAt: null,
    dateOfBirth: '1990-04-01',
    questionnaire: { answers: HEALTHY, onHold: false },
    alertsLast7d: 0,
    alreadyMatched: false,
    ...overrides,
  };
}

const reason = (overrides: Partial<MatchCandidate>, request: MatchRequest = REQUEST) =>
  exclusionReason(candidate(overrides), request, NOW, SETTINGS);

describe('exclusionReason', () => {
  it('accepts an approved, available, compatible donor nearby', () => {
    expect(reason({})).toBeNull();
  });

  it.each([
    [{ role: 'hospital' }, 'not_donor'],
    [{ role: 'admin' }, 'not_donor'],
    [{ status: 'pending' }, 'not_approved'],
    [{ status: 'suspended' }, 'not_approved'],
    [{ status: 'rejected' }, 'not_approved'],
    [{ deletedAt: new Date(NOW - DAY) }, 'deleted'],
    [{ available: false }, 'unavailable'],
    [{ availabilityConfirmedAt: null }, 'unavailable'],
    [{ availabilityConfirmedAt: new Date(NOW - 90 * DAY) }, 'unavailable'],
    [{ availableUntil: '2026-06-14' }, 'unavailable'],
    [{ bloodType: 'A+' }, 'incompatible'],
    [{ bloodType: null }, 'incompatible'],
    [{ bloodType: 'Z+' }, 'incompatible'],
    [{ lastDonationAt: new Date(NOW - 60 * DAY) }, 'donation_interval'],
    [answering({ conditions: ['hiv'] }), 'deferred'],
    [answering({ conditions: ['cold_flu'] }), 'deferred'],
    [
      answering({ conditions: ['dental_work'], conditionDates: { dental_work: '2026-06-14' } }),
      'deferred',
    ],
    [{ questionnaire: { answers: HEALTHY, onHold: true } }, 'deferred'],
    [{ dateOfBirth: '1960-06-14' }, 'deferred'],
    [{ dateOfBirth: '1960-06-14', questionnaire: null }, 'deferred'],
    [{ dateOfBirth: '2008-06-16', questionnaire: null }, 'deferred'],
    [{ latitude: null, longitude: null }, 'no_location'],
    [{ ...north(25.5) }, 'too_far'],
    [{ ...north(100) }, 'too_far'],
    [{ alreadyMatched: true }, 'already_matched'],
    [{ alertsLast7d: 2 }, 'fairness_cap'],
  ] as [Partial<MatchCandidate>, string][])('excludes %o as %s', (overrides, expected) => {
    expect(reason(overrides)).toBe(expected);
  });

  it('accepts a deferral that has ended, availability until today, and one alert this week', () => {
    expect(
      reason(
        answering({
          conditions: ['covid_vaccine'],
          conditionDates: { covid_vaccine: '2026-06-01' },
        }),
      ),
    ).toBeNull();
    expect(reason({ availableUntil: '2026-06-15' })).toBeNull();
    expect(reason({ alertsLast7d: 1 })).toBeNull();
    expect(reason({ ...north(24.9) })).toBeNull();
  });

  it('lets compatible types give: O- to anyone, O+ to A+, never A+ to O-', () => {
    expect(reason({ bloodType: 'O+' }, { ...REQUEST, bloodType: 'A+' })).toBeNull();
    expect(reason({ bloodType: 'O-' }, { ...REQUEST, bloodType: 'AB+' })).toBeNull();
    expect(reason({ bloodType: 'A+' }, { ...REQUEST, bloodType: 'O-' })).toBe('incompatible');
  });
});

describe('donation interval boundaries', () => {
  it.each([
    ['male', 89, 'donation_interval'],
    ['male', 90, null],
    ['female', 119, 'donation_interval'],
    ['female', 120, null],
    ['other', 119, 'donation_interval'],
    ['other', 120, null],
    [null, 119, 'donation_interval'],
  ] as const)('a %s donor who gave %i days ago: %s', (gender, days, expected) => {
    expect(reason({ gender, lastDonationAt: new Date(NOW - days * DAY) })).toBe(expected);
  });

  it('counts Indian days: the interval opens at 00:00 IST, whatever the hour of the donation', () => {
    // Given at 23:59 IST on 17 March: eligible from 00:00 IST on 15 June (90 days later).
    const lastDonationAt = new Date('2026-03-17T18:29:00.000Z');
    const opens = Date.parse('2026-06-14T18:30:00.000Z');
    const at = (now: number) =>
      exclusionReason(candidate({ lastDonationAt }), REQUEST, now, SETTINGS);
    expect(at(opens - 1)).toBe('donation_interval');
    expect(at(opens)).toBeNull();
  });
});

describe('eligibility decided at matching time', () => {
  it('applies the first-time limit of 60 until a donation is on record', () => {
    const firstTimer = { dateOfBirth: '1965-06-01', ...answering({ firstTimeDonor: true }) };
    expect(reason(firstTimer)).toBe('deferred');
    expect(reason({ ...firstTimer, lastDonationAt: new Date(NOW - 200 * DAY) })).toBeNull();
  });

  it('turns 18 and 66 at 00:00 IST', () => {
    // 00:30 IST on 15 June 2026.
    const at = Date.parse('2026-06-14T19:00:00.000Z');
    const turning = (dateOfBirth: string) =>
      exclusionReason(
        candidate({ dateOfBirth, availabilityConfirmedAt: new Date(at - DAY) }),
        REQUEST,
        at,
        SETTINGS,
      );
    expect(turning('2008-06-15')).toBeNull();
    expect(turning('2008-06-16')).toBe('deferred');
    expect(turning('1960-06-15')).toBe('deferred');
    expect(turning('1960-06-16')).toBeNull();
  });
});

describe('selectionDeferral', () => {
  it('is the interval and deferral part of exclusionReason, whatever the status or place', () => {
    const far = { ...north(500), status: 'suspended', available: false };
    expect(selectionDeferral(candidate(far), NOW)).toBeNull();
    expect(
      selectionDeferral(candidate({ ...far, lastDonationAt: new Date(NOW - 10 * DAY) }), NOW),
    ).toBe('donation_interval');
    expect(
      selectionDeferral(candidate({ ...far, ...answering({ conditions: ['leprosy'] }) }), NOW),
    ).toBe('deferred');
    expect(
      selectionDeferral(candidate({ questionnaire: { answers: HEALTHY, onHold: true } }), NOW),
    ).toBe('deferred');
    expect(selectionDeferral(candidate({ dateOfBirth: '1960-01-01' }), NOW)).toBe('deferred');
  });
});

describe('isAvailableAt', () => {
  it('lapses 90 days after confirmation', () => {
    const row = { available: true, availabilityConfirmedAt: new Date(NOW), availableUntil: null };
    expect(isAvailableAt(row, NOW + 90 * DAY - 1)).toBe(true);
    expect(isAvailableAt(row, NOW + 90 * DAY)).toBe(false);
  });

  it('keeps the until day to its end in India (24:00 IST), not in UTC', () => {
    const row = {
      available: true,
      availabilityConfirmedAt: new Date(NOW),
      availableUntil: '2026-06-20',
    };
    expect(isAvailableAt(row, Date.parse('2026-06-20T18:29:59.999Z'))).toBe(true);
    expect(isAvailableAt(row, Date.parse('2026-06-20T18:30:00.000Z'))).toBe(false);
  });
});

describe('rankCandidates', () => {
  it('puts the exact type first, then the nearest, and cuts to maxDonorsPerRequest', () => {
    const request: MatchRequest = { ...HYDERABAD, bloodType: 'A+' };
    const far = candidate({ id: 'exact-far', bloodType: 'A+', ...north(20) });
    const near = candidate({ id: 'exact-near', bloodType: 'A+', ...north(2) });
    const compatibleNear = candidate({ id: 'o-neg-near', bloodType: 'O-', ...north(1) });
    const compatibleMid = candidate({ id: 'a-neg-mid', bloodType: 'A-', ...north(10) });
    const incompatible = candidate({ id: 'b-pos', bloodType: 'B+', ...north(1) });
    const ranked = rankCandidates(
      [far, compatibleMid, incompatible, compatibleNear, near],
      request,
      NOW,
      SETTINGS,
    );
    expect(ranked.map((r) => r.id)).toEqual(['exact-near', 'exact-far', 'o-neg-near', 'a-neg-mid']);
    expect(ranked[0]).toMatchObject({ exactType: true, bloodType: 'A+' });
    expect(ranked[0]!.distanceKm).toBeCloseTo(2, 1);
    expect(ranked[2]).toMatchObject({ exactType: false, bloodType: 'O-' });

    const cut = rankCandidates([far, compatibleMid, compatibleNear, near], request, NOW, {
      ...SETTINGS,
      maxDonorsPerRequest: 2,
    });
    expect(cut.map((r) => r.id)).toEqual(['exact-near', 'exact-far']);
  });

  it('breaks distance ties by id, so the result is deterministic', () => {
    const a = candidate({ id: 'b', ...north(3) });
    const b = candidate({ id: 'a', ...north(3) });
    expect(rankCandidates([a, b], REQUEST, NOW, SETTINGS).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('applies the fairness cap: a donor alerted twice in 7 days is skipped for a third request', () => {
    const tired = candidate({ id: 'tired', alertsLast7d: 2, ...north(1) });
    const once = candidate({ id: 'once', alertsLast7d: 1, ...north(2) });
    const fresh = candidate({ id: 'fresh', alertsLast7d: 0, ...north(3) });
    expect(rankCandidates([tired, once, fresh], REQUEST, NOW, SETTINGS).map((r) => r.id)).toEqual([
      'once',
      'fresh',
    ]);
    // A higher cap (admin setting) lets the tired donor in.
    expect(
      rankCandidates([tired], REQUEST, NOW, { ...SETTINGS, maxAlertsPerDonorPer7d: 3 }),
    ).toHaveLength(1);
  });

  it('asks every red-cell-compatible type, never an incompatible one (AB− gets AB−, A−, B−, O−)', () => {
    const request: MatchRequest = { ...HYDERABAD, bloodType: 'AB-' };
    const types = ['AB-', 'AB+', 'A-', 'A+', 'B-', 'B+', 'O-', 'O+'] as const;
    const everyone = types.map((bloodType, index) =>
      candidate({ id: `t-${bloodType}`, bloodType, ...north(1 + index) }),
    );
    const ranked = rankCandidates(everyone, request, NOW, SETTINGS);
    expect(ranked.map((r) => r.bloodType)).toEqual(['AB-', 'A-', 'B-', 'O-']);
    // An O− patient: O− donors only, however near an O+ or A+ one is.
    const oNeg = rankCandidates(everyone, REQUEST, NOW, SETTINGS);
    expect(oNeg.map((r) => r.bloodType)).toEqual(['O-']);
    expect(exclusionReason(everyone[3]!, REQUEST, NOW, SETTINGS)).toBe('incompatible');
  });

  it('likelyToAnswer: orders a tier by travel per donor who comes, from past answers', () => {
    expect(answerLikelihood(null)).toBe(0.5);
    expect(answerLikelihood({ asked: 4, accepted: 4 })).toBeCloseTo(5 / 6);
    expect(answerLikelihood({ asked: 4, accepted: 0 })).toBeCloseTo(1 / 6);
    expect(travelScore(5, 0.5)).toBe(12);
    const request: MatchRequest = { ...HYDERABAD, bloodType: 'A+' };
    const silent = candidate({
      id: 'silent',
      bloodType: 'A+',
      ...north(2),
      responses: { asked: 6, accepted: 0 },
    });
    const reliable = candidate({
      id: 'reliable',
      bloodType: 'A+',
      ...north(7),
      responses: { asked: 6, accepted: 5 },
    });
    const fresh = candidate({ id: 'fresh', bloodType: 'A+', ...north(5) });
    const compatible = candidate({
      id: 'o-neg',
      bloodType: 'O-',
      ...north(1),
      responses: { asked: 9, accepted: 9 },
    });
    const rows = [silent, reliable, fresh, compatible];
    // nearest (the default): the exact type by distance, then the compatible type.
    expect(rankCandidates(rows, request, NOW, SETTINGS).map((r) => r.id)).toEqual([
      'silent',
      'fresh',
      'reliable',
      'o-neg',
    ]);
    // likelyToAnswer: reliable ((7 + 1) km / 0.75 ≈ 10.7) before fresh (6 / 0.5 = 12) before
    // silent (3 / 0.125 = 24); the type still decides first.
    const likely = rankCandidates(rows, request, NOW, { ...SETTINGS, ranking: 'likelyToAnswer' });
    expect(likely.map((r) => r.id)).toEqual(['reliable', 'fresh', 'silent', 'o-neg']);
    expect(likely[2]!.score).toBeCloseTo((likely[2]!.distanceKm + 1) / (1 / 8));
  });

  it('knows when pages read nearest first can no longer change the likelyToAnswer result', () => {
    const settings: MatchSettings = {
      ...SETTINGS,
      maxDonorsPerRequest: 1,
      ranking: 'likelyToAnswer',
    };
    const sure = candidate({ id: 'sure', ...north(2), responses: { asked: 8, accepted: 8 } });
    // sure scores 3 / 0.9 ≈ 3.3: a row read at 3 km could still beat it, one at 4 km cannot.
    expect(isRankingSettled([sure, candidate({ ...north(3) })], REQUEST, NOW, settings)).toBe(
      false,
    );
    expect(isRankingSettled([sure, candidate({ ...north(4) })], REQUEST, NOW, settings)).toBe(true);
    // nearest: the first eligible rows are the result.
    expect(isRankingSettled([sure], REQUEST, NOW, { ...settings, ranking: 'nearest' })).toBe(true);
    expect(isRankingSettled([], REQUEST, NOW, settings)).toBe(false);
  });

  it('never re-asks a donor already told or who declined', () => {
    const told = candidate({ id: 'told', alreadyMatched: true });
    expect(rankCandidates([told], REQUEST, NOW, SETTINGS)).toEqual([]);
  });

  it('reaches a donor at 40 km only with a wider radius', () => {
    const distant = candidate({ id: 'distant', ...north(40) });
    expect(rankCandidates([distant], REQUEST, NOW, SETTINGS)).toEqual([]);
    const widened = nextRadius(SETTINGS.radiusKm)!;
    expect(
      rankCandidates([distant], REQUEST, NOW, { ...SETTINGS, radiusKm: widened }),
    ).toHaveLength(1);
  });
});

describe('nextRadius', () => {
  it('widens 25 → 50 → 100 and stops at the maximum', () => {
    expect(nextRadius(25)).toBe(50);
    expect(nextRadius(50)).toBe(100);
    expect(nextRadius(100)).toBeNull();
    expect(nextRadius(150)).toBeNull();
  });

  it('grows by at least the step and never past the cap', () => {
    expect(nextRadius(5, 25, 100)).toBe(30);
    expect(nextRadius(80, 25, 100)).toBe(100);
    expect(nextRadius(10, 10, 15)).toBe(15);
    expect(MATCHING_DEFAULTS).toMatchObject({ radiusStepKm: 25, maxRadiusKm: 100 });
  });
});
