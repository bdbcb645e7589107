import type { ReactNode } from 'react';
import { CheckCircleIcon, ErrorCircleIcon, InfoIcon, WarningIcon } from './icons';

/** The four message kinds shared by alerts and toasts (product spec section 3). */
export type StatusVariant = 'success' | 'error' | 'warning' | 'info';

export const STATUS_STYLES: Record<StatusVariant, { box: string; icon: string }> = {
  success: { box: 'border-success-700 bg-success-50 text-success-800', icon: 'text-success-700' },
  error: { box: 'border-primary-700 bg-primary-50 text-primary-900', icon: 'text-primary-700' },
  warning: { box: 'border-warning-700 bg-warning-50 text-warning-800', icon: 'text-warning-700' },
  info: { box: 'border-info-700 bg-info-50 text-info-800', icon: 'text-info-700' },
};

/** Each kind has its own shape, so the meaning never rests on colour alone. */
export function StatusIcon({ variant, className }: { variant: StatusVariant; className?: string }) {
  const icons: Record<StatusVariant, ReactNode> = {
    success: <CheckCircleIcon className={className} />,
    error: <ErrorCircleIcon className={className} />,
    warning: <WarningIcon className={className} />,
    info: <InfoIcon className={className} />,
  };
  return icons[variant];
}

/** Errors and warnings interrupt a screen reader; success and information wait politely. */
export function isUrgent(variant: StatusVariant): boolean {
  return variant === 'error' || variant === 'warning';
}
