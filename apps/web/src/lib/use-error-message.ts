import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { EN_RESOURCES } from '../i18n/resources';
import { isApiError } from './api-client';

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

/**
 * Turns any caught error into a sentence for the user: `t('errors:<code>')` for a known API or
 * client code, else the generic message. Server texts are not shown: they are English only.
 */
export function useErrorMessage(): (error: unknown) => string {
  const { t } = useTranslation('errors');
  return useCallback(
    (error: unknown) => t(isApiError(error) && isErrorCodeKey(error.code) ? error.code : 'generic'),
    [t],
  );
}
