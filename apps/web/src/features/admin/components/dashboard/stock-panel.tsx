import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOOD_COMPONENTS, type BloodComponent, type StockSummary } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { Field, Select } from '../../../../components/field';
import { useToast } from '../../../../components/toast';
import { saveFile } from '../../../../lib/save-file';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { downloadStockSummary, useStockSummary } from '../../api/admin-api';
import { fileNameFromDisposition } from '../../lib/download';
import { useFormat, type Format } from '../../lib/format';
import { AdminSection } from '../section';
import { ErrorState, Skeleton } from '../states';

const WIDTH = 100;
const HEIGHT = 40;

type Groups = StockSummary['national'];

/**
 * Fresh units in India per blood group, drawn in SVG like BarChart. The drawing has one spoken
 * summary with every figure; the table under it has them all again, per state.
 */
function NationalChart({ groups, format }: { groups: Groups; format: Format }) {
  const { t } = useTranslation('admin');
  const max = Math.max(1, ...groups.map((group) => group.units));
  const slot = WIDTH / Math.max(1, groups.length);
  const gap = slot * 0.25;
  const summary = t('dashboard.stock.chartSummary', {
    figures: groups
      .map((group) =>
        t('dashboard.stock.chartFigure', {
          bloodType: group.bloodType,
          units: format.number(group.units),
        }),
      )
      .join(', '),
  });
  return (
    <figure className="flex min-w-0 flex-col gap-1">
      <figcaption className="font-semibold text-slate-900">
        {t('dashboard.stock.chartTitle')}
      </figcaption>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-32 w-full border-b border-s border-slate-300 bg-slate-50"
      >
        {groups.map((group, index) => {
          const height = (group.units / max) * (HEIGHT - 1);
          return (
            <rect
              key={group.bloodType}
              x={index * slot + gap / 2}
              y={HEIGHT - height}
              width={slot - gap}
              height={height}
              className="fill-primary-700"
            >
              <title>{`${group.bloodType}: ${format.number(group.units)}`}</title>
            </rect>
          );
        })}
      </svg>
      <div aria-hidden="true" className="flex text-xs text-slate-700">
        {groups.map((group) => (
          <span key={group.bloodType} className="flex-1 text-center">
            <span className="block font-semibold">{group.bloodType}</span>
            <span className="tabular-nums">{format.number(group.units)}</span>
          </span>
        ))}
      </div>
    </figure>
  );
}

/** India and each state down, the eight groups across: units, and how many centres hold them. */
function AvailabilityTable({ summary, format }: { summary: StockSummary; format: Format }) {
  const { t } = useTranslation('admin');
  const rows = [
    { area: t('dashboard.stock.india'), groups: summary.national, isTotal: true },
    ...summary.states.map((state) => ({ area: state.state, groups: state.groups, isTotal: false })),
  ];
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-sm">
        <caption className="sr-only">
          {t('dashboard.stock.tableCaption', {
            component: t(`dashboard.stock.components.${summary.component}`),
          })}
        </caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pe-3 text-start font-semibold">
              {t('dashboard.stock.area')}
            </th>
            {summary.national.map((group) => (
              <th key={group.bloodType} scope="col" className="px-2 py-2 text-end font-semibold">
                {group.bloodType}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.area}
              className={row.isTotal ? 'border-b-2 border-slate-300' : 'border-b border-slate-100'}
            >
              <th scope="row" className="py-2 pe-3 text-start font-semibold">
                {row.area}
              </th>
              {row.groups.map((group) => (
                <td
                  key={group.bloodType}
                  className={`px-2 py-2 text-end tabular-nums ${group.units === 0 ? 'text-slate-500' : 'text-slate-900'}`}
                >
                  {format.number(group.units)}
                  <span className="block text-xs text-slate-600">
                    {t('dashboard.stock.centres', {
                      count: group.centres,
                      value: format.number(group.centres),
                    })}
                  </span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The centres that stopped updating (3 days silent), to chase by phone or e-mail. */
function QuietCentres({ summary, format }: { summary: StockSummary; format: Format }) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="font-semibold text-slate-900">
        {t('dashboard.stock.quietTitle')}
      </h3>
      <p className="text-sm text-slate-700">{t('dashboard.stock.quietDescription')}</p>
      {summary.quietCentres.length === 0 ? (
        <p className="text-sm text-slate-700">{t('dashboard.stock.quietNone')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {summary.quietCentres.map((centre) => (
            <li
              key={centre.facilityId}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2"
            >
              <span>
                <span className="font-semibold text-slate-900">{centre.name}</span>
                <span className="block text-sm text-slate-700">
                  {centre.district ? `${centre.district}, ${centre.state}` : centre.state}
                </span>
              </span>
              <span className="text-sm text-slate-800">
                {t('dashboard.stock.lastUpdate', {
                  ago: format.relative(centre.updatedAt),
                  date: format.date(centre.updatedAt),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Blood stock for administrators (issue #17): for one component, fresh units per blood group in
 * India and each state (figures older than 24 hours are never counted), the centres that stopped
 * updating, and the table as CSV.
 */
export function StockPanel() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [component, setComponent] = useState<BloodComponent>('prbc');
  const [isDownloading, setIsDownloading] = useState(false);
  const query = useStockSummary(component);
  const summary = query.data;

  const download = async () => {
    setIsDownloading(true);
    try {
      const file = await downloadStockSummary(component);
      const name =
        fileNameFromDisposition(file.headers.get('Content-Disposition')) ??
        `blood-stock-${component}.csv`;
      saveFile(file.blob, name);
      toast.success(t('dashboard.stock.downloaded', { name }));
    } catch (error) {
      toast.error(t('dashboard.stock.downloadFailed'), { message: errorMessage(error) });
    } finally {
      setIsDownloading(false);
    }
  };

  return (
    <AdminSection
      title={t('dashboard.stock.title')}
      description={t('dashboard.stock.description')}
      actions={
        <Button variant="secondary" onClick={() => void download()} isLoading={isDownloading}>
          {t('dashboard.stock.download')}
        </Button>
      }
    >
      <div className="flex flex-col gap-5">
        <div className="max-w-xs">
          <Field label={t('dashboard.stock.component')}>
            <Select
              value={component}
              onChange={(event) => setComponent(event.target.value as BloodComponent)}
            >
              {BLOOD_COMPONENTS.map((value) => (
                <option key={value} value={value}>
                  {t(`dashboard.stock.components.${value}`)}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        {query.isPending ? (
          <Skeleton lines={6} />
        ) : query.isError && !summary ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        ) : summary ? (
          <div
            aria-busy={query.isPlaceholderData || undefined}
            className={`flex flex-col gap-5 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
          >
            <p className="text-slate-800">
              {t('dashboard.stock.reporting', {
                count: summary.reportingCentres,
                fresh: format.number(summary.freshCentres),
                reporting: format.number(summary.reportingCentres),
              })}
            </p>
            <NationalChart groups={summary.national} format={format} />
            <AvailabilityTable summary={summary} format={format} />
            <QuietCentres summary={summary} format={format} />
          </div>
        ) : null}
      </div>
    </AdminSection>
  );
}
