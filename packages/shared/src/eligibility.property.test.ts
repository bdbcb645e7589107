import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PERMANENT_CONDITIONS,
  TIMED_CONDITIONS,
  type QuestionnaireAnswers,
  type TimedCondition,
} from './donors';
import {
  ELIGIBILITY_RULES,
  TIMED_DEFERRALS,
  evaluateEligibility,
  nextEligibleAfterDonation,
} from './eligibility';

/**
 * Property tests of the eligibility rules against the cited table (Schedule F Part XII-B, NBTC
 * 2017). The oracle below is written independently of the code under test: the Indian calendar
 * comes from Intl (time zone Asia/Kolkata), not from the fixed offset the code uses, and every
 * period is counted one calendar day at a time.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The table as the guideline states it, for the boundaries (months, days, or hours after the day). */
const CITED: Record<TimedCondition, { months?: number; days?: number; hours?: number }> = {
  tattoo_piercing: { months: 12 },
  transfusion_received: { months: 12 },
  major_surgery: { months: 12 },
  minor_surgery: { months: 6 },
  delivery: { months: 12 },
  abortion: { months: 6 },
  malaria: { months: 3 },
  typhoid: { months: 12 },
  dengue_chikungunya: { months: 6 },
  tuberculosis: { months: 24 },
  hepatitis_a_e: { months: 12 },
  antibiotics: { days: 14 },
  vaccine_inactivated: { days: 14 },
  vaccine_live: { days: 28 },
  rabies_post_exposure: { months: 12 },
  hepatitis_contact: { months: 12 },
  covid_infection: { days: 28 },
  covid_contact: { days: 28 },
  covid_vaccine: { days: 14 },
  malaria_travel: { months: 3 },
  zika_travel: { days: 120 },
  dental_work: { hours: 72 },
  alcohol: { hours: 24 },
  hepatitis_b_immunoglobulin: { months: 12 },
  bone_marrow_harvest: { months: 12 },
  stem_cell_harvest: { months: 6 },
  imprisonment: { months: 12 },
};

const kolkata = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** { date: YYYY-MM-DD, time: HH:MM } of a moment in Asia/Kolkata, by Intl. */
function inKolkata(at: number): { date: string; time: string } {
  const parts = Object.fromEntries(kolkata.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
  };
}

/** The first moment of an Indian day, found by walking from UTC midnight (no offset constant). */
const midnights = new Map<string, number>();
function kolkataMidnight(date: string): number {
  const known = midnights.get(date);
  if (known !== undefined) return known;
  // Time zones sit on quarter hours: walk from 12 h before UTC midnight to the first moment there.
  let at = Date.parse(`${date}T00:00:00Z`) - 12 * HOUR;
  while (inKolkata(at).date !== date) at += 15 * 60_000;
  midnights.set(date, at);
  return at;
}

/** Calendar days on the calendar itself (the same in every time zone). */
function plusDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
const nextDay = (date: string) => plusDays(date, 1);
const daysInMonth = (y: number, m: number) =>
  [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ][m - 1]!;
function plusMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const ty = Math.floor(total / 12);
  const tm = (total % 12) + 1;
  const td = Math.min(d, daysInMonth(ty, tm));
  return `${ty}-${String(tm).padStart(2, '0')}-${String(td).padStart(2, '0')}`;
}

/** Age in whole years on the Indian day of `at`; a 29 February birthday falls on 1 March. */
function oracleAge(dateOfBirth: string, at: number): number {
  const today = inKolkata(at).date;
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  let age = ty - by;
  const leapless = bm === 2 && bd === 29 && daysInMonth(ty, 2) === 28;
  const [hm, hd] = leapless ? [3, 1] : [bm, bd];
  if (tm < hm || (tm === hm && td < hd)) age -= 1;
  return age;
}

const isoDay = (from: string, to: string) =>
  fc
    .integer({
      min: Date.parse(`${from}T00:00:00Z`) / DAY,
      max: Date.parse(`${to}T00:00:00Z`) / DAY,
    })
    .map((day) => new Date(day * DAY).toISOString().slice(0, 10));
