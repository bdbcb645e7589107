import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

export type BadgeVariant = 'neutral' | 'primary' | 'success' | 'warning' | 'info';

const VARIANTS: Record<BadgeVariant, string> = {
  neutral: 'bg-slate-100 text-slate-800 ring-slate-300',
  primary: 'bg-primary-50 text-primary-800 ring-primary-200',
  success: 'bg-success-50 text-success-800 ring-success-200',
  warning: 'bg-warning-50 text-warning-800 ring-warning-200',
  info: 'bg-info-50 text-info-800 ring-info-200',
};

export function Badge({
  variant = 'neutral',
  className,
  children,
}: {
  variant?: BadgeVariant;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset',
        VARIANTS[variant],
        className,
      )}
    >
      {children}
    </span>
  );
}
