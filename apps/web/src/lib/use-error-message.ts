import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { EN_RESOURCES } from '../i18n/resources';
import { formatDate, intlLocale } from './intl';

type ErrorTexts = typeof EN_RESOURCES.errors;
/** The flat entries of errors.json: one sentence per error code, plus `generic`. */
type ErrorCodeKey = {
  [Key in keyof ErrorTexts]: ErrorTexts[Key] extends string ? Key : never;
}[keyof ErrorTexts];

function isErrorCodeKey(code: string): code is ErrorCodeKey {
  return (
    Object.hasOwn(EN_RESOURCES.errors, code) &&
    typeof (EN_RESOURCES.errors as Record<string, unknown>)[code] === 'string'
  );
}

/** Anything carrying a machine code: an `ApiError`, a session error, or a bare `{code}`. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `details.nextEligibleAt` of a refused accept (DONOR_NOT_ELIGIBLE, issue #32 item 2). */
function nextEligibleAtOf(error: unknown): string | undefined {
  const details = (error as { details?: unknown } | null | undefined)?.details;
  const next = (details as { nextEligibleAt?: unknown } | null | undefined)?.nextEligibleAt;
  return typeof next === 'string' ? next : undefined;
}

function retryAfterOf(error: unknown): number | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown } | null | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
}

/** "45 seconds", "3 minutes", in the current language (Intl handles the plural). */
function formatWait(seconds: number, language: string): string {
  const [value, unit] = seconds >= 120 ? [Math.ceil(seconds / 60), 'minute'] : [seconds, 'second'];
  return new Intl.NumberFormat(intlLocale(language), {
    style: 'unit',
    unit,
    unitDisplay: 'long',
  }).format(value);
}

/**
 * Turns any caught error into a sentence for the user: `t('errors:<code>')` for a known API,
 * client or session code, else the generic message. Server texts are not shown: they are English
 * only. A 429 that says how long to wait says it too.
 */
export function useErrorMessage(): (error: unknown) => string {
  const { t, i18n } = useTranslation('errors');
  return useCallback(
    (error: unknown) => {
      const code = codeOf(error);
      const wait = retryAfterOf(error);
      if (code === 'RATE_LIMITED' && wait) {
        return t('retry.rateLimited', { time: formatWait(wait, i18n.language) });
      }
      const nextEligibleAt = code === 'DONOR_NOT_ELIGIBLE' ? nextEligibleAtOf(error) : undefined;
      if (nextEligibleAt) {
        return t('DONOR_NOT_ELIGIBLE_UNTIL', {
          date: formatDate(nextEligibleAt, i18n.language, 'long'),
        });
      }
      return t(code && isErrorCodeKey(code) ? code : 'generic');
    },
    [t, i18n],
  );
}