/** Moments that often fall between 00:00 and 05:30 IST, when the UTC date is yesterday's. */
const moment = (from: string, to: string) =>
  fc
    .tuple(
      isoDay(from, to),
      fc.oneof(fc.integer({ min: 0, max: 330 * 60_000 - 1 }), fc.integer({ min: 0, max: DAY - 1 })),
    )
    .map(([day, offset]) => kolkataMidnight(day) + offset);

const healthy = (overrides: Partial<QuestionnaireAnswers> = {}): QuestionnaireAnswers => ({
  weightKg: 60,
  firstTimeDonor: false,
  feelsWell: true,
  conditions: [],
  ...overrides,
});

const RUNS = { numRuns: 200 };

describe('age (Schedule F XII-B: 18 to 65; NBTC 2017: a first-time donor not over 60)', () => {
  it('defers exactly when the Indian-calendar age is outside the limits', () => {
    fc.assert(
      fc.property(
        isoDay('1940-01-01', '2012-12-31'),
        moment('2024-01-01', '2030-12-31'),
        fc.boolean(),
        (dateOfBirth, at, firstTime) => {
          const age = oracleAge(dateOfBirth, at);
          const result = evaluateEligibility({
            dateOfBirth,
            gender: 'male',
            answers: healthy({ firstTimeDonor: firstTime }),
            now: new Date(at),
          });
          const codes = result.deferrals.map((d) => d.code);
          const allowed =
            age >= ELIGIBILITY_RULES.minAgeYears &&
            age <= ELIGIBILITY_RULES.maxAgeYears &&
            (!firstTime || age <= ELIGIBILITY_RULES.firstTimeMaxAgeYears);
          expect(result.eligible).toBe(allowed);
          if (age < 18) {
            expect(codes).toEqual(['age_under_min']);
            // It ends at 00:00 IST on the 18th birthday, and the donor is 18 from then.
            const until = Date.parse(result.deferrals[0]!.until!);
            expect(inKolkata(until).time).toBe('00:00');
            expect(oracleAge(dateOfBirth, until)).toBe(18);
            expect(oracleAge(dateOfBirth, until - 1)).toBe(17);
          }
          if (age > 65) expect(codes).toEqual(['age_over_max']);
          if (firstTime && age > 60 && age <= 65) expect(codes).toEqual(['first_time_over_max']);
        },
      ),
      RUNS,
    );
  });

  it('a donation on record lifts the first-time limit, never the 65 one', () => {
    fc.assert(
      fc.property(
        isoDay('1955-01-01', '1970-12-31'),
        moment('2026-01-01', '2028-12-31'),
        (dateOfBirth, at) => {
          const age = oracleAge(dateOfBirth, at);
          const result = evaluateEligibility({
            dateOfBirth,
            gender: 'male',
            answers: healthy({ firstTimeDonor: true }),
            lastDonationAt: new Date(at - 400 * DAY),
            now: new Date(at),
          });
          expect(result.eligible).toBe(age >= 18 && age <= 65);
        },
      ),
      RUNS,
    );
  });
});

