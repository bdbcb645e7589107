import {
  ADVISORY_CONDITIONS,
  CURRENT_CONDITIONS,
  PERMANENT_CONDITIONS,
  TIMED_CONDITIONS,
  isTimedCondition,
  type ConditionCode,
  type QuestionnaireAnswers,
  type TimedCondition,
} from '@bdms/shared';

/**
 * The health questionnaire as a form: strings as typed, then turned into the answers body
 * (`questionnaireAnswersSchema`). Only what the eligibility rules need is asked.
 */
export type YesNo = '' | 'yes' | 'no';

export interface QuestionnaireFormValues {
  weightKg: string;
  hemoglobinGdl: string;
  firstTimeDonor: YesNo;
  lastDonationDate: string;
  feelsWell: YesNo;
  conditions: ConditionCode[];
  conditionDates: Partial<Record<TimedCondition, string>>;
}

/** Timed conditions, split into two groups so the list stays short on a phone. */
const EVENTS: readonly TimedCondition[] = [
  'tattoo_piercing',
  'transfusion_received',
  'major_surgery',
  'minor_surgery',
  'delivery',
  'abortion',
  'rabies_post_exposure',
  'hepatitis_contact',
  'hepatitis_b_immunoglobulin',
  // Issue #32 item 5 (NBTC 2017): 12 or 6 months after the harvest, 12 months after release.
  'bone_marrow_harvest',
  'stem_cell_harvest',
  'imprisonment',
];

/**
 * What NBTC 2017 and its COVID-19 advisories defer for a few days to four months: asked apart,
 * "in the past 4 months", so a donor does not skip them under a 12-month or 2-year heading.
 */
const RECENT: readonly TimedCondition[] = [
  'covid_infection',
  'covid_contact',
  'covid_vaccine',
  'malaria_travel',
  'zika_travel',
  'dental_work',
  'alcohol',
];

export const CONDITION_GROUPS = [
  { key: 'events', codes: EVENTS },
  { key: 'recent', codes: RECENT },
  {
    key: 'illnesses',
    codes: TIMED_CONDITIONS.filter((code) => !EVENTS.includes(code) && !RECENT.includes(code)),
  },
  { key: 'current', codes: CURRENT_CONDITIONS },
  { key: 'longTerm', codes: PERMANENT_CONDITIONS },
  // Defers nobody: ticking it shows the advice (issue #32 item 5, eligibility.ts ADVISORIES).
  { key: 'work', codes: ADVISORY_CONDITIONS },
] as const satisfies readonly { key: string; codes: readonly ConditionCode[] }[];

/** Questions that cannot apply to men are not asked of them. */
const PREGNANCY_RELATED = new Set<ConditionCode>([
  'delivery',
  'abortion',
  'pregnant',
  'breastfeeding',
  'menstruating',
]);

export function conditionsFor(
  codes: readonly ConditionCode[],
  gender: string | null | undefined,
): ConditionCode[] {
  return gender === 'male' ? codes.filter((code) => !PREGNANCY_RELATED.has(code)) : [...codes];
}

const yesNo = (value: boolean | undefined): YesNo =>
  value === undefined ? '' : value ? 'yes' : 'no';

export function formValuesFrom(
  answers: QuestionnaireAnswers | null | undefined,
): QuestionnaireFormValues {
  return {
    weightKg: answers ? String(answers.weightKg) : '',
    hemoglobinGdl: answers?.hemoglobinGdl === undefined ? '' : String(answers.hemoglobinGdl),
    firstTimeDonor: yesNo(answers?.firstTimeDonor),
    lastDonationDate: answers?.lastDonationDate ?? '',
    feelsWell: yesNo(answers?.feelsWell),
    conditions: answers ? [...answers.conditions] : [],
    conditionDates: { ...(answers?.conditionDates as Partial<Record<TimedCondition, string>>) },
  };
}

/** "62", "62.5" and "62,5" (a decimal comma) → 62.5; anything else → NaN. */
export function parseDecimal(value: string): number {
  const text = value.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The answers body, or null while the answers are not complete enough to judge (no valid
 * weight or a yes/no left open). Dates of unticked conditions are dropped.
 */
export function answersFrom(values: QuestionnaireFormValues): QuestionnaireAnswers | null {
  const weightKg = parseDecimal(values.weightKg);
  if (!(weightKg >= 20 && weightKg <= 300)) return null;
  if (!values.firstTimeDonor || !values.feelsWell) return null;
  const hemoglobin = values.hemoglobinGdl.trim() ? parseDecimal(values.hemoglobinGdl) : undefined;
  const conditions = [...new Set(values.conditions)];
  const conditionDates: Partial<Record<TimedCondition, string>> = {};
  for (const code of conditions) {
    const date = isTimedCondition(code) ? values.conditionDates[code] : undefined;
    if (isTimedCondition(code) && date) conditionDates[code] = date;
  }
  const isFirstTime = values.firstTimeDonor === 'yes';
  return {
    weightKg,
    ...(hemoglobin !== undefined && Number.isFinite(hemoglobin)
      ? { hemoglobinGdl: hemoglobin }
      : {}),
    firstTimeDonor: isFirstTime,
    ...(!isFirstTime && values.lastDonationDate
      ? { lastDonationDate: values.lastDonationDate }
      : {}),
    feelsWell: values.feelsWell === 'yes',
    conditions,
    ...(Object.keys(conditionDates).length > 0 ? { conditionDates } : {}),
  };
}
