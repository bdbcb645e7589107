import type { ButtonHTMLAttributes } from 'react';
import { cn } from '../lib/cn';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'md' | 'lg';

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    'bg-primary-700 text-white shadow-sm hover:bg-primary-800 active:bg-primary-900 disabled:bg-slate-300 disabled:text-slate-700',
  secondary:
    'border-2 border-slate-300 bg-white text-slate-900 hover:border-slate-400 hover:bg-slate-50 disabled:text-slate-500',
  ghost: 'text-slate-800 hover:bg-slate-100 disabled:text-slate-500',
  danger:
    'border-2 border-primary-700 bg-white text-primary-800 hover:bg-primary-50 disabled:border-slate-300 disabled:text-slate-500',
};

const SIZES: Record<ButtonSize, string> = {
  // Never below 44 px: the product is used on small phones, often in a hurry. The vertical
  // padding only shows when a long translation wraps (Tamil, Hindi): the lines keep off the edge.
  md: 'min-h-11 px-4 py-2 text-base',
  lg: 'min-h-13 px-6 py-2 text-lg',
};

export interface ButtonStyleOptions {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
  className?: string | undefined;
}

export function buttonClasses({
  variant = 'primary',
  size = 'md',
  fullWidth = false,
  className,
}: ButtonStyleOptions = {}): string {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold no-underline transition-colors disabled:cursor-not-allowed',
    VARIANTS[variant],
    SIZES[size],
    fullWidth && 'w-full',
    className,
  );
}

export interface ButtonProps
  extends ButtonHTMLAttributes<HTMLButtonElement>, Omit<ButtonStyleOptions, 'className'> {
  /** Shows a spinner and blocks repeated presses while an action runs. */
  isLoading?: boolean;
}

export function Button({
  variant,
  size,
  fullWidth,
  isLoading = false,
  disabled,
  className,
  type = 'button',
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      className={buttonClasses({ variant, size, fullWidth, className })}
      {...props}
    >
      {isLoading && <Spinner size="sm" />}
      {children}
    </button>
  );
}
