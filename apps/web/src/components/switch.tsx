import type { ButtonHTMLAttributes } from 'react';
import { cn } from '../lib/cn';
import { Spinner } from './spinner';

export interface SwitchProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'onChange' | 'role' | 'aria-checked'
> {
  isOn: boolean;
  onChange: (isOn: boolean) => void;
  /** Blocks presses and shows a spinner while the change is saved. */
  isBusy?: boolean;
}

/**
 * An on/off switch (`role="switch"`): Space and Enter toggle it; label it with
 * `aria-labelledby` or `aria-label`. The state is also said in words next to it by the caller,
 * so it never rests on colour or position alone. 44 px tall.
 */
export function Switch({
  isOn,
  onChange,
  isBusy = false,
  disabled,
  className,
  ...props
}: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={isOn}
      aria-busy={isBusy || undefined}
      disabled={disabled || isBusy}
      onClick={() => onChange(!isOn)}
      className={cn(
        'relative inline-flex h-11 w-20 shrink-0 items-center rounded-full border-2 transition-colors disabled:cursor-not-allowed disabled:opacity-70',
        isOn ? 'border-success-700 bg-success-700' : 'border-slate-500 bg-slate-200',
        className,
      )}
      {...props}
    >
      <span
        aria-hidden="true"
        className={cn(
          'absolute top-1 flex size-8 items-center justify-center rounded-full bg-white shadow transition-[inset-inline-start]',
          isOn ? 'start-10' : 'start-1',
        )}
      >
        {isBusy && <Spinner size="sm" className="text-slate-700" />}
      </span>
    </button>
  );
}
