import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { ErrorCircleIcon, InfoIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { useErrorMessage } from '../../../lib/use-error-message';
import { cn } from '../../../lib/cn';

/** Grey bars where content will be; announced once as "Loading…". */
export function Skeleton({ lines = 3, className }: { lines?: number; className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" className={cn('flex flex-col gap-3', className)}>
      <span className="sr-only">{t('loading.generic')}</span>
      {Array.from({ length: lines }, (_, index) => (
        <div
          key={index}
          aria-hidden="true"
          className={cn(
            'h-4 animate-pulse rounded bg-slate-200 motion-reduce:animate-none',
            index % 3 === 2 ? 'w-2/3' : 'w-full',
          )}
        />
      ))}
    </div>
  );
}

export function LoadingRow({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-2 py-4 text-slate-700">
      <Spinner size="sm" />
      <span role="status">{label ?? t('loading.generic')}</span>
    </div>
  );
}

/** A list or panel with nothing in it: says so, and what it would show. */
export function EmptyState({
  title,
  message,
  action,
  icon,
  className,
}: {
  title: string;
  message?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center',
        className,
      )}
    >
      <span className="text-slate-500" aria-hidden="true">
        {icon ?? <InfoIcon className="size-7" />}
      </span>
      <p className="font-semibold text-slate-900">{title}</p>
      {message && <p className="max-w-prose text-sm text-slate-700">{message}</p>}
      {action}
    </div>
  );
}

/** A failed load: what went wrong, in the reader's language, and a way to try again. */
export function ErrorState({
  error,
  onRetry,
  title,
  message,
  className,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
  message?: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation('admin');
  const errorMessage = useErrorMessage();
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-col items-center gap-2 rounded-xl border border-primary-200 bg-primary-50 px-4 py-6 text-center',
        className,
      )}
    >
      <ErrorCircleIcon className="size-7 text-primary-700" />
      <p className="font-semibold text-primary-900">{title ?? t('common.loadFailed')}</p>
      <p className="max-w-prose text-sm text-primary-900">{message ?? errorMessage(error)}</p>
      {onRetry && (
        <Button variant="secondary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}
