import { describe, expect, it } from 'vitest';
import {
  CURRENT_CONDITIONS,
  PERMANENT_CONDITIONS,
  TIMED_CONDITIONS,
  questionnaireAnswersSchema,
  type QuestionnaireAnswers,
  type TimedCondition,
} from './donors';
import { startOfIndianDay } from './dates';
import {
  ELIGIBILITY_RULES,
  ADVISORIES,
  CURRENT_DEFERRALS,
  PERMANENT_DEFERRALS,
  TIMED_DEFERRALS,
  donationIntervalDays,
  evaluateEligibility,
  maxDonationVolumeMl,
  nextEligibleAfterDonation,
  nextEligibleAfterLastDonation,
  type EligibilityInput,
} from './eligibility';

const DAY = 86_400_000;
/** 05:30 IST on 15 June: the UTC date is already the Indian one here. */
const NOW = new Date('2026-06-15T00:00:00.000Z');
/** 00:00 IST of a day, where every deferral ends. */
const IST = (day: string) => startOfIndianDay(day).toISOString();

function answers(overrides: Partial<QuestionnaireAnswers> = {}): QuestionnaireAnswers {
  return { weightKg: 62, firstTimeDonor: false, feelsWell: true, conditions: [], ...overrides };
}

function evaluate(overrides: Partial<EligibilityInput> = {}, answerOverrides = {}) {
  return evaluateEligibility({
    dateOfBirth: '1990-04-01',
    gender: 'male',
    answers: answers(answerOverrides),
    now: NOW,
    ...overrides,
  });
}

const codes = (result: { deferrals: { code: string }[] }) => result.deferrals.map((d) => d.code);
const daysBefore = (days: number) => new Date(NOW.getTime() - days * DAY);

describe('evaluateEligibility: a healthy adult', () => {
  it('is eligible with no deferrals and no date to wait for', () => {
    const result = evaluate();
    expect(result).toEqual({
      eligible: true,
      nextEligibleAt: null,
      deferrals: [],
      maxVolumeMl: 450,
    });
  });
});

describe('age (18 to 65; first-time donors not over 60)', () => {
  it('accepts 18 and 65, refuses 17 until the 18th birthday and 66 for good', () => {
    expect(evaluate({ dateOfBirth: '2008-06-15' }).eligible).toBe(true);
    expect(evaluate({ dateOfBirth: '1961-01-01' }).eligible).toBe(true);
    const young = evaluate({ dateOfBirth: '2008-06-16' });
    expect(young.deferrals).toEqual([
      expect.objectContaining({ code: 'age_under_min', until: IST('2026-06-16') }),
    ]);
    expect(young.nextEligibleAt).toBe(IST('2026-06-16'));
    const old = evaluate({ dateOfBirth: '1960-06-14' });
    expect(old.deferrals).toEqual([
      expect.objectContaining({ code: 'age_over_max', permanent: true }),
    ]);
    expect(old.nextEligibleAt).toBeNull();
  });

  it('lets a first-time donor of 60 give, but not one of 61', () => {
    const sixty = evaluate({ dateOfBirth: '1966-01-10' }, { firstTimeDonor: true });
    expect(sixty.eligible).toBe(true);
    const sixtyOne = evaluate({ dateOfBirth: '1965-06-15' }, { firstTimeDonor: true });
    expect(codes(sixtyOne)).toEqual(['first_time_over_max']);
    expect(sixtyOne.deferrals[0]!.permanent).toBe(true);
    expect(sixtyOne.nextEligibleAt).toBeNull();
  });

  it('lets a repeat donor of 61 give', () => {
    expect(evaluate({ dateOfBirth: '1965-06-15' }, { firstTimeDonor: false }).eligible).toBe(true);
    // A recorded donation makes the donor a repeat donor whatever the answer says.
    const withDonation = evaluate(
      { dateOfBirth: '1965-06-15', lastDonationAt: daysBefore(200) },
      { firstTimeDonor: true },
    );
    expect(withDonation.eligible).toBe(true);
  });

  it('skips the age rules when the date of birth is unknown', () => {
    expect(evaluate({ dateOfBirth: null }).eligible).toBe(true);
  });
});

