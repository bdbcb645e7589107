import { useTranslation } from 'react-i18next';
import type admin from '../../../i18n/locales/en/admin.json';

type ActionKey = keyof (typeof admin)['activity']['actions'];

/** `donor.approved` → `donor_approved` (i18next reads dots as nesting). */
function actionKey(action: string): string {
  return action.replace(/[.-]/g, '_');
}

/**
 * What an activity entry says, in the reader's language when the action is known; else the
 * server's words (English), else the code made readable.
 */
export function useActivityLabel() {
  const { t, i18n } = useTranslation('admin');
  return (action: string, fallback?: string | null) => {
    const key = actionKey(action);
    if (i18n.exists(`admin:activity.actions.${key}`)) {
      return t(`activity.actions.${key as ActionKey}`);
    }
    if (fallback) return fallback;
    const words = action.replace(/[._-]+/g, ' ').trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
  };
}
