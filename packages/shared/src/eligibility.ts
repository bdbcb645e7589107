import type { Gender } from './auth';
import { addIsoDays, addIsoMonths, ageOn, birthdayAt, indianDate, startOfIndianDay } from './dates';
import type { ADVISORY_CONDITIONS, CURRENT_CONDITIONS, PERMANENT_CONDITIONS } from './donors';
import {
  isAdvisoryCondition,
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

/**
 * How long a timed deferral lasts, counted on the Indian calendar from the day the donor gives
 * (the event, the recovery, the cure, the last dose or the return, as the message says). Only the
 * day is known, so a rule in hours counts from the end of that day (`hoursAfterDay`).
 */
export type Period = { months: number } | { days: number } | { hoursAfterDay: number };

export interface TimedDeferralRule {
  period: Period;
  message: string;
  /** Where the period comes from: the guideline and the entry. */
  source: string;
}

const NBTC_2017 = 'NBTC 2017 Guidelines for Blood Donor Selection & Blood Donor Referral';
const SCHEDULE_F = 'Drugs and Cosmetics Rules 1945, Schedule F Part XII-B';

/**
 * Temporary deferrals, counted from the date in `conditionDates`. Schedule F XII-B 1.B–1.C /
 * NBTC 2017 tables; the COVID-19 rules are the NBTC's later advisories to blood centres.
 */
export const TIMED_DEFERRALS: Record<TimedCondition, TimedDeferralRule> = {
  tattoo_piercing: {
    period: { months: 12 },
    message: 'You can give blood 12 months after a tattoo, piercing or acupuncture.',
    source: `${NBTC_2017}: tattoo, body piercing, acupuncture — 12 months; ${SCHEDULE_F}`,
  },
  transfusion_received: {
    period: { months: 12 },
    message: 'You can give blood 12 months after receiving a blood transfusion.',
    source: `${NBTC_2017}: blood transfusion received — 12 months; ${SCHEDULE_F}`,
  },
  // Issue #32 item 5: NBTC 2017 counts surgery from recovery, not from the operation: the date
  // asked is the day of full recovery (the question and the message say so).
  major_surgery: {
    period: { months: 12 },
    message: 'You can give blood 12 months after full recovery from major surgery.',
    source: `${NBTC_2017}: major surgery — 12 months after recovery; ${SCHEDULE_F}`,
  },
  minor_surgery: {
    period: { months: 6 },
    message: 'You can give blood 6 months after full recovery from minor surgery.',
    source: `${NBTC_2017}: minor surgery (includes dental surgery under anaesthesia) — 6 months after recovery`,
  },
  delivery: {
    period: { months: 12 },
    message: 'You can give blood 12 months after childbirth.',
    source: `${NBTC_2017}: after delivery — 12 months; ${SCHEDULE_F}`,
  },
  abortion: {
    period: { months: 6 },
    message: 'You can give blood 6 months after a miscarriage or abortion.',
    source: `${NBTC_2017}: abortion — 6 months; ${SCHEDULE_F}`,
  },
  malaria: {
    period: { months: 3 },
    message: 'You can give blood 3 months after full recovery from malaria.',
    source: `${NBTC_2017}: malaria — 3 months after full recovery (treatment completed)`,
  },
  typhoid: {
    period: { months: 12 },
    message: 'You can give blood 12 months after recovery from typhoid.',
    source: `${NBTC_2017}: typhoid — 12 months after recovery; ${SCHEDULE_F}`,
  },
  dengue_chikungunya: {
    period: { months: 6 },
    message: 'You can give blood 6 months after recovery from dengue or chikungunya.',
    source: `${NBTC_2017}: dengue, chikungunya — 6 months after recovery`,
  },
  tuberculosis: {
    period: { months: 24 },
    message: 'You can give blood 2 years after being declared cured of tuberculosis.',
    source: `${NBTC_2017}: tuberculosis — 2 years after being declared cured`,
  },
  hepatitis_a_e: {
    period: { months: 12 },
    message: 'You can give blood 12 months after recovery from hepatitis A or E.',
    source: `${NBTC_2017}: hepatitis A or E — 12 months after recovery`,
  },
  antibiotics: {
    period: { days: 14 },
    message: 'You can give blood 2 weeks after your last dose of antibiotics.',
    source: `${NBTC_2017}: antibiotics — 2 weeks after the last dose`,
  },
  vaccine_inactivated: {
    period: { days: 14 },
    message: 'You can give blood 14 days after this vaccine.',
    source: `${NBTC_2017}: killed/inactivated vaccines and toxoids — 14 days`,
  },
  vaccine_live: {
    period: { days: 28 },
    message: 'You can give blood 28 days after a live vaccine.',
    source: `${NBTC_2017}: live attenuated vaccines — 28 days`,
  },
  rabies_post_exposure: {
    period: { months: 12 },
    message: 'You can give blood 1 year after rabies treatment following a bite.',
    source: `${NBTC_2017}: rabies vaccine after an animal bite — 1 year`,
  },
  hepatitis_contact: {
    period: { months: 12 },
    message: 'You can give blood 12 months after close contact with someone with hepatitis.',
    source: `${NBTC_2017}: close contact with an individual with hepatitis — 12 months`,
  },
  // NBTC COVID-19 advisories to blood centres (2020–2021): recovered donors and close contacts
  // 28 days (from recovery / discharge, and from the last contact or the end of quarantine).
  covid_infection: {
    period: { days: 28 },
    message: 'You can give blood 28 days after full recovery from COVID-19.',
    source: 'NBTC COVID-19 advisory: recovered individuals — 28 days after full recovery',
  },
  covid_contact: {
    period: { days: 28 },
    message: 'You can give blood 28 days after your last close contact with someone with COVID-19.',
    source: 'NBTC COVID-19 advisory: close contacts — 28 days after the last contact',
  },
  // NBTC letter of 2021 on vaccinated donors: 14 days after each dose (it was 28 days before).
  covid_vaccine: {
    period: { days: 14 },
    message: 'You can give blood 14 days after a COVID-19 vaccine dose.',
    source: 'NBTC advisory on COVID-19 vaccination (2021): 14 days after each dose',
  },
  // Doubt: NBTC 2017 words the malaria rule for India as "3 months after recovery"; for a visit
  // to an endemic area by a resident of a non-endemic one we use the same 3 months, counted from
  // the return, without fever meanwhile (the fever itself is asked as "unwell" / "malaria").
  malaria_travel: {
    period: { months: 3 },
    message: 'You can give blood 3 months after coming back from an area with malaria.',
    source: `${NBTC_2017}: travel to a malaria-endemic area — 3 months after return`,
  },
  // Doubt: the NBTC's Zika advisory defers for 120 days (4 months) after return from an affected
  // area; 120 days is used here, not WHO's shorter 28 days.
  zika_travel: {
    period: { days: 120 },
    message: 'You can give blood 120 days after coming back from an area with Zika virus.',
    source: 'NBTC advisory on Zika virus: travel to an affected area — 120 days after return',
  },
  // Doubt: NBTC 2017 defers 72 hours after minor dental work (extraction, filling, scaling, root
  // canal); dental surgery under anaesthesia is minor surgery (6 months, asked as such).
  dental_work: {
    period: { hoursAfterDay: 72 },
    message: 'You can give blood 72 hours after dental treatment.',
    source: `${NBTC_2017}: dental procedures — 72 hours (surgery under anaesthesia: minor surgery)`,
  },
  // NBTC 2017: no alcohol in the 24 hours before donating (the "alcohol in the last 24 h").
  alcohol: {
    period: { hoursAfterDay: 24 },
    message: 'You can give blood 24 hours after your last alcoholic drink.',
    source: `${NBTC_2017}: alcohol — 24 hours after the last drink`,
  },
  hepatitis_b_immunoglobulin: {
    period: { months: 12 },
    message: 'You can give blood 12 months after hepatitis B immunoglobulin.',
    source: `${NBTC_2017}: hepatitis B immunoglobulin — 12 months`,
  },
  // NBTC 2017, donor selection criteria, "Donation interval": no donation of any kind within 12
  // months after a bone marrow harvest, within 6 months after a peripheral stem cell harvest.
  bone_marrow_harvest: {
    period: { months: 12 },
    message: 'You can give blood 12 months after donating bone marrow.',
    source: `${NBTC_2017}: donation interval — 12 months after a bone marrow harvest`,
  },
  stem_cell_harvest: {
    period: { months: 6 },
    message: 'You can give blood 6 months after donating stem cells from your blood.',
    source: `${NBTC_2017}: donation interval — 6 months after a peripheral stem cell harvest`,
  },
  // Doubt: NBTC 2017 ("Well being") says only that donors "shall not be inmates of jail or any
  // other confinement", with no period after release; WHO 2012 (Blood donor selection, 2012)
  // counts incarceration among exposures to transfusion-transmissible infections, for which the
  // guidelines' high-risk deferrals run 12 months. We ask for the day of release and defer 12
  // months from it (which also covers someone still confined, who cannot give from there).
  imprisonment: {
    period: { months: 12 },
    message: 'You can give blood 12 months after release from prison or other confinement.',
    source: `${NBTC_2017}: well being — not inmates of jail or other confinement; WHO 2012 — 12 months after release`,
  },
};

/** Deferrals that last while the condition does: no end date can be known in advance. */
export const CURRENT_DEFERRALS: Record<(typeof CURRENT_CONDITIONS)[number], string> = {
  pregnant: 'You can give blood after your pregnancy and the time after childbirth.',
  breastfeeding: 'You can give blood once you have stopped breastfeeding.',
  cold_flu: 'Please wait until your cold or flu is fully gone.',
  // NBTC 2017, "Physiological status for women": menstruation — defer while it lasts (issue #32
  // item 5). Answered for today, like a cold: the donor unticks it when it is over.
  menstruating: 'Please wait until your period is over.',
};

/**
 * Answers that defer nobody but are told to the donor (issue #32 item 5). Hazardous
 * occupations: NBTC 2017, donor selection criteria, "Occupation" — pilots, drivers of heavy or
 * public vehicles, fire-fighters, crane operators, workers at heights and the like may give, but
 * not go on that duty for the rest of the day (24 hours) after donating, because of delayed
 * fainting. Doubt: summaries of the guideline word it as "24 hours" or as "the day's duty"; the
 * advice says both. Matching is unchanged: the platform cannot know the donor's duty roster, so
 * the donor is told when answering (and the answer is recorded for the blood centre, which asks
 * again on the day); deferring them would lose donors the guideline accepts.
 */
export const ADVISORIES: Record<
  (typeof ADVISORY_CONDITIONS)[number],
  { message: string; source: string }
> = {
  hazardous_occupation: {
    message:
      'You can give blood, but not before a duty of that kind: after donating, do not go on it for the rest of the day (24 hours).',
    source: `${NBTC_2017}: occupation — hazardous duties not within 24 hours after donation`,
  },
};

/**
 * Conditions that rule out giving blood for good: Schedule F XII-B 1.C and NBTC 2017 "permanent
 * deferral" list (each entry names its line).
 */
export const PERMANENT_DEFERRALS: Record<(typeof PERMANENT_CONDITIONS)[number], string> = {
  // Schedule F XII-B 1.C / NBTC 2017: hepatitis B or C, HIV (transfusion-transmitted infections).
  hepatitis_b_c: 'People who have had hepatitis B or C cannot give blood.',
  hiv: 'People with HIV cannot give blood.',
  // NBTC 2017: cardiovascular disease; diabetes on insulin; malignancy; bleeding disorders;
  // epilepsy or convulsions; organ or tissue transplant recipients.
  heart_disease: 'People with heart disease cannot give blood.',
  diabetes_insulin: 'People who take insulin cannot give blood.',
  cancer: 'People who have had cancer cannot give blood.',
  bleeding_disorder: 'People with a bleeding disorder cannot give blood.',
  epilepsy: 'People with epilepsy cannot give blood.',
  organ_transplant: 'People who have had an organ transplant cannot give blood.',
  // NBTC 2017: individuals at high risk of HIV (sex work, injecting drug use, multiple partners,
  // partners of such individuals) — permanent deferral.
  high_risk_behaviour: 'People at high risk of infections passed on by blood cannot give blood.',
  // NBTC 2017: chronic kidney disease, chronic liver disease, chronic lung disease — permanent.
  kidney_disease: 'People with a long-term kidney disease cannot give blood.',
  liver_disease: 'People with a long-term liver disease cannot give blood.',
  lung_disease: 'People with a long-term lung disease cannot give blood.',
  // NBTC 2017: bronchial asthma on steroids — permanent.
  asthma_steroids: 'People with asthma treated with steroids cannot give blood.',
  // NBTC 2017: serious psychiatric disorders (psychosis) — permanent.
  mental_illness: 'People with a serious mental illness cannot give blood.',
  // NBTC 2017: leprosy — permanent.
  leprosy: 'People who have had leprosy cannot give blood.',
  // NBTC 2017: sexually transmitted diseases (e.g. syphilis, gonorrhoea) — permanent.
  sexually_transmitted_infection:
    'People who have had a sexually transmitted infection cannot give blood.',
  // NBTC 2017: endocrine disorders (e.g. hyperthyroidism, Cushing's) — permanent.
  endocrine_disorder: 'People with a hormone (endocrine) disorder cannot give blood.',
  // NBTC 2017: risk of Creutzfeldt-Jakob disease (family history, human pituitary hormones,
  // dura mater or cornea grafts) — permanent.
  cjd_risk: 'People at risk of Creutzfeldt-Jakob disease cannot give blood.',
  // NBTC 2017, haematological diseases: polycythaemia (vera) — permanent (issue #32 item 5).
  polycythaemia: 'People with polycythaemia cannot give blood.',
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

/** When a period that runs from the Indian day `from` (YYYY-MM-DD) is over: 00:00 IST. */
export function periodEnd(from: string, period: Period): Date {
  if ('months' in period) return startOfIndianDay(addIsoMonths(from, period.months));
  if ('days' in period) return startOfIndianDay(addIsoDays(from, period.days));
  return new Date(
    startOfIndianDay(addIsoDays(from, 1)).getTime() + period.hoursAfterDay * 3_600_000,
  );
}

/** The Indian day of a moment, or the day itself when given as YYYY-MM-DD. */
function dayOf(value: Date | string): string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : indianDate(value);
}

/** Days between whole-blood donations for this gender (unknown → the conservative 120). */
export function donationIntervalDays(gender: Gender | string | null | undefined): number {
  const table = ELIGIBILITY_RULES.donationIntervalDays as Record<string, number>;
  return table[gender ?? ''] ?? ELIGIBILITY_RULES.donationIntervalDays.other;
}

/**
 * When a donor who gave at `donatedAt` (a moment, or a YYYY-MM-DD day) may give whole blood
 * again: 00:00 IST of the day that many days after the Indian day of the donation
 * (Schedule F XII-B: 90 days for men, 120 for women).
 */
export function nextEligibleAfterDonation(
  donatedAt: Date | string,
  gender: Gender | string | null | undefined,
): Date {
  return periodEnd(dayOf(donatedAt), { days: donationIntervalDays(gender) });
}

/**
 * When a donor who gave at `lastDonationAt` may give again, all rules counted: the evaluation's
 * `nextEligibleAt` as it stood at that donation, that is the latest end among the donation
 * interval and every timed deferral running after it (a Zika deferral that ends 90 days after
 * the interval moves the date 90 days). Null when no date can be known (a permanent deferral).
 * Issue #32 item 1: the "you can give blood again" reminder names this date, and goes out only
 * once the matcher's own check finds the donor eligible (a deferral "while it lasts", a review
 * or an age limit has no end date: the reminder waits for it to be lifted).
 */
export function nextEligibleAfterLastDonation(
  input: EligibilityInput & { lastDonationAt: Date | string },
): Date | null {
  const atDonation = new Date(input.lastDonationAt);
  const { nextEligibleAt } = evaluateEligibility({ ...input, now: atDonation });
  return nextEligibleAt ? new Date(nextEligibleAt) : null;
}

/**
 * The age rule at `now` (Schedule F XII-B 1.A: 18 to 65; NBTC 2017: a first-time donor not over
 * 60), or null when the age is fine. `isFirstTime`: no earlier donation is known.
 */
export function ageDeferral(dateOfBirth: string, isFirstTime: boolean, now: Date): Deferral | null {
  const age = ageOn(dateOfBirth, now);
  const rules = ELIGIBILITY_RULES;
  if (age < rules.minAgeYears) {
    return {
      code: 'age_under_min',
      message: `You can give blood from the age of ${rules.minAgeYears}.`,
      until: startOfIndianDay(birthdayAt(dateOfBirth, rules.minAgeYears)).toISOString(),
    };
  }
  if (age > rules.maxAgeYears) {
    return {
      code: 'age_over_max',
      message: `Blood donors must be ${rules.maxAgeYears} or younger.`,
      permanent: true,
    };
  }
  if (isFirstTime && age > rules.firstTimeMaxAgeYears) {
    return {
      code: 'first_time_over_max',
      message: `First-time donors must be ${rules.firstTimeMaxAgeYears} or younger.`,
      permanent: true,
    };
  }
  return null;
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
    // A donation on record (recorded, reported or answered) proves this is not a first donation.
    const lastDonation = input.lastDonationAt ?? answers.lastDonationDate ?? null;
    const deferral = ageDeferral(input.dateOfBirth, answers.firstTimeDonor && !lastDonation, now);
    if (deferral?.until) addTimed(deferral.code, deferral.message, new Date(deferral.until));
    else if (deferral) deferrals.push(deferral);
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

  const lastDonationAt = input.lastDonationAt ?? answers.lastDonationDate ?? null;
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
      addTimed(code, rule.message, periodEnd(date, rule.period));
    } else if (isAdvisoryCondition(code)) {
      // Told, never a deferral (see ADVISORIES).
      continue;
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
