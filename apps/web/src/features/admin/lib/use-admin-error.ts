import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useErrorMessage } from '../../../lib/use-error-message';

/**
 * The console's own wording for refusals that need context (a status change the current
 * status does not allow, an approval before onboarding is done); everything else as usual.
 */
export function useAdminErrorMessage(context: 'donor' | 'request' | 'document' = 'donor') {
  const { t } = useTranslation('admin');
  const errorMessage = useErrorMessage();
  return useCallback(
    (error: unknown) => {
      if (isApiError(error)) {
        if (error.code === 'INVALID_TRANSITION') return t(`errors.invalidTransition.${context}`);
        if (error.code === 'ONBOARDING_INCOMPLETE') return t('errors.onboardingIncomplete');
        if (error.code === 'NOT_FOUND') return t(`errors.notFound.${context}`);
      }
      return errorMessage(error);
    },
    [t, errorMessage, context],
  );
}
