import type { Gender } from './auth';
import { ageOn } from './dates';
import type { PERMANENT_CONDITIONS } from './donors';
import {
  isTimedCondition,
  type ConditionCode,
  type Deferral,
  type EligibilityResult,
  type QuestionnaireAnswers,
  type TimedCondition,
} from './donors';

/**
 * Who may give whole blood in India, as data. Source: the Drugs and Cosmetics Rules, 1945,
 * Schedule F, Part XII-B ("Blood Bank / Blood Centre", donor selection), as amended by
 * G.S.R. 166(E) of 11 March 2020, which adopts the National Blood Transfusion Council's
 * "Guidelines for Blood Donor Selection & Blood Donor Referral" (2017). A change of law is a
 * change of one value below; every rule is tested in eligibility.test.ts.
 *
 * Pure: imports only local files, so the web app shows the same verdict the server stores.
 */
export const ELIGIBILITY_RULES = {
  /** Schedule F XII-B 1.A: 18 to 65 years. */
  minAgeYears: 18,
  maxAgeYears: 65,
  /** A first-time donor must not be over 60. */
  firstTimeMaxAgeYears: 60,
  /** At least 45 kg for a 350 ml donation. */
  minWeightKg: 45,
  /** More than 55 kg for a 450 ml donation. */
  weightOver450MlKg: 55,
  volumeMl: { low: 350, high: 450 },
  /** Haemoglobin at least 12.5 g/dL (both sexes). */
  minHemoglobinGdl: 12.5,
  /**
   * Whole blood to whole blood: 90 days for men, 120 days for women. The rules know two sexes;
   * for `other` the longer (safer) interval applies.
   */
  donationIntervalDays: { male: 90, female: 120, other: 120 } satisfies Record<Gender, number>,
} as const;

type Period = { months: number } | { days: number };

/**
 * Temporary deferrals, counted from the date in `conditionDates` (the event, the recovery, the
 * cure or the last dose, as the message says). Schedule F XII-B 1.B–1.C / NBTC 2017 tables.
 */
export const TIMED_DEFERRALS: Record<TimedCondition, { period: Period; message: string }> = {
  tattoo_piercing: {
    period: { months: 12 },
    message: 'You can give blood 12 months after a tattoo, piercing or acupuncture.',
  },
  transfusion_received: {
    period: { months: 12 },
    message: 'You can give blood 12 months after receiving a blood transfusion.',
  },
  major_surgery: {
    period: { months: 12 },
    message: 'You can give blood 12 months after major surgery.',
  },
  minor_surgery: {
    period: { months: 6 },
    message: 'You can give blood 6 months after minor surgery.',
  },
  delivery: { period: { months: 12 }, message: 'You can give blood 12 months after childbirth.' },
  abortion: {
    period: { months: 6 },
    message: 'You can give blood 6 months after a miscarriage or abortion.',
  },
  malaria: {
    period: { months: 3 },
    message: 'You can give blood 3 months after full recovery from malaria.',
  },
  typhoid: {
    period: { months: 12 },
    message: 'You can give blood 12 months after recovery from typhoid.',
  },
  dengue_chikungunya: {
    period: { months: 6 },
    message: 'You can give blood 6 months after recovery from dengue or chikungunya.',
  },
  tuberculosis: {
    period: { months: 24 },
    message: 'You can give blood 2 years after being declared cured of tuberculosis.',
  },
  hepatitis_a_e: {
    period: { months: 12 },
    message: 'You can give blood 12 months after recovery from hepatitis A or E.',
  },
  antibiotics: {
    period: { days: 14 },
    message: 'You can give blood 2 weeks after your last dose of antibiotics.',
  },
  vaccine_inactivated: {
    period: { days: 14 },
    message: 'You can give blood 14 days after this vaccine.',
  },
  vaccine_live: {
    period: { days: 28 },
    message: 'You can give blood 28 days after a live vaccine.',
  },
  rabies_post_exposure: {
    period: { months: 12 },
    message: 'You can give blood 1 year after rabies treatment following a bite.',
  },
  hepatitis_contact: {
    period: { months: 12 },
    message: 'You can give blood 12 months after close contact with someone with hepatitis.',
  },
};

