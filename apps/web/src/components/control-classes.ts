import { cn } from '../lib/cn';

const CONTROL =
  'block w-full min-h-11 rounded-lg border-2 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600';

/**
 * The look of every text input, select and text area (./field.tsx). Its own module so that a
 * control outside a form (the header's language choice) needs no form code on the first page.
 */
export function controlClasses(isInvalid: boolean, className?: string): string {
  return cn(
    CONTROL,
    isInvalid ? 'border-primary-700' : 'border-slate-400 hover:border-slate-500',
    className,
  );
}