describe('weight and haemoglobin', () => {
  it('defers below 45 kg and allows 350 ml from 45 kg, 450 ml above 55 kg', () => {
    const light = evaluate({}, { weightKg: 44 });
    expect(codes(light)).toEqual(['underweight']);
    expect(light.deferrals[0]!.until).toBeUndefined();
    expect(light.maxVolumeMl).toBeNull();
    expect(evaluate({}, { weightKg: 44.9 }).eligible).toBe(false);
    expect(evaluate({}, { weightKg: 45 })).toMatchObject({ eligible: true, maxVolumeMl: 350 });
    expect(evaluate({}, { weightKg: 55 })).toMatchObject({ eligible: true, maxVolumeMl: 350 });
    expect(evaluate({}, { weightKg: 56 })).toMatchObject({ eligible: true, maxVolumeMl: 450 });
    expect([44, 45, 55, 55.5, 56].map(maxDonationVolumeMl)).toEqual([null, 350, 350, 450, 450]);
  });

  it('defers below 12.5 g/dL and ignores an unknown value', () => {
    expect(codes(evaluate({}, { hemoglobinGdl: 12.4 }))).toEqual(['low_hemoglobin']);
    expect(evaluate({}, { hemoglobinGdl: 12.5 }).eligible).toBe(true);
    expect(evaluate({}, { hemoglobinGdl: undefined }).eligible).toBe(true);
  });
});

describe('the interval between whole-blood donations', () => {
  it('is 90 days for men, 120 for women, and the conservative 120 for other', () => {
    expect(donationIntervalDays('male')).toBe(90);
    expect(donationIntervalDays('female')).toBe(120);
    expect(donationIntervalDays('other')).toBe(120);
    expect(donationIntervalDays(null)).toBe(120);
    expect(nextEligibleAfterDonation('2026-01-01T00:00:00.000Z', 'male').toISOString()).toBe(
      IST('2026-04-01'),
    );
    expect(
      nextEligibleAfterDonation(new Date('2026-01-01T00:00:00Z'), 'female').toISOString(),
    ).toBe(IST('2026-05-01'));
  });

  it('defers a man on day 89 and lets him give on day 90', () => {
    const day89 = evaluate({ gender: 'male', lastDonationAt: daysBefore(89) });
    expect(day89.deferrals).toEqual([
      expect.objectContaining({
        code: 'donation_interval',
        until: IST('2026-06-16'),
      }),
    ]);
    expect(day89.nextEligibleAt).toBe(IST('2026-06-16'));
    const day90 = evaluate({ gender: 'male', lastDonationAt: daysBefore(90) });
    expect(day90.eligible).toBe(true);
    // The date stays visible once it has passed.
    expect(day90.nextEligibleAt).toBe(IST('2026-06-15'));
  });

  it('defers a woman on day 119 and lets her give on day 120', () => {
    expect(codes(evaluate({ gender: 'female', lastDonationAt: daysBefore(119) }))).toEqual([
      'donation_interval',
    ]);
    expect(evaluate({ gender: 'female', lastDonationAt: daysBefore(120) }).eligible).toBe(true);
    expect(codes(evaluate({ gender: 'other', lastDonationAt: daysBefore(119) }))).toEqual([
      'donation_interval',
    ]);
  });

  it('uses the answered last donation date when no donation is recorded', () => {
    const result = evaluate({ gender: 'male' }, { lastDonationDate: '2026-04-01' });
    expect(result.deferrals[0]).toMatchObject({
      code: 'donation_interval',
      until: IST('2026-06-30'),
    });
  });
});

/** The end of each timed condition's period for a condition dated 2025-03-10. */
const EXPECTED_END: Record<TimedCondition, string> = {
  tattoo_piercing: '2026-03-10',
  transfusion_received: '2026-03-10',
  major_surgery: '2026-03-10',
  minor_surgery: '2025-09-10',
  delivery: '2026-03-10',
  abortion: '2025-09-10',
  malaria: '2025-06-10',
  typhoid: '2026-03-10',
  dengue_chikungunya: '2025-09-10',
  tuberculosis: '2027-03-10',
  hepatitis_a_e: '2026-03-10',
  antibiotics: '2025-03-24',
  vaccine_inactivated: '2025-03-24',
  vaccine_live: '2025-04-07',
  rabies_post_exposure: '2026-03-10',
  hepatitis_contact: '2026-03-10',
  covid_infection: '2025-04-07',
  covid_contact: '2025-04-07',
  covid_vaccine: '2025-03-24',
  malaria_travel: '2025-06-10',
  zika_travel: '2025-07-08',
  // 72 h from the end of 10 March; 24 h from the end of it.
  dental_work: '2025-03-14',
  alcohol: '2025-03-12',
  hepatitis_b_immunoglobulin: '2026-03-10',
  // Issue #32 item 5: NBTC 2017, 12 months after a bone marrow harvest, 6 after a peripheral
  // stem cell harvest; 12 months after release (see the Doubt in eligibility.ts).
  bone_marrow_harvest: '2026-03-10',
  stem_cell_harvest: '2025-09-10',
  imprisonment: '2026-03-10',
};

