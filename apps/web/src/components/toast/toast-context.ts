import { createContext, useContext } from 'react';
import type { StatusVariant } from '../status';

export type ToastType = StatusVariant;

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastOptions {
  type?: ToastType;
  title: string;
  message?: string;
  /** Milliseconds before it closes itself; defaults by type (5 s, error 7 s, warning 6 s). 0 keeps it. */
  duration?: number;
  action?: ToastAction;
}

/** A toast (product spec section 3). */
export interface Toast {
  id: string;
  type: ToastType;
  title: string;
  message?: string | undefined;
  duration: number;
  action?: ToastAction | undefined;
}

type ShortcutOptions = Omit<ToastOptions, 'type' | 'title'>;

export interface ToastApi {
  /** Shows a toast and returns its id. */
  show: (options: ToastOptions) => string;
  success: (title: string, options?: ShortcutOptions) => string;
  error: (title: string, options?: ShortcutOptions) => string;
  warning: (title: string, options?: ShortcutOptions) => string;
  info: (title: string, options?: ShortcutOptions) => string;
  dismiss: (id: string) => void;
}

export const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
