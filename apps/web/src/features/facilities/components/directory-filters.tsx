import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BLOOD_COMPONENTS,
  BLOOD_TYPES,
  type BloodComponent,
  type BloodType,
  type FacilityFacets,
} from '@bdms/shared';
import { Button } from '../../../components/button';
import { Field, Select } from '../../../components/field';
import { ChevronDownIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import type { DirectoryChange, DirectoryParams } from '../lib/directory-params';
import { countActiveFilters } from '../lib/directory-params';
import { displayName, formatCount } from '../lib/format';
import { useCategoryName } from './facility-badges';

const SERVICE_KEYS = ['components', 'apheresis', 'open24x7'] as const;

/**
 * State, district (of the chosen state), category and services. Options and counts come from the
 * facets call; while it loads (or if it fails) the selects offer what is already chosen, so the
 * list still works. On a phone the filters fold away behind a button. With inventoryManagement
 * on, "has in stock now" (a blood group and component) turns the list into the centres holding
 * it near the place chosen.
 */
export function DirectoryFilters({
  params,
  facets,
  onChange,
  onClear,
  canFilterStock = false,
}: {
  params: DirectoryParams;
  facets: FacilityFacets | undefined;
  onChange: (change: DirectoryChange) => void;
  onClear: () => void;
  /** The inventoryManagement flag: offers the stock filter. */
  canFilterStock?: boolean;
}) {
  const { t, i18n } = useTranslation('facilities');
  const categoryName = useCategoryName();
  const panelId = useId();
  const active = countActiveFilters(params);
  const [isOpen, setIsOpen] = useState(active > 0);
  const count = (value: number) => formatCount(value, i18n.language);

  const states = facets?.states ?? [];
  const state = states.find((item) => item.name.toLowerCase() === params.state?.toLowerCase());
  const districts = state?.districts ?? [];
  const categories = facets?.categories ?? [];
  // The facets count the whole directory: beside a place or category filter they would mislead.
  const isWholeDirectory = !params.state && !params.category;
  const serviceCounts = {
    components: isWholeDirectory ? facets?.components : undefined,
    apheresis: isWholeDirectory ? facets?.apheresis : undefined,
    open24x7: isWholeDirectory ? facets?.open24x7 : undefined,
  };

  return (
    <div>
      <Button
        variant="secondary"
        className="w-full justify-between lg:hidden"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen((open) => !open)}
      >
        <span>
          {active > 0 ? t('filters.toggleActive', { count: active }) : t('filters.toggle')}
        </span>
        <ChevronDownIcon className={cn('size-5 transition-transform', isOpen && 'rotate-180')} />
      </Button>
      <div
        id={panelId}
        className={cn('mt-3 flex-col gap-4 lg:mt-0 lg:flex', isOpen ? 'flex' : 'hidden')}
      >
        {canFilterStock && (
          <fieldset className="rounded-lg border border-slate-200 p-3">
            <legend className="px-1 font-semibold text-slate-900">{t('stockFilter.title')}</legend>
            <p className="mb-2 text-sm text-slate-700">{t('stockFilter.hint')}</p>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field label={t('stockFilter.bloodType')}>
                <Select
                  value={params.blood ?? ''}
                  onChange={(event) =>
                    onChange({ blood: (event.target.value || undefined) as BloodType | undefined })
                  }
                >
                  <option value="">{t('stockFilter.any')}</option>
                  {BLOOD_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label={t('stockFilter.component')}>
                <Select
                  value={params.component}
                  disabled={!params.blood}
                  onChange={(event) =>
                    onChange({ component: event.target.value as BloodComponent })
                  }
                >
                  {BLOOD_COMPONENTS.map((value) => (
                    <option key={value} value={value}>
                      {t(`stock.components.${value}`)}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
          </fieldset>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label={t('filters.state')}>
            <Select
              value={state?.name ?? params.state ?? ''}
              onChange={(event) => onChange({ state: event.target.value || undefined })}
            >
              <option value="">{t('filters.allStates')}</option>
              {!state && params.state && <option value={params.state}>{params.state}</option>}
              {states.map((item) => (
                <option key={item.name} value={item.name}>
                  {t('filters.option', { name: displayName(item.name), count: count(item.count) })}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('filters.district')}>
            <Select
              value={params.district ?? ''}
              disabled={!params.state}
              onChange={(event) => onChange({ district: event.target.value || undefined })}
            >
              <option value="">
                {params.state ? t('filters.allDistricts') : t('filters.districtHint')}
              </option>
              {params.district &&
                !districts.some(
                  (item) => item.name.toLowerCase() === params.district?.toLowerCase(),
                ) && <option value={params.district}>{displayName(params.district)}</option>}
              {districts.map((item) => (
                <option key={item.name} value={item.name}>
                  {t('filters.option', { name: displayName(item.name), count: count(item.count) })}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('filters.category')}>
            <Select
              value={params.category ?? ''}
              onChange={(event) => onChange({ category: event.target.value || undefined })}
            >
              <option value="">{t('filters.allCategories')}</option>
              {params.category &&
                !categories.some(
                  (item) => item.name.toLowerCase() === params.category?.toLowerCase(),
                ) && <option value={params.category}>{categoryName(params.category)}</option>}
              {categories.map((item) => (
                <option key={item.name} value={item.name}>
                  {t('filters.option', { name: categoryName(item.name), count: count(item.count) })}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <fieldset>
          <legend className="font-semibold text-slate-900">{t('filters.services')}</legend>
          <div className="mt-1 flex flex-wrap gap-x-6">
            {SERVICE_KEYS.map((key) => (
              <label key={key} className="flex min-h-11 cursor-pointer items-center gap-3">
                <input
                  type="checkbox"
                  className="size-5 accent-primary-700"
                  checked={params[key]}
                  onChange={(event) => onChange({ [key]: event.target.checked })}
                />
                <span>
                  {t(`services.${key}Filter`)}
                  {serviceCounts[key] !== undefined && (
                    <span className="text-slate-600"> ({count(serviceCounts[key])})</span>
                  )}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {active > 0 && (
          <Button variant="secondary" className="self-start" onClick={onClear}>
            {t('filters.clear')}
          </Button>
        )}
      </div>
    </div>
  );
}