describe('timed conditions', () => {
  it('has a rule with a message for every timed condition', () => {
    expect(Object.keys(TIMED_DEFERRALS).sort()).toEqual([...TIMED_CONDITIONS].sort());
  });

  for (const code of TIMED_CONDITIONS) {
    it(`${code}: deferred until 00:00 IST on ${EXPECTED_END[code]}, eligible from then`, () => {
      const end = startOfIndianDay(EXPECTED_END[code]);
      const input = (now: Date) =>
        evaluateEligibility({
          dateOfBirth: '1990-04-01',
          gender: 'male',
          answers: answers({ conditions: [code], conditionDates: { [code]: '2025-03-10' } }),
          now,
        });
      const before = input(new Date(end.getTime() - DAY));
      expect(before.eligible).toBe(false);
      expect(before.deferrals).toEqual([
        { code, message: TIMED_DEFERRALS[code].message, until: end.toISOString() },
      ]);
      expect(before.nextEligibleAt).toBe(end.toISOString());
      expect(input(end).eligible).toBe(true);
      const after = input(new Date(end.getTime() + DAY));
      expect(after).toMatchObject({ eligible: true, deferrals: [], nextEligibleAt: null });
    });
  }

  it('counts calendar months, ending on the last day of a shorter month', () => {
    const result = evaluate(
      { now: new Date('2026-02-27T00:00:00Z') },
      { conditions: ['malaria'], conditionDates: { malaria: '2025-11-30' } },
    );
    expect(result.deferrals[0]!.until).toBe(IST('2026-02-28'));
  });

  it('needs the date of a timed condition (the schema says where)', () => {
    const parsed = questionnaireAnswersSchema.safeParse(
      answers({ conditions: ['tattoo_piercing'] }),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['conditionDates', 'tattoo_piercing']);
  });
});

describe('conditions that last while they do', () => {
  for (const code of CURRENT_CONDITIONS) {
    it(`${code}: deferred with no end date`, () => {
      const result = evaluate({}, { conditions: [code] });
      expect(result.eligible).toBe(false);
      expect(result.deferrals).toEqual([{ code, message: expect.any(String) }]);
      expect(result.nextEligibleAt).toBeNull();
    });
  }

  it('defers a donor who does not feel well, with no end date', () => {
    const result = evaluate({}, { feelsWell: false });
    expect(result.deferrals).toEqual([
      { code: 'unwell', message: 'Please wait until you feel well.' },
    ]);
    expect(result.nextEligibleAt).toBeNull();
  });
});

describe('permanent conditions', () => {
  for (const code of PERMANENT_CONDITIONS) {
    it(`${code}: deferred for good`, () => {
      const result = evaluate(
        { lastDonationAt: daysBefore(10) },
        { conditions: [code, 'antibiotics'], conditionDates: { antibiotics: '2026-06-10' } },
      );
      expect(result.eligible).toBe(false);
      expect(result.deferrals).toContainEqual({
        code,
        message: expect.any(String),
        permanent: true,
      });
      // No date can be promised, whatever else applies.
      expect(result.nextEligibleAt).toBeNull();
    });
  }
});

describe('the questions of issue #32 item 5 (NBTC 2017)', () => {
  const at = (code: string, date: string | undefined, now: Date) =>
    evaluate(
      { now },
      { conditions: [code], ...(date ? { conditionDates: { [code]: date } } : {}) },
    );
  const SECOND = 1000;

  for (const [code, date, end] of [
    // Recovered from the operation on 1 February 2026.
    ['major_surgery', '2026-02-01', '2027-02-01'],
    ['minor_surgery', '2026-02-01', '2026-08-01'],
    ['bone_marrow_harvest', '2026-02-01', '2027-02-01'],
    ['stem_cell_harvest', '2026-02-01', '2026-08-01'],
    // Released on 31 August 2025.
    ['imprisonment', '2025-08-31', '2026-08-31'],
  ] as const) {
    it(`${code}: deferred at 23:59:59 IST the day before ${end}, eligible from 00:00 IST`, () => {
      const boundary = startOfIndianDay(end).getTime();
      const before = at(code, date, new Date(boundary - SECOND));
      expect(before.eligible).toBe(false);
      expect(before.deferrals).toEqual([
        { code, message: TIMED_DEFERRALS[code].message, until: IST(end) },
      ]);
      expect(before.nextEligibleAt).toBe(IST(end));
      expect(at(code, date, new Date(boundary))).toMatchObject({ eligible: true, deferrals: [] });
      expect(TIMED_DEFERRALS[code].source).toContain('NBTC 2017');
    });
  }

  it('counts surgery from full recovery and says so', () => {
    expect(TIMED_DEFERRALS.major_surgery.message).toContain('full recovery');
    expect(TIMED_DEFERRALS.minor_surgery.message).toContain('full recovery');
    expect(TIMED_DEFERRALS.major_surgery.source).toContain('after recovery');
    // The day asked is the recovery: an operation in January recovered from on 1 March counts from March.
    expect(at('major_surgery', '2026-03-01', NOW).nextEligibleAt).toBe(IST('2027-03-01'));
  });

  it('defers while menstruating, with no end date', () => {
    const result = at('menstruating', undefined, NOW);
    expect(result).toMatchObject({ eligible: false, nextEligibleAt: null });
    expect(result.deferrals).toEqual([
      { code: 'menstruating', message: CURRENT_DEFERRALS.menstruating },
    ]);
  });

  it('defers polycythaemia for good', () => {
    const result = at('polycythaemia', undefined, NOW);
    expect(result.deferrals).toEqual([
      { code: 'polycythaemia', message: PERMANENT_DEFERRALS.polycythaemia, permanent: true },
    ]);
    expect(result.nextEligibleAt).toBeNull();
  });

  it('records a hazardous occupation without deferring, and has the advice with its source', () => {
    const result = at('hazardous_occupation', undefined, NOW);
    expect(result).toMatchObject({ eligible: true, deferrals: [], nextEligibleAt: null });
    expect(ADVISORIES.hazardous_occupation.message).toContain('24 hours');
    expect(ADVISORIES.hazardous_occupation.source).toContain('NBTC 2017');
    expect(
      questionnaireAnswersSchema.safeParse(answers({ conditions: ['hazardous_occupation'] }))
        .success,
    ).toBe(true);
    // It is not a timed condition: a date for it is refused.
    expect(
      questionnaireAnswersSchema.safeParse(
        answers({
          conditions: ['hazardous_occupation'],
          conditionDates: { hazardous_occupation: '2026-06-01' },
        }),
      ).success,
    ).toBe(false);
  });
});

