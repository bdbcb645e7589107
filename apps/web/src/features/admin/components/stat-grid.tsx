import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn';

export interface Stat {
  key: string;
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  /** `alert`: needs attention now (open critical requests); `muted`: context only. */
  tone?: 'default' | 'alert' | 'muted';
  /** Where to act on it (e.g. the verification queue). */
  to?: string;
  linkLabel?: string;
}

/**
 * A number still on its way: a grey bar with the text's own line height, so the grid it sits in
 * is as tall while loading as when loaded (no layout shift, issue #18).
 */
export function StatPlaceholder() {
  return (
    <span
      aria-hidden="true"
      className="inline-block w-12 animate-pulse rounded bg-slate-200 text-transparent motion-reduce:animate-none"
    >
      0
    </span>
  );
}

/** Numbers as a description list: each label is read with its value. */
export function StatGrid({ stats, className }: { stats: Stat[]; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-2 gap-3 sm:grid-cols-3', className)}>
      {stats.map((stat) => (
        <div
          key={stat.key}
          className={cn(
            'flex min-w-0 flex-col gap-1 rounded-lg border p-3 sm:p-4',
            stat.tone === 'alert'
              ? 'border-primary-200 border-s-4 border-s-primary-700 bg-primary-50'
              : stat.tone === 'muted'
                ? 'border-slate-200 bg-slate-50'
                : 'border-slate-200 bg-white',
          )}
        >
          <dt className="text-sm font-medium text-slate-700">{stat.label}</dt>
          <dd
            className={cn(
              'order-first text-2xl font-bold tabular-nums sm:text-3xl',
              stat.tone === 'alert' ? 'text-primary-800' : 'text-slate-900',
            )}
          >
            {stat.value}
          </dd>
          {stat.hint && <dd className="text-sm text-slate-700">{stat.hint}</dd>}
          {stat.to && stat.linkLabel && (
            <dd>
              <Link
                to={stat.to}
                className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 underline"
              >
                {stat.linkLabel}
              </Link>
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}
