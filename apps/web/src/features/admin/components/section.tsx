import { useId, type ReactNode } from 'react';
import { cn } from '../../../lib/cn';

/** A titled block of a console screen: an h2, an optional line under it, actions on the right. */
export function AdminSection({
  title,
  description,
  actions,
  id,
  className,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  const generatedId = useId();
  const headingId = `${id ?? generatedId}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn('rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5', className)}
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-xl font-bold text-slate-900">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-slate-700">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
