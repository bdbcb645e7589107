import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface BarDatum {
  key: string;
  /** Short, under the axis ("12 Nov"). */
  label: string;
  /** Full, in the table and tooltips ("Week of 12 Nov 2026"). */
  fullLabel: string;
  value: number;
}

const WIDTH = 100;
const HEIGHT = 40;

/**
 * A bar chart drawn in SVG (no library: small, and no inline script for the CSP). The drawing
 * has one spoken summary; the numbers are in a table under it for anyone who wants them all.
 */
export function BarChart({
  title,
  total,
  summary,
  data,
  formatValue,
}: {
  title: string;
  total: string;
  summary: string;
  data: BarDatum[];
  formatValue: (value: number) => string;
}) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  const max = Math.max(1, ...data.map((datum) => datum.value));
  const slot = WIDTH / Math.max(1, data.length);
  const gap = data.length > 40 ? 0.15 : slot * 0.2;
  const first = data[0];
  const last = data[data.length - 1];

  return (
    <figure aria-labelledby={headingId} className="flex min-w-0 flex-col gap-2">
      <figcaption className="flex items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-slate-900">
          {title}
        </h3>
        <span className="text-lg font-bold text-slate-900 tabular-nums">{total}</span>
      </figcaption>
      <div className="flex gap-2">
        <div
          aria-hidden="true"
          className="flex w-8 shrink-0 flex-col justify-between text-end text-xs text-slate-600 tabular-nums"
        >
          <span>{formatValue(max)}</span>
          <span>{formatValue(0)}</span>
        </div>
        <svg
          role="img"
          aria-label={summary}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-32 w-full min-w-0 border-b border-s border-slate-300 bg-slate-50"
        >
          <line
            x1="0"
            x2={WIDTH}
            y1={HEIGHT / 2}
            y2={HEIGHT / 2}
            className="stroke-slate-200"
            strokeWidth="0.3"
            vectorEffect="non-scaling-stroke"
          />
          {data.map((datum, index) => {
            const height = (datum.value / max) * (HEIGHT - 1);
            return (
              <rect
                key={datum.key}
                x={index * slot + gap / 2}
                y={HEIGHT - height}
                width={Math.max(0.1, slot - gap)}
                height={height}
                className="fill-slate-600"
              >
                <title>{`${datum.fullLabel}: ${formatValue(datum.value)}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      {first && last && (
        <div aria-hidden="true" className="flex justify-between ps-10 text-xs text-slate-600">
          <span>{first.label}</span>
          {last !== first && <span>{last.label}</span>}
        </div>
      )}
      <details className="text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-slate-800 underline">
          {t('dashboard.analytics.showTable', { title })}
        </summary>
        <div className="max-h-64 overflow-y-auto">
          <table className="mt-2 w-full text-start">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-1 text-start font-semibold">
                  {t('dashboard.analytics.period')}
                </th>
                <th scope="col" className="py-1 text-end font-semibold">
                  {t('dashboard.analytics.count')}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((datum) => (
                <tr key={datum.key} className="border-b border-slate-100">
                  <th scope="row" className="py-1 text-start font-normal">
                    {datum.fullLabel}
                  </th>
                  <td className="py-1 text-end tabular-nums">{formatValue(datum.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
