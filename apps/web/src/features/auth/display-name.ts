import { useTranslation } from 'react-i18next';
import { donorDisplayName, headerDisplayName } from '@bdms/shared';
import type { User } from './types';

/**
 * The spec's two display-name rules (section 3, shared/users.ts) with their English fallbacks
 * ("User", "Donor • 1234") read from the translation files.
 */
export function useDisplayNames(user: User | null): { header: string; donor: string } {
  const { t } = useTranslation();
  const localise = (name: string): string => {
    if (name === 'User') return t('account.fallbackName');
    const digits = /^Donor • (\d{4})$/.exec(name)?.[1];
    return digits ? t('account.donorWithPhone', { digits }) : name;
  };
  return { header: localise(headerDisplayName(user)), donor: localise(donorDisplayName(user)) };
}
