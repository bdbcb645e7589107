import { describe, expect, it } from 'vitest';
import { questionnaireAnswersSchema } from '@bdms/shared';
import {
  answersFrom,
  conditionsFor,
  formValuesFrom,
  parseDecimal,
  type QuestionnaireFormValues,
} from './questionnaire-form';

const base: QuestionnaireFormValues = {
  weightKg: '62,5',
  hemoglobinGdl: '',
  firstTimeDonor: 'no',
  lastDonationDate: '2026-01-10',
  feelsWell: 'yes',
  conditions: ['tattoo_piercing', 'cold_flu'],
  conditionDates: { tattoo_piercing: '2026-02-01', malaria: '2025-01-01' },
};

describe('questionnaire form', () => {
  it('reads decimals with a point or a comma', () => {
    expect(parseDecimal('62.5')).toBe(62.5);
    expect(parseDecimal(' 62,5 ')).toBe(62.5);
    expect(parseDecimal('62kg')).toBeNaN();
  });

  it('turns the form into a valid answers body, dropping dates of unticked conditions', () => {
    const answers = answersFrom(base);
    expect(answers).toEqual({
      weightKg: 62.5,
      firstTimeDonor: false,
      lastDonationDate: '2026-01-10',
      feelsWell: true,
      conditions: ['tattoo_piercing', 'cold_flu'],
      conditionDates: { tattoo_piercing: '2026-02-01' },
    });
    expect(questionnaireAnswersSchema.safeParse(answers).success).toBe(true);
  });

  it('gives nothing to judge while the weight or a yes/no is missing', () => {
    expect(answersFrom({ ...base, weightKg: '' })).toBeNull();
    expect(answersFrom({ ...base, feelsWell: '' })).toBeNull();
  });

  it('round-trips stored answers into the form', () => {
    const answers = answersFrom(base)!;
    expect(answersFrom(formValuesFrom(answers))).toEqual(answers);
  });

  it('does not ask men about pregnancy', () => {
    expect(conditionsFor(['pregnant', 'cold_flu', 'delivery'], 'male')).toEqual(['cold_flu']);
    expect(conditionsFor(['pregnant', 'cold_flu'], 'female')).toEqual(['pregnant', 'cold_flu']);
  });
});
