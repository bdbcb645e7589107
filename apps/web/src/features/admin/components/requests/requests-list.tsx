import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LISTED_BLOOD_REQUEST_STATUSES,
  BLOOD_TYPES,
  URGENCIES,
  type BloodRequest,
} from '@bdms/shared';
import { Button } from '../../../../components/button';
import { Field, Input, Select } from '../../../../components/field';
import { isApiError } from '../../../../lib/api-client';
import { REQUESTS_PAGE_SIZE, useBloodRequests } from '../../api/admin-api';
import type { BloodRequestFilters } from '../../api/types';
import { useFormat } from '../../lib/format';
import { Pagination } from '../../../../components/pagination';
import { AdminSection } from '../section';
import { EmptyState, ErrorState, Skeleton } from '../states';
import { useRequestStatusLabel } from '../status-badges';
import { RequestCard } from './request-card';

/** `GET /blood-requests` (an administrator sees all), filtered and a page at a time. */
export function RequestsList({
  filters,
  onFiltersChange,
}: {
  filters: BloodRequestFilters;
  onFiltersChange: (filters: BloodRequestFilters) => void;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const statusLabel = useRequestStatusLabel();
  const [city, setCity] = useState(filters.city ?? '');
  const requests = useBloodRequests(filters);
  const hasFilters = Boolean(
    filters.status || filters.urgency || filters.bloodType || filters.city,
  );

  useEffect(() => setCity(filters.city ?? ''), [filters.city]);

  const change = (next: Partial<BloodRequestFilters>) =>
    onFiltersChange({ ...filters, ...next, page: 1 });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change({ city: city.trim() || undefined });
  };

  // No such route: the blood request service is not on this server (yet).
  const isUnavailable = isApiError(requests.error) && requests.error.status === 404;

  return (
    <div className="flex flex-col gap-4">
      <AdminSection title={t('requests.filters.title')}>
        <form role="search" onSubmit={submit} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Field label={t('requests.filters.status')}>
            <Select
              value={filters.status ?? ''}
              onChange={(event) => change({ status: event.target.value || undefined })}
            >
              <option value="">{t('requests.filters.anyStatus')}</option>
              {LISTED_BLOOD_REQUEST_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {statusLabel(status)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('requests.filters.urgency')}>
            <Select
              value={filters.urgency ?? ''}
              onChange={(event) => change({ urgency: event.target.value || undefined })}
            >
              <option value="">{t('requests.filters.anyUrgency')}</option>
              {URGENCIES.map((urgency) => (
                <option key={urgency} value={urgency}>
                  {t(`urgency.${urgency}`)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('requests.filters.bloodType')}>
            <Select
              value={filters.bloodType ?? ''}
              onChange={(event) => change({ bloodType: event.target.value || undefined })}
            >
              <option value="">{t('requests.filters.anyBloodType')}</option>
              {BLOOD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Select>
          </Field>
          <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
            <Field label={t('requests.filters.city')} className="flex-1">
              <Input
                type="search"
                value={city}
                maxLength={80}
                onChange={(event) => setCity(event.target.value)}
              />
            </Field>
            <Button type="submit">{t('requests.filters.apply')}</Button>
          </div>
          {hasFilters && (
            <div className="col-span-2 lg:col-span-4">
              <Button
                variant="ghost"
                onClick={() => {
                  setCity('');
                  onFiltersChange({ page: 1 });
                }}
              >
                {t('requests.filters.clear')}
              </Button>
            </div>
          )}
        </form>
      </AdminSection>

      <section
        aria-labelledby="requests-results-heading"
        aria-busy={requests.isFetching || undefined}
      >
        <h2 id="requests-results-heading" className="sr-only">
          {t('requests.resultsHeading')}
        </h2>
        {requests.isPending ? (
          <div className="rounded-xl border border-slate-200 bg-white p-5">
            <Skeleton lines={8} />
          </div>
        ) : isUnavailable ? (
          <EmptyState
            title={t('requests.unavailableTitle')}
            message={t('requests.unavailableMessage')}
            className="bg-white py-12"
          />
        ) : requests.isError ? (
          <ErrorState error={requests.error} onRetry={() => void requests.refetch()} />
        ) : requests.data.items.length === 0 ? (
          <EmptyState
            title={hasFilters ? t('requests.noMatchTitle') : t('requests.emptyTitle')}
            message={hasFilters ? t('requests.noMatchMessage') : t('requests.emptyMessage')}
            className="bg-white py-12"
          />
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-700" aria-live="polite">
              {t('requests.results', {
                count: requests.data.total,
                value: format.number(requests.data.total),
              })}
            </p>
            <ul className="flex flex-col gap-3">
              {requests.data.items
                // An administrator gets every request in full; a matched donor's view has no contact.
                .filter(
                  (request): request is BloodRequest & { view: 'full' } =>
                    request.view !== 'matched',
                )
                .map((request) => (
                  <RequestCard key={request.id} request={request} />
                ))}
            </ul>
            <Pagination
              page={requests.data.page}
              pageSize={requests.data.pageSize || REQUESTS_PAGE_SIZE}
              total={requests.data.total}
              onPageChange={(page) => onFiltersChange({ ...filters, page })}
              isLoading={requests.isFetching}
              label={t('requests.pages')}
            />
          </>
        )}
      </section>
    </div>
  );
}
