import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ELIGIBILITY_RULES, donationIntervalDays, type Deferral } from '@bdms/shared';
import type onboarding from '../../../i18n/locales/en/onboarding.json';

type DeferralKey = keyof (typeof onboarding)['eligibility']['deferrals'];

/** The numbers some explanations mention, from the same rules the server applies. */
function paramsFor(code: DeferralKey, gender: string | null | undefined) {
  const rules = ELIGIBILITY_RULES;
  const params: Partial<Record<DeferralKey, Record<string, number>>> = {
    age_under_min: { age: rules.minAgeYears },
    age_over_max: { age: rules.maxAgeYears },
    first_time_over_max: { age: rules.firstTimeMaxAgeYears },
    underweight: { kg: rules.minWeightKg },
    low_hemoglobin: { gdl: rules.minHemoglobinGdl },
    donation_interval: { days: donationIntervalDays(gender) },
  };
  return params[code];
}

/**
 * A deferral explained kindly in the user's language, keyed by its code (the server's English
 * `message` is not shown). An unknown code gets a gentle generic sentence.
 */
export function useDeferralText(gender: string | null | undefined) {
  const { t, i18n } = useTranslation('onboarding');
  return useCallback(
    (deferral: Pick<Deferral, 'code'>): string => {
      const known = i18n.exists(`onboarding:eligibility.deferrals.${deferral.code}`);
      const code = (known ? deferral.code : 'other') as DeferralKey;
      return t(`eligibility.deferrals.${code}`, paramsFor(code, gender));
    },
    [t, i18n, gender],
  );
}
