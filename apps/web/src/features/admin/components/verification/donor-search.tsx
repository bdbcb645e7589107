import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOOD_TYPES, DONOR_STATUSES, type ExportDonors } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { Field, Input, Select } from '../../../../components/field';
import { DONORS_PAGE_SIZE, useDonorList } from '../../api/admin-api';
import type { DonorFilters } from '../../api/types';
import { useFormat } from '../../lib/format';
import { Pagination } from '../../../../components/pagination';
import { AdminSection } from '../section';
import { EmptyState, ErrorState, Skeleton } from '../states';
import { DonorList } from './donor-list';
import { ExportButton } from './export-button';

function isOneOf<T extends string>(values: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (values as readonly string[]).includes(value);
}

/** The filters the export understands, from those on screen. */
export function exportFilters(filters: DonorFilters): ExportDonors {
  return {
    ...(isOneOf(DONOR_STATUSES, filters.status) ? { status: filters.status } : {}),
    ...(isOneOf(BLOOD_TYPES, filters.bloodType) ? { bloodType: filters.bloodType } : {}),
    ...(filters.q ? { q: filters.q } : {}),
  };
}

/** `GET /admin/donors`: every donor, by status, blood type and text; exported as CSV. */
export function DonorSearch({
  filters,
  onFiltersChange,
  selectedId,
  onSelect,
}: {
  filters: DonorFilters;
  onFiltersChange: (filters: DonorFilters) => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [text, setText] = useState(filters.q ?? '');
  const donors = useDonorList(filters);
  const hasFilters = Boolean(filters.q || filters.status || filters.bloodType);

  // Back and Forward change the filters: the box follows.
  useEffect(() => setText(filters.q ?? ''), [filters.q]);

  const change = (next: Partial<DonorFilters>) => onFiltersChange({ ...filters, ...next, page: 1 });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change({ q: text.trim() || undefined });
  };

  return (
    <AdminSection
      title={t('verification.search.title')}
      description={t('verification.search.description')}
      actions={<ExportButton filters={exportFilters(filters)} />}
    >
      <form role="search" onSubmit={submit} className="flex flex-col gap-3">
        <div className="flex items-end gap-2">
          <Field label={t('verification.search.text')} className="flex-1">
            <Input
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder={t('verification.search.textPlaceholder')}
              maxLength={100}
            />
          </Field>
          <Button type="submit">{t('verification.search.submit')}</Button>
        </div>
        <div className="grid grid-cols-2 gap-3">
          <Field label={t('verification.search.status')}>
            <Select
              value={filters.status ?? ''}
              onChange={(event) => change({ status: event.target.value || undefined })}
            >
              <option value="">{t('verification.search.anyStatus')}</option>
              {DONOR_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`donorStatus.${status}`)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('verification.search.bloodType')}>
            <Select
              value={filters.bloodType ?? ''}
              onChange={(event) => change({ bloodType: event.target.value || undefined })}
            >
              <option value="">{t('verification.search.anyBloodType')}</option>
              {BLOOD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        {hasFilters && (
          <div>
            <Button
              variant="ghost"
              onClick={() => {
                setText('');
                onFiltersChange({ page: 1 });
              }}
            >
              {t('verification.search.clear')}
            </Button>
          </div>
        )}
      </form>

      <div className="mt-4" aria-busy={donors.isFetching || undefined}>
        {donors.isPending ? (
          <Skeleton lines={5} />
        ) : donors.isError ? (
          <ErrorState error={donors.error} onRetry={() => void donors.refetch()} />
        ) : donors.data.items.length === 0 ? (
          <EmptyState
            title={
              hasFilters
                ? t('verification.search.noMatchTitle')
                : t('verification.search.emptyTitle')
            }
            message={
              hasFilters
                ? t('verification.search.noMatchMessage')
                : t('verification.search.emptyMessage')
            }
          />
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-700" aria-live="polite">
              {t('verification.search.results', {
                count: donors.data.total,
                value: format.number(donors.data.total),
              })}
            </p>
            <DonorList
              donors={donors.data.items}
              selectedId={selectedId}
              onSelect={onSelect}
              label={t('verification.search.title')}
            />
            <Pagination
              page={donors.data.page}
              pageSize={donors.data.pageSize || DONORS_PAGE_SIZE}
              total={donors.data.total}
              onPageChange={(page) => onFiltersChange({ ...filters, page })}
              isLoading={donors.isFetching}
              label={t('verification.search.pages')}
            />
          </>
        )}
      </div>
    </AdminSection>
  );
}
