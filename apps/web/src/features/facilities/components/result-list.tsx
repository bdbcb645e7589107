import { useDeferredValue, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Facility } from '@bdms/shared';
import { cn } from '../../../lib/cn';
import { FacilityCard } from './facility-card';
import type { StockNowFigure } from './stock-now';

export interface ResultItem {
  facility: Facility;
  distanceKm?: number;
  /** With the stock filter: what it holds of the group asked. */
  stock?: StockNowFigure;
}

const NONE: ResultItem[] = [];

/**
 * The cards of the current results; dimmed (and busy) while the next ones load. Twenty cards are
 * drawn in the background (a deferred value renders in short slices), so a tap or a scroll is
 * answered while they are: until then the skeleton, or the previous cards, stay.
 */
export function ResultList({
  items,
  from,
  isUpdating = false,
}: {
  items: ResultItem[];
  from: string;
  isUpdating?: boolean;
}) {
  const shown = useDeferredValue(items, NONE);
  if (shown.length === 0 && items.length > 0) return <ResultSkeleton />;
  const isBehind = isUpdating || shown !== items;
  return (
    <ol
      aria-busy={isBehind || undefined}
      className={cn('grid gap-4 transition-opacity', isBehind && 'opacity-60')}
    >
      {shown.map(({ facility, distanceKm, stock }) => (
        <li key={facility.id}>
          <FacilityCard facility={facility} distanceKm={distanceKm} stock={stock} from={from} />
        </li>
      ))}
    </ol>
  );
}

/** Grey cards in the shape of results, while the first answer is on its way. */
export function ResultSkeleton({ count = 4 }: { count?: number }) {
  const { t } = useTranslation('facilities');
  return (
    <div role="status">
      <span className="sr-only">{t('results.loading')}</span>
      <div aria-hidden="true" className="grid gap-4">
        {Array.from({ length: count }, (_, index) => (
          <div
            key={index}
            className="flex animate-pulse flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 motion-reduce:animate-none"
          >
            <div className="h-5 w-2/3 rounded bg-slate-200" />
            <div className="flex gap-2">
              <div className="h-5 w-20 rounded-full bg-slate-200" />
              <div className="h-5 w-16 rounded-full bg-slate-200" />
            </div>
            <div className="h-4 w-full rounded bg-slate-200" />
            <div className="h-4 w-1/2 rounded bg-slate-200" />
          </div>
        ))}
      </div>
    </div>
  );
}

/** No results: what happened, and what to try next. */
export function EmptyResults({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-slate-50 p-5 text-slate-800">
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-3 flex flex-wrap gap-3">{children}</div>}
    </div>
  );
}