describe('combinations', () => {
  it('lists every deferral and picks the latest date', () => {
    const result = evaluate(
      { gender: 'female', lastDonationAt: daysBefore(30) },
      {
        conditions: ['antibiotics', 'tattoo_piercing', 'vaccine_live'],
        conditionDates: {
          antibiotics: '2026-06-10',
          tattoo_piercing: '2026-01-20',
          vaccine_live: '2026-06-01',
        },
      },
    );
    expect(codes(result).sort()).toEqual(
      ['antibiotics', 'donation_interval', 'tattoo_piercing', 'vaccine_live'].sort(),
    );
    // Interval: 16 May + 120 days = 13 Sep 2026; the tattoo's 20 Jan 2027 is later.
    expect(result.nextEligibleAt).toBe(IST('2027-01-20'));
  });

  it('keeps the date of a timed deferral alongside an open-ended one', () => {
    const result = evaluate(
      {},
      {
        conditions: ['cold_flu', 'minor_surgery'],
        conditionDates: { minor_surgery: '2026-05-01' },
      },
    );
    expect(codes(result).sort()).toEqual(['cold_flu', 'minor_surgery']);
    expect(result.nextEligibleAt).toBe(IST('2026-11-01'));
  });

  it('ignores conditions whose period is over', () => {
    const result = evaluate(
      {},
      { conditions: ['typhoid'], conditionDates: { typhoid: '2020-01-01' } },
    );
    expect(result).toMatchObject({ eligible: true, nextEligibleAt: null });
  });

  it('reads its limits from the rule table', () => {
    expect(ELIGIBILITY_RULES).toMatchObject({
      minAgeYears: 18,
      maxAgeYears: 65,
      firstTimeMaxAgeYears: 60,
      minWeightKg: 45,
      minHemoglobinGdl: 12.5,
    });
  });
});

describe("nextEligibleAfterLastDonation (the reminder's date, #32 item 1)", () => {
  // 01:30 IST on 11 March 2026 (10 March in UTC): a man may give again from 9 June, 00:00 IST.
  const lastDonationAt = new Date('2026-03-10T20:00:00.000Z');
  const after = (answerOverrides: Partial<QuestionnaireAnswers>) =>
    nextEligibleAfterLastDonation({
      dateOfBirth: '1990-04-01',
      gender: 'male',
      answers: answers(answerOverrides),
      lastDonationAt,
    })?.toISOString();

  it('is the end of the interval when nothing else runs past it', () => {
    expect(after({})).toBe(IST('2026-06-09'));
    // A deferral over before the interval ends changes nothing.
    expect(
      after({ conditions: ['antibiotics'], conditionDates: { antibiotics: '2026-03-20' } }),
    ).toBe(IST('2026-06-09'));
  });

  it('is the end of a deferral that runs past the interval, even one declared after the donation', () => {
    expect(
      after({ conditions: ['zika_travel'], conditionDates: { zika_travel: '2026-05-10' } }),
    ).toBe(IST('2026-09-07'));
  });

  it('is null under a permanent deferral', () => {
    expect(after({ conditions: ['leprosy'] })).toBeUndefined();
  });
});
