import { useId, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { cn } from '../lib/cn';
import { ErrorCircleIcon } from './icons';

/** Only the choice groups use it: kept out of the shared icons of the first load. */
function CheckIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </svg>
  );
}

export interface ChoiceOption {
  value: string;
  label: ReactNode;
}

/**
 * A radio group drawn as large toggle buttons (blood type, gender, yes/no): native radios, so arrow
 * keys, form reset and screen readers all work; each target is at least 52 px tall.
 */
export function ChoiceGroup({
  legend,
  hint,
  error,
  options,
  registration,
  isRequired = false,
  className,
  optionsClassName = 'grid-cols-2',
}: {
  legend: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  options: readonly ChoiceOption[];
  registration: UseFormRegisterReturn;
  isRequired?: boolean;
  className?: string;
  /** Grid columns of the options, e.g. `grid-cols-4`. */
  optionsClassName?: string;
}) {
  const id = useId();
  const legendId = `${id}-legend`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset
      role="radiogroup"
      aria-labelledby={legendId}
      aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
      aria-invalid={error ? true : undefined}
      aria-required={isRequired || undefined}
      className={cn('flex min-w-0 flex-col gap-1.5', className)}
    >
      <legend id={legendId} className="mb-1.5 font-semibold text-slate-900">
        {legend}
        {isRequired && (
          <span aria-hidden="true" className="ms-1 text-primary-700">
            *
          </span>
        )}
      </legend>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      <div className={cn('grid gap-2', optionsClassName)}>
        {options.map((option) => (
          <label key={option.value} className="relative block">
            {/* Transparent over its button: the tap target is the real radio. */}
            <input
              type="radio"
              value={option.value}
              // Only the browser's own check uses it: a form that posts before its script has
              // arrived (the emergency form) is checked by the browser; enhanced forms say noValidate.
              required={isRequired}
              className="peer absolute inset-0 z-10 size-full cursor-pointer opacity-0"
              {...registration}
            />
            <span
              className={cn(
                'flex min-h-13 cursor-pointer items-center justify-center gap-1.5 rounded-lg border-2 px-2 text-lg font-semibold transition-colors',
                'border-slate-400 bg-white text-slate-900 hover:border-slate-600',
                'peer-checked:border-primary-700 peer-checked:bg-primary-700 peer-checked:text-white',
                'peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus',
                '[&>svg]:hidden peer-checked:[&>svg]:block',
                Boolean(error) && 'border-primary-700',
              )}
            >
              <CheckIcon className="size-5 shrink-0" />
              {option.label}
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="flex items-start gap-1.5 text-sm font-medium text-primary-700">
          <ErrorCircleIcon className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </p>
      )}
    </fieldset>
  );
}
