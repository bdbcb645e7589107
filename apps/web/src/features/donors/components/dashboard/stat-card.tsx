import { useId, type ReactNode } from 'react';
import { cn } from '../../../../lib/cn';

/** A figure with its name (the heading) and a line of context under it. */
export function StatCard({
  title,
  value,
  hint,
  className,
  children,
}: {
  title: string;
  value: ReactNode;
  hint?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        'flex flex-col gap-1 rounded-xl border border-slate-200 bg-white p-5 shadow-sm',
        className,
      )}
    >
      <h2 id={headingId} className="text-base font-semibold text-slate-700">
        {title}
      </h2>
      <div className="text-xl font-bold break-words text-slate-900 sm:text-2xl">{value}</div>
      {hint && <div className="text-sm text-slate-700 sm:text-base">{hint}</div>}
      {children}
    </section>
  );
}