/** Deferrals that last while the condition does: no end date can be known in advance. */
export const CURRENT_DEFERRALS: Record<'pregnant' | 'breastfeeding' | 'cold_flu', string> = {
  pregnant: 'You can give blood after your pregnancy and the time after childbirth.',
  breastfeeding: 'You can give blood once you have stopped breastfeeding.',
  cold_flu: 'Please wait until your cold or flu is fully gone.',
};

/** Conditions that rule out giving blood for good (Schedule F XII-B 1.C). */
export const PERMANENT_DEFERRALS: Record<(typeof PERMANENT_CONDITIONS)[number], string> = {
  hepatitis_b_c: 'People who have had hepatitis B or C cannot give blood.',
  hiv: 'People with HIV cannot give blood.',
  heart_disease: 'People with heart disease cannot give blood.',
  diabetes_insulin: 'People who take insulin cannot give blood.',
  cancer: 'People who have had cancer cannot give blood.',
  bleeding_disorder: 'People with a bleeding disorder cannot give blood.',
  epilepsy: 'People with epilepsy cannot give blood.',
  organ_transplant: 'People who have had an organ transplant cannot give blood.',
};

/** Codes of the rules that are not conditions. */
export const RULE_CODES = [
  'age_under_min',
  'age_over_max',
  'first_time_over_max',
  'underweight',
  'low_hemoglobin',
  'donation_interval',
  'unwell',
] as const;

const DAY_MS = 86_400_000;

