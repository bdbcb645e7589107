import { PASSWORD_MIN } from '@bdms/shared';

export type StrengthLevel = 'weak' | 'fair' | 'good' | 'strong';

export const STRENGTH_LEVELS: readonly StrengthLevel[] = ['weak', 'fair', 'good', 'strong'];

/**
 * A simple hint, not a guarantee: length counts most, then variety (lower case, upper case,
 * digits, symbols). Too short or one repeated character is always weak. Null for an empty value.
 */
export function passwordStrength(password: string): StrengthLevel | null {
  if (!password) return null;
  if (password.length < PASSWORD_MIN || /^(.)\1*$/.test(password)) return 'weak';
  const variety = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((kind) =>
    kind.test(password),
  ).length;
  let score = 0;
  if (password.length >= 12) score += 1;
  if (password.length >= 16) score += 1;
  if (variety >= 2) score += 1;
  if (variety >= 3) score += 1;
  if (score >= 3) return 'strong';
  if (score === 2) return 'good';
  return score === 1 ? 'fair' : 'weak';
}
