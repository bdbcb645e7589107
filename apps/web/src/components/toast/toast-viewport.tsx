import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { CloseIcon } from '../icons';
import { STATUS_STYLES, StatusIcon } from '../status';
import type { Toast } from './toast-context';

export interface ToastViewportProps {
  toasts: Toast[];
  onDismiss: (id: string) => void;
}

/**
 * Where toasts appear, errors first. Loaded after the first page (./toast-provider.tsx): no
 * page shows a toast before the user acts.
 */
export function ToastViewport({ toasts, onDismiss }: ToastViewportProps) {
  const errors = toasts.filter((toast) => toast.type === 'error');
  const others = toasts.filter((toast) => toast.type !== 'error');
  // Both live regions always exist, so a screen reader hears every toast added to them.
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-3 p-4 sm:inset-x-auto sm:top-0 sm:right-0 sm:bottom-auto sm:items-end">
      <ToastRegion live="assertive" toasts={errors} onDismiss={onDismiss} />
      <ToastRegion live="polite" toasts={others} onDismiss={onDismiss} />
    </div>
  );
}

/** A live region of toasts: errors are announced at once, the others politely. */
function ToastRegion({
  live,
  toasts,
  onDismiss,
}: ToastViewportProps & { live: 'assertive' | 'polite' }) {
  return (
    <div
      aria-live={live}
      aria-relevant="additions"
      className="flex w-full flex-col items-center gap-3 sm:items-end"
    >
      {toasts.map((toast) => (
        <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} />
      ))}
    </div>
  );
}

/** One toast: its icon, texts, optional action and dismiss button, and its countdown. */
function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const { t } = useTranslation();
  const [isPaused, setIsPaused] = useState(false);
  const remaining = useRef(toast.duration);

  // Counts down while nobody reads it: hovering or focusing a toast pauses it (WCAG 2.2.1).
  useEffect(() => {
    if (isPaused || !(toast.duration > 0) || !Number.isFinite(toast.duration)) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => onDismiss(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt;
    };
  }, [isPaused, toast.duration, toast.id, onDismiss]);

  const styles = STATUS_STYLES[toast.type];
  return (
    <div
      className={cn(
        'pointer-events-auto flex w-full max-w-sm animate-scale-in items-start gap-3 rounded-lg border-s-4 p-4 shadow-lg',
        styles.box,
      )}
      onMouseEnter={() => setIsPaused(true)}
      onMouseLeave={() => setIsPaused(false)}
      onFocus={() => setIsPaused(true)}
      onBlur={() => setIsPaused(false)}
    >
      <span className={cn('mt-0.5 shrink-0', styles.icon)}>
        <StatusIcon variant={toast.type} />
      </span>
      <div className="min-w-0 flex-1">
        <span className="sr-only">{t(`status.${toast.type}`)}: </span>
        <p className="font-semibold">{toast.title}</p>
        {toast.message && <p className="mt-1">{toast.message}</p>}
        {toast.action && (
          <button
            type="button"
            className="mt-2 -ms-2 inline-flex min-h-11 items-center rounded-lg px-2 font-semibold underline hover:bg-black/5"
            onClick={() => {
              toast.action?.onClick();
              onDismiss(toast.id);
            }}
          >
            {toast.action.label}
          </button>
        )}
      </div>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        aria-label={t('toast.dismiss')}
        className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg hover:bg-black/5"
      >
        <CloseIcon />
      </button>
    </div>
  );
}