describe('timed deferrals (NBTC 2017 table and advisories)', () => {
  it('end at 00:00 IST of the cited day (or the cited hours after the day), not a moment earlier', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TIMED_CONDITIONS),
        isoDay('2023-01-01', '2027-12-31'),
        (code, date) => {
          const cited = CITED[code];
          const end =
            cited.months !== undefined
              ? kolkataMidnight(plusMonths(date, cited.months))
              : cited.days !== undefined
                ? kolkataMidnight(plusDays(date, cited.days))
                : kolkataMidnight(nextDay(date)) + cited.hours! * HOUR;
          const at = (now: number) =>
            evaluateEligibility({
              dateOfBirth: '1990-01-01',
              gender: 'male',
              answers: healthy({ conditions: [code], conditionDates: { [code]: date } }),
              now: new Date(now),
            });
          const before = at(end - 1);
          expect(before.eligible).toBe(false);
          expect(before.deferrals).toEqual([
            { code, message: TIMED_DEFERRALS[code].message, until: new Date(end).toISOString() },
          ]);
          expect(at(end).eligible).toBe(true);
          // Hours rules: never before the cited hours have passed since the end of the day.
          if (cited.hours)
            expect(end - kolkataMidnight(date)).toBeGreaterThanOrEqual(cited.hours * HOUR);
        },
      ),
      RUNS,
    );
  });

  it('every timed rule cites its source and matches the table', () => {
    for (const code of TIMED_CONDITIONS) {
      const rule = TIMED_DEFERRALS[code];
      expect(rule.source.length).toBeGreaterThan(10);
      const cited = CITED[code];
      const period = rule.period as { months?: number; days?: number; hoursAfterDay?: number };
      expect([period.months, period.days, period.hoursAfterDay]).toEqual([
        cited.months,
        cited.days,
        cited.hours,
      ]);
    }
  });
});

describe('the donation interval (Schedule F XII-B: 90 days men, 120 women)', () => {
  it('opens at 00:00 IST on the Indian day of the donation plus the interval', () => {
    fc.assert(
      fc.property(
        moment('2024-01-01', '2027-12-31'),
        fc.constantFrom('male', 'female', 'other', null),
        (donatedAt, gender) => {
          const days = gender === 'male' ? 90 : 120;
          const opens = kolkataMidnight(plusDays(inKolkata(donatedAt).date, days));
          expect(nextEligibleAfterDonation(new Date(donatedAt), gender).getTime()).toBe(opens);
          const verdict = (now: number) =>
            evaluateEligibility({
              dateOfBirth: '1990-01-01',
              gender,
              answers: healthy(),
              lastDonationAt: new Date(donatedAt),
              now: new Date(now),
            }).eligible;
          expect(verdict(opens - 1)).toBe(false);
          expect(verdict(opens)).toBe(true);
          // Never more than a day short of the interval counted in hours.
          expect(opens - donatedAt).toBeGreaterThan((days - 1) * DAY);
        },
      ),
      RUNS,
    );
  });
});

describe('permanent deferrals (Schedule F XII-B 1.C, NBTC 2017)', () => {
  it('never end and never promise a date, whatever else is answered', () => {
    fc.assert(
      fc.property(
        fc.subarray([...PERMANENT_CONDITIONS], { minLength: 1 }),
        moment('2024-01-01', '2050-12-31'),
        (conditions, at) => {
          const result = evaluateEligibility({
            dateOfBirth: '1990-01-01',
            gender: 'female',
            answers: healthy({ conditions }),
            now: new Date(at),
          });
          expect(result.eligible).toBe(false);
          expect(result.nextEligibleAt).toBeNull();
          expect(
            result.deferrals
              .filter((d) => d.permanent)
              .map((d) => d.code)
              .sort(),
          ).toEqual([...conditions].sort());
        },
      ),
      RUNS,
    );
  });
});

describe('time only ends timed deferrals', () => {
  it('once eligible with timed answers, stays eligible later (within the age limits)', () => {
    fc.assert(
      fc.property(
        fc.subarray([...TIMED_CONDITIONS]),
        isoDay('2025-01-01', '2026-12-31'),
        moment('2025-01-01', '2029-12-31'),
        fc.integer({ min: 0, max: 1000 * DAY }),
        (conditions, date, at, later) => {
          const verdict = (now: number) =>
            evaluateEligibility({
              dateOfBirth: '1990-01-01',
              gender: 'male',
              answers: healthy({
                conditions,
                conditionDates: Object.fromEntries(conditions.map((c) => [c, date])),
              }),
              now: new Date(now),
            }).eligible;
          if (verdict(at)) expect(verdict(at + later)).toBe(true);
        },
      ),
      RUNS,
    );
  });
});
