import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorMessage } from '../lib/use-error-message';
import { Alert } from './alert';
import { Button } from './button';
import { Spinner } from './spinner';

/** "Loading..." while a part of a page waits for the server (announced politely). */
export function LoadingState({ label, className }: { label?: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={className ?? 'flex items-center gap-3 py-6 text-slate-700'}>
      <Spinner label={label ?? t('loading.generic')} />
      <span aria-hidden="true">{label ?? t('loading.generic')}</span>
    </div>
  );
}

/** A failed load: what went wrong, in the user's language, and a way to try again. */
export function LoadError({
  error,
  onRetry,
  children,
}: {
  error: unknown;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  return (
    <Alert variant="error" dismissible={false} message={errorMessage(error)}>
      {children}
      {onRetry && (
        <Button variant="secondary" className="mt-3" onClick={onRetry}>
          {t('actions.tryAgain')}
        </Button>
      )}
    </Alert>
  );
}
