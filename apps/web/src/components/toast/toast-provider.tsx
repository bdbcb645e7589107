import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_DURATION_MS } from '@bdms/shared';
import { afterLoad } from '../../lib/after-load';
import { importWithRetry } from '../../lib/lazy-with-retry';
import { ToastContext, type Toast, type ToastApi, type ToastOptions } from './toast-context';
import type { ToastViewport as ToastViewportComponent } from './toast-viewport';

/** Older toasts give way so a small screen is never covered. */
const MAX_TOASTS = 4;

let nextId = 0;

type Viewport = typeof ToastViewportComponent;

/**
 * Where toasts are shown (./toast-viewport.tsx) is not part of the first page: no page shows a
 * toast before the user acts. Its code arrives once the page has loaded and the browser is idle
 * (or with the first toast, if that comes sooner), with the screens' retry rule.
 */
let loadedViewport: Viewport | null = null;
let viewportLoad: Promise<Viewport> | null = null;

export function preloadToastViewport(): Promise<Viewport> {
  viewportLoad ??= importWithRetry('toast-viewport', () => import('./toast-viewport')).then(
    (module) => (loadedViewport = module.ToastViewport),
    (error: unknown) => {
      viewportLoad = null;
      throw error;
    },
  );
  return viewportLoad;
}

/** The viewport's code once it is due: null while it downloads, 'failed' when it never came. */
function useViewport(isNeeded: boolean): Viewport | 'failed' | null {
  const [viewport, setViewport] = useState(() => loadedViewport);
  const [isDue, setDue] = useState(false);
  const [hasFailed, setFailed] = useState(false);
  useEffect(() => afterLoad(() => setDue(true)), []);
  useEffect(() => {
    if (viewport || hasFailed || !(isDue || isNeeded)) return;
    let isCurrent = true;
    preloadToastViewport().then(
      (loaded) => isCurrent && setViewport(() => loaded),
      () => isCurrent && setFailed(true),
    );
    return () => {
      isCurrent = false;
    };
  }, [viewport, hasFailed, isDue, isNeeded]);
  return viewport ?? (hasFailed ? 'failed' : null);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const Viewport = useViewport(toasts.length > 0);

  const dismiss = useCallback((id: string) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback((options: ToastOptions) => {
    const type = options.type ?? 'info';
    const id = `toast-${++nextId}`;
    const toast: Toast = {
      id,
      type,
      title: options.title,
      message: options.message,
      duration: options.duration ?? TOAST_DURATION_MS[type],
      action: options.action,
    };
    setToasts((current) => [...current, toast].slice(-MAX_TOASTS));
    return id;
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      show,
      dismiss,
      success: (title, options) => show({ ...options, type: 'success', title }),
      error: (title, options) => show({ ...options, type: 'error', title }),
      warning: (title, options) => show({ ...options, type: 'warning', title }),
      info: (title, options) => show({ ...options, type: 'info', title }),
    }),
    [show, dismiss],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      {Viewport === 'failed' ? (
        <PlainToasts toasts={toasts} onDismiss={dismiss} />
      ) : (
        Viewport && <Viewport toasts={toasts} onDismiss={dismiss} />
      )}
    </ToastContext.Provider>
  );
}

/** The messages without their styling, should the viewport's code never arrive. */
function PlainToasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <div aria-live="polite" className="fixed inset-x-0 bottom-0 z-50 p-4">
      {toasts.map((toast) => (
        <p key={toast.id} className="mx-auto mt-3 max-w-sm rounded-lg bg-white p-4 shadow-lg">
          {toast.title} {toast.message}{' '}
          <button type="button" className="underline" onClick={() => onDismiss(toast.id)}>
            {t('toast.dismiss')}
          </button>
        </p>
      ))}
    </div>
  );
}
