import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOOD_COMPONENTS, BLOOD_TYPES, type FacilityStock } from '@bdms/shared';
import { Badge } from '../../../components/badge';
import { useFeatureFlag } from '../../../config/use-config';
import { formatCount, formatTimeAgo } from '../../../lib/intl';
import { useFacilityStock } from '../api/stock-api';

/** How old a figure is, and "stale" beyond 24 hours (never counted as available). */
export function Freshness({ updatedAt, stale }: { updatedAt: string; stale: boolean }) {
  const { t, i18n } = useTranslation('facilities');
  const ago = formatTimeAgo(updatedAt, i18n.language);
  return (
    <span className="inline-flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <span>{t('stock.updated', { ago })}</span>
      {stale && <Badge variant="warning">{t('stock.staleBadge')}</Badge>}
    </span>
  );
}

/**
 * A centre's stock as a table: blood groups down, the components it reports across. Zero is
 * written, a missing figure is a dash; a stale table says so above it.
 */
export function StockTableView({ stock }: { stock: FacilityStock }) {
  const { t, i18n } = useTranslation('facilities');
  const captionId = useId();
  if (stock.items.length === 0 || stock.updatedAt === null)
    return <p className="text-slate-700">{t('stock.never')}</p>;
  const components = BLOOD_COMPONENTS.filter((component) =>
    stock.items.some((item) => item.component === component),
  );
  const cell = (bloodType: string, component: string) =>
    stock.items.find((item) => item.bloodType === bloodType && item.component === component);
  return (
    <div className="flex flex-col gap-3">
      <Freshness updatedAt={stock.updatedAt} stale={stock.stale} />
      {stock.stale && <p className="text-sm text-warning-800">{t('stock.staleNote')}</p>}
      <div className="overflow-x-auto">
        <table aria-describedby={captionId} className="min-w-full border-collapse text-left">
          <caption id={captionId} className="sr-only">
            {t('stock.title')}
          </caption>
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t('stock.group')}
              </th>
              {components.map((component) => (
                <th key={component} scope="col" className="px-2 py-2 text-right font-semibold">
                  {t(`stock.components.${component}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {BLOOD_TYPES.map((bloodType) => (
              <tr key={bloodType} className="border-b border-slate-200">
                <th scope="row" className="py-2 pr-3 font-semibold">
                  {bloodType}
                </th>
                {components.map((component) => {
                  const item = cell(bloodType, component);
                  return (
                    <td
                      key={component}
                      className={`px-2 py-2 text-right tabular-nums ${item?.stale ? 'text-slate-500' : ''}`}
                    >
                      {item ? formatCount(item.units, i18n.language) : '–'}
                      {item?.expiringUnits ? (
                        <span className="block text-xs text-warning-800">
                          {t('stock.expiring', { count: item.expiringUnits })}
                        </span>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-600">{t('stock.source')}</p>
    </div>
  );
}

/** A facility page's stock section (`GET /public/facilities/:id/stock`). */
export function FacilityStockSection({ id }: { id: string }) {
  const { t } = useTranslation('facilities');
  const isOn = useFeatureFlag('inventoryManagement');
  const query = useFacilityStock(id, isOn);
  const headingId = useId();
  if (!isOn || !query.data) return null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('stock.title')}
      </h2>
      <StockTableView stock={query.data} />
    </section>
  );
}
