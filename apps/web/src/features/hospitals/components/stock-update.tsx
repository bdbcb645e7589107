import { useId, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  BLOOD_COMPONENTS,
  BLOOD_TYPES,
  MAX_STOCK_UNITS,
  type BloodComponent,
  type BloodType,
  type FacilityStock,
  type StockLine,
} from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { LoadError, LoadingState } from '../../../components/query-state';
import { useToast } from '../../../components/toast';
import { isApiError } from '../../../lib/api-client';
import { formatTimeAgo } from '../../../lib/intl';
import { useErrorMessage } from '../../../lib/use-error-message';
import { confirmStock, fetchMyStock, myStockKey, saveStock } from '../api/stock-api';

type Key = `${BloodType}/${BloodComponent}`;
type Figures = Partial<Record<Key, number>>;

const keyOf = (bloodType: BloodType, component: BloodComponent): Key => `${bloodType}/${component}`;

function figuresOf(stock: FacilityStock): Figures {
  const figures: Figures = {};
  for (const item of stock.items) figures[keyOf(item.bloodType, item.component)] = item.units;
  return figures;
}

/** − and + around the figure, big enough for a thumb; the figure can be typed too. */
function Stepper({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
}) {
  const { t } = useTranslation('hospital');
  const id = useId();
  const set = (next: number) => onChange(Math.max(0, Math.min(MAX_STOCK_UNITS, next)));
  return (
    <div className="flex items-center justify-between gap-3 border-b border-slate-200 py-2">
      <label htmlFor={id} className="w-12 text-lg font-semibold text-slate-900">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className="h-12 w-12 rounded-lg border border-slate-400 text-2xl font-semibold text-slate-900 hover:bg-slate-100 disabled:opacity-40"
          aria-label={t('stock.decrease', { bloodType: label })}
          disabled={value <= 0}
          onClick={() => set(value - 1)}
        >
          −
        </button>
        <input
          id={id}
          inputMode="numeric"
          pattern="[0-9]*"
          className="h-12 w-16 rounded-lg border border-slate-400 text-center text-lg tabular-nums"
          value={String(value)}
          onChange={(event) => {
            const digits = event.target.value.replace(/\D/g, '');
            set(digits === '' ? 0 : Number(digits));
          }}
        />
        <button
          type="button"
          className="h-12 w-12 rounded-lg border border-slate-400 text-2xl font-semibold text-slate-900 hover:bg-slate-100"
          aria-label={t('stock.increase', { bloodType: label })}
          onClick={() => set(value + 1)}
        >
          +
        </button>
      </div>
    </div>
  );
}

/**
 * /hospital/stock: the blood-bank desk's one screen. A component at a time (tabs), a stepper per
 * blood group; "Save" sends every figure, "Nothing changed" confirms them all in one tap.
 */
export function StockUpdate() {
  const { t, i18n } = useTranslation(['hospital', 'facilities']);
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [component, setComponent] = useState<BloodComponent>('prbc');
  const [edits, setEdits] = useState<Figures>({});
  const query = useQuery({ queryKey: myStockKey, queryFn: ({ signal }) => fetchMyStock(signal) });
  const saved = useMemo(() => (query.data ? figuresOf(query.data.stock) : {}), [query.data]);
  const valueOf = (key: Key) => edits[key] ?? saved[key] ?? 0;
  const changed = (Object.keys(edits) as Key[]).filter((key) => edits[key] !== (saved[key] ?? 0));

  const onDone = (stock: FacilityStock, message: string) => {
    queryClient.setQueryData(myStockKey, { ...query.data!, stock });
    // The public views of the stock (the reply already holds this screen's figures).
    void queryClient.invalidateQueries({ queryKey: ['stock', 'facility'] });
    void queryClient.invalidateQueries({ queryKey: ['stock', 'availability'] });
    setEdits({});
    toast.success(message);
  };
  const save = useMutation({
    mutationFn: () => {
      const lines: StockLine[] = BLOOD_COMPONENTS.flatMap((c) =>
        BLOOD_TYPES.map((bloodType) => ({
          bloodType,
          component: c,
          units: valueOf(keyOf(bloodType, c)),
        })),
      );
      return saveStock(query.data!.facility.id, lines);
    },
    onSuccess: (stock) => onDone(stock, t('hospital:stock.saved')),
  });
  const confirm = useMutation({
    mutationFn: () => confirmStock(query.data!.facility.id),
    onSuccess: (stock) => onDone(stock, t('hospital:stock.confirmed')),
  });

  if (query.isPending) return <LoadingState />;
  if (query.error) {
    if (isApiError(query.error) && query.error.status === 403)
      return <Alert variant="info" dismissible={false} message={t('hospital:stock.notLinked')} />;
    return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  }
  const { facility, stock, canUpdate } = query.data;
  if (!canUpdate)
    return <Alert variant="info" dismissible={false} message={t('hospital:stock.pending')} />;
  const hasStock = stock.items.length > 0;
  const failure = save.error ?? confirm.error;

  return (
    <div className="mt-4 flex max-w-md flex-col gap-4">
      <p className="text-lg font-semibold text-slate-900">{facility.name}</p>
      <p className="flex flex-wrap items-center gap-2 text-slate-800">
        {stock.updatedAt
          ? t('hospital:stock.lastUpdated', { ago: formatTimeAgo(stock.updatedAt, i18n.language) })
          : t('hospital:stock.neverUpdated')}
        {stock.updatedAt && stock.stale && (
          <Badge variant="warning">{t('facilities:stock.staleBadge')}</Badge>
        )}
      </p>
      {hasStock && (
        <Button
          size="lg"
          variant="secondary"
          disabled={confirm.isPending || changed.length > 0}
          onClick={() => confirm.mutate()}
        >
          {t('hospital:stock.nothingChanged')}
        </Button>
      )}
      <div
        role="tablist"
        aria-label={t('facilities:stock.finder.component')}
        className="flex flex-wrap gap-2"
      >
        {BLOOD_COMPONENTS.map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={component === value}
            className={`min-h-11 rounded-full px-3 text-sm font-semibold ring-1 ${
              component === value
                ? 'bg-primary-700 text-white ring-primary-700'
                : 'bg-white text-slate-900 ring-slate-400'
            }`}
            onClick={() => setComponent(value)}
          >
            {t(`facilities:stock.components.${value}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={t(`facilities:stock.components.${component}`)}>
        {BLOOD_TYPES.map((bloodType) => {
          const key = keyOf(bloodType, component);
          return (
            <Stepper
              key={key}
              label={bloodType}
              value={valueOf(key)}
              onChange={(value) => setEdits((current) => ({ ...current, [key]: value }))}
            />
          );
        })}
      </div>
      {failure && <Alert variant="error" message={errorMessage(failure)} />}
      <Button
        size="lg"
        disabled={save.isPending || (hasStock && changed.length === 0)}
        onClick={() => save.mutate()}
      >
        {changed.length > 0
          ? t('hospital:stock.saveChanges', { count: changed.length })
          : t('hospital:stock.save')}
      </Button>
      <p className="text-sm text-slate-700">{t('hospital:stock.hint')}</p>
    </div>
  );
}
