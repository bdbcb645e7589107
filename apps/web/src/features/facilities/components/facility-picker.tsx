import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Facility } from '@bdms/shared';
import { Field, Input } from '../../../components/field';
import { Spinner } from '../../../components/spinner';
import { useFacilitySearch } from '../api/facilities-api';
import { useDebouncedValue } from '../hooks/use-debounced-value';

const NO_FILTERS = {};
const MIN_QUERY = 2;
const SHOWN = 8;

export interface FacilityPickerProps {
  label: string;
  hint?: string;
  error?: string | undefined;
  /** The chosen entry; null until one is chosen. */
  value: Facility | null;
  onChange: (facility: Facility | null) => void;
  isRequired?: boolean;
}

/**
 * A combobox over the public directory search (`GET /public/facilities/search`): type a name,
 * city or district, choose an entry. Only a chosen entry is a value: text typed alone never is,
 * so nobody pastes an id from a page address (WAI-ARIA combobox pattern, list autocomplete).
 */
export function FacilityPicker({
  label,
  hint,
  error,
  value,
  onChange,
  isRequired,
}: FacilityPickerProps) {
  const { t } = useTranslation('facilities');
  const id = useId();
  const listId = `${id}-options`;
  const [query, setQuery] = useState('');
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const debounced = useDebouncedValue(query.trim(), 250);
  const isSearching = debounced.length >= MIN_QUERY && value === null;
  const search = useFacilitySearch(debounced, NO_FILTERS, isSearching);
  const items = isSearching ? (search.data?.items ?? []).slice(0, SHOWN) : [];

  function choose(facility: Facility) {
    onChange(facility);
    setQuery('');
    setIsOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && items.length > 0) {
      event.preventDefault();
      setIsOpen(true);
      setActive((current) => (current + 1) % items.length);
    } else if (event.key === 'ArrowUp' && items.length > 0) {
      event.preventDefault();
      setActive((current) => (current <= 0 ? items.length - 1 : current - 1));
    } else if (event.key === 'Enter' && isOpen && active >= 0 && items[active]) {
      event.preventDefault();
      choose(items[active]);
    } else if (event.key === 'Escape') {
      setIsOpen(false);
    }
  }

  if (value) {
    return (
      <Field label={label} hint={hint} error={error} isRequired={isRequired}>
        <div className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <p className="font-semibold text-slate-900">{value.name}</p>
            <p className="text-sm text-slate-700">
              {[value.address, value.city, value.district, value.state].filter(Boolean).join(', ')}
            </p>
          </div>
          <button
            type="button"
            className="min-h-11 shrink-0 font-semibold text-primary-700 underline"
            onClick={() => onChange(null)}
          >
            {t('picker.change')}
            <span className="sr-only">: {value.name}</span>
          </button>
        </div>
      </Field>
    );
  }

  const isExpanded = isOpen && items.length > 0;
  return (
    <Field id={id} label={label} hint={hint} error={error} isRequired={isRequired}>
      <Input
        role="combobox"
        type="search"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={isExpanded}
        aria-controls={listId}
        aria-activedescendant={isExpanded && active >= 0 ? `${listId}-${active}` : undefined}
        value={query}
        placeholder={t('picker.placeholder')}
        onChange={(event) => {
          setQuery(event.target.value);
          setIsOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
      />
      <div aria-live="polite" className="text-sm text-slate-600">
        {isSearching && search.isFetching ? (
          <span className="inline-flex items-center gap-2">
            <Spinner className="size-4" />
            {t('picker.searching')}
          </span>
        ) : isSearching && search.isSuccess && items.length === 0 ? (
          t('picker.noResults')
        ) : query.trim().length > 0 && query.trim().length < MIN_QUERY ? (
          t('picker.typeMore')
        ) : null}
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!isExpanded}
        className="max-h-72 overflow-auto rounded-md border border-slate-300 bg-white shadow"
      >
        {items.map((facility, index) => (
          <li
            key={facility.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`cursor-pointer px-3 py-2 ${index === active ? 'bg-primary-50' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(facility)}
          >
            <span className="block font-semibold text-slate-900">{facility.name}</span>
            <span className="block text-sm text-slate-700">
              {[facility.city ?? facility.district, facility.state].filter(Boolean).join(', ')}
            </span>
            {/* Entries of one name (a chain's centres in one city) differ by their address. */}
            {facility.address && (
              <span className="block text-sm text-slate-600">{facility.address}</span>
            )}
          </li>
        ))}
      </ul>
    </Field>
  );
}