/** Calendar months, UTC; 31 Jan + 1 month is the last day of February. */
function addPeriod(from: Date, period: Period): Date {
  if ('days' in period) return new Date(from.getTime() + period.days * DAY_MS);
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + period.months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

/** A YYYY-MM-DD date as midnight UTC. */
function startOfDate(value: string): Date {
  return new Date(`${value}T00:00:00.000Z`);
}

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Days between whole-blood donations for this gender (unknown → the conservative 120). */
export function donationIntervalDays(gender: Gender | string | null | undefined): number {
  const table = ELIGIBILITY_RULES.donationIntervalDays as Record<string, number>;
  return table[gender ?? ''] ?? ELIGIBILITY_RULES.donationIntervalDays.other;
}

/** When a donor who gave at `donatedAt` may give whole blood again. */
export function nextEligibleAfterDonation(
  donatedAt: Date | string,
  gender: Gender | string | null | undefined,
): Date {
  return new Date(toDate(donatedAt).getTime() + donationIntervalDays(gender) * DAY_MS);
}

/** 350 ml from 45 kg, 450 ml above 55 kg; null below the minimum weight. */
export function maxDonationVolumeMl(weightKg: number): number | null {
  if (weightKg < ELIGIBILITY_RULES.minWeightKg) return null;
  return weightKg > ELIGIBILITY_RULES.weightOver450MlKg
    ? ELIGIBILITY_RULES.volumeMl.high
    : ELIGIBILITY_RULES.volumeMl.low;
}

export interface EligibilityInput {
  /** YYYY-MM-DD; null skips the age rules (the server always has it for donors). */
  dateOfBirth: string | null;
  gender: Gender | string | null;
  answers: QuestionnaireAnswers;
  /** The latest known whole-blood donation (recorded, reported or answered). */
  lastDonationAt?: Date | string | null;
  now?: Date;
}

export type Eligibility = EligibilityResult & {
  /** The volume the donor may give by weight (350 or 450 ml); null when underweight. */
  maxVolumeMl: number | null;
};

/**
 * The verdict for one donor at `now`. `deferrals` lists only what applies now; `eligible` is
 * true when it is empty. `nextEligibleAt` is the latest end among running timed deferrals and the
 * donation interval (that one also when it has passed, so a repeat donor always sees the date),
 * null when a permanent deferral applies or no date is known; a deferral that lasts "while the
 * condition does" (pregnancy, a cold, low weight) has no end date and can push it later.
 */
export function evaluateEligibility(input: EligibilityInput): Eligibility {
  const now = input.now ?? new Date();
  const { answers } = input;
  const deferrals: Deferral[] = [];
  let latestEnd: Date | null = null;
  // Only deferrals still running set the date, except the donation interval (see above).
  const addTimed = (code: string, message: string, until: Date, countsWhenOver = false) => {
    if ((now < until || countsWhenOver) && (!latestEnd || until > latestEnd)) latestEnd = until;
    if (now < until) deferrals.push({ code, message, until: until.toISOString() });
  };

  if (input.dateOfBirth) {
    const age = ageOn(input.dateOfBirth, now);
    const rules = ELIGIBILITY_RULES;
    const lastDonation = input.lastDonationAt ?? answers.lastDonationDate ?? null;
    const isFirstTime = answers.firstTimeDonor && !lastDonation;
    if (age < rules.minAgeYears) {
      const birthday = addPeriod(startOfDate(input.dateOfBirth), {
        months: 12 * rules.minAgeYears,
      });
      addTimed(
        'age_under_min',
        `You can give blood from the age of ${rules.minAgeYears}.`,
        birthday,
      );
    } else if (age > rules.maxAgeYears) {
      deferrals.push({
        code: 'age_over_max',
        message: `Blood donors must be ${rules.maxAgeYears} or younger.`,
        permanent: true,
      });
    } else if (isFirstTime && age > rules.firstTimeMaxAgeYears) {
      deferrals.push({
        code: 'first_time_over_max',
        message: `First-time donors must be ${rules.firstTimeMaxAgeYears} or younger.`,
        permanent: true,
      });
    }
  }

  const maxVolumeMl = maxDonationVolumeMl(answers.weightKg);
  if (maxVolumeMl === null) {
    deferrals.push({
      code: 'underweight',
      message: `Donors must weigh at least ${ELIGIBILITY_RULES.minWeightKg} kg.`,
    });
  }
  if (
    answers.hemoglobinGdl !== undefined &&
    answers.hemoglobinGdl < ELIGIBILITY_RULES.minHemoglobinGdl
  ) {
    deferrals.push({
      code: 'low_hemoglobin',
      message: `Haemoglobin must be at least ${ELIGIBILITY_RULES.minHemoglobinGdl} g/dL.`,
    });
  }

  const lastDonationAt =
    input.lastDonationAt ??
    (answers.lastDonationDate ? startOfDate(answers.lastDonationDate) : null);
  if (lastDonationAt) {
    const days = donationIntervalDays(input.gender);
    addTimed(
      'donation_interval',
      `You can give blood again ${days} days after your last donation.`,
      nextEligibleAfterDonation(lastDonationAt, input.gender),
      true,
    );
  }

  if (!answers.feelsWell) {
    deferrals.push({ code: 'unwell', message: 'Please wait until you feel well.' });
  }

  const dates = answers.conditionDates ?? {};
  for (const code of new Set<ConditionCode>(answers.conditions)) {
    if (isTimedCondition(code)) {
      const rule = TIMED_DEFERRALS[code];
      const date = dates[code];
      // questionnaireAnswersSchema requires the date; without one the period cannot be known.
      if (!date) {
        deferrals.push({ code, message: rule.message });
        continue;
      }
      addTimed(code, rule.message, addPeriod(startOfDate(date), rule.period));
    } else if (code in CURRENT_DEFERRALS) {
      deferrals.push({ code, message: CURRENT_DEFERRALS[code as keyof typeof CURRENT_DEFERRALS] });
    } else {
      deferrals.push({
        code,
        message: PERMANENT_DEFERRALS[code as keyof typeof PERMANENT_DEFERRALS],
        permanent: true,
      });
    }
  }

  const isPermanent = deferrals.some((deferral) => deferral.permanent);
  const end = latestEnd as Date | null;
  return {
    eligible: deferrals.length === 0,
    nextEligibleAt: isPermanent || !end ? null : end.toISOString(),
    deferrals,
    maxVolumeMl,
  };
}
