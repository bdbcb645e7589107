import { useTranslation } from 'react-i18next';
import { isStockStale, type BloodComponent, type BloodType } from '@bdms/shared';
import { Badge } from '../../../components/badge';
import { cn } from '../../../lib/cn';
import { formatCount, formatDateTime, formatTimeAgo } from '../../../lib/intl';

/** What a centre holds of the group and component asked, and when it last said so. */
export interface StockNowFigure {
  bloodType: BloodType;
  component: BloodComponent;
  units: number;
  /** When the centre confirmed the figure (ISO 8601). */
  updatedAt: string;
}

/**
 * "O− packed red cells: 4 units · Updated 2 hours ago" on a directory card and a map popup. The
 * age is counted from now, so a page left open past 24 hours marks the figure stale (never to be
 * read as available) rather than going on showing it as current.
 */
export function StockNow({
  figure,
  now = Date.now(),
  className,
}: {
  figure: StockNowFigure;
  now?: number;
  className?: string;
}) {
  const { t, i18n } = useTranslation('facilities');
  const language = i18n.language;
  const isStale = isStockStale(figure.updatedAt, now);
  return (
    <div
      className={cn(
        'flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg px-3 py-2',
        isStale ? 'bg-warning-50 ring-1 ring-warning-200' : 'bg-primary-50 ring-1 ring-primary-200',
        className,
      )}
    >
      <span className={cn('font-semibold', isStale ? 'text-slate-700' : 'text-primary-900')}>
        {t('card.stockUnits', {
          count: figure.units,
          value: formatCount(figure.units, language),
          bloodType: figure.bloodType,
          component: t(`stock.components.${figure.component}`),
        })}
      </span>
      <span className="inline-flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <time dateTime={figure.updatedAt} title={formatDateTime(figure.updatedAt, language)}>
          {t('stock.updated', { ago: formatTimeAgo(figure.updatedAt, language, now) })}
        </time>
        {isStale && <Badge variant="warning">{t('stock.staleBadge')}</Badge>}
      </span>
    </div>
  );
}
