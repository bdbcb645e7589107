import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  formatIndianPhone,
  LISTED_BLOOD_REQUEST_STATUSES,
  canTransition,
  type AcceptedDonor,
  type BloodRequest,
  type BloodRequestStatus,
} from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Field, Input, Select, Textarea } from '../../../components/field';
import { Pagination } from '../../../components/pagination';
import { LoadError, LoadingState } from '../../../components/query-state';
import { useToast } from '../../../components/toast';
import { localIsoDate, useFormatDate } from '../../../lib/dates';
import { useErrorMessage } from '../../../lib/use-error-message';
import { RequestForm } from '../../blood-requests/components/request-form';
import { STATUS_BADGE } from '../../blood-requests/components/tracking-view';
import {
  hospitalRequestsKey,
  listAcceptedDonors,
  listHospitalRequests,
  recordDonation,
  updateRequestStatus,
} from '../api/hospital-api';

type Filter = BloodRequestStatus | 'all';

/**
 * /hospital/dashboard: the requests naming the hospital or made by it, with what the hospital
 * does about them: verify or cancel a pending one, call the donors who accepted, record their
 * donations, mark the request fulfilled, and make a new request.
 */
export function HospitalDashboard() {
  const { t } = useTranslation(['hospital', 'requests']);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const [isCreating, setIsCreating] = useState(false);
  const filterId = useId();
  const status = filter === 'all' ? undefined : filter;
  const query = useQuery({
    queryKey: [...hospitalRequestsKey, status ?? 'all', page],
    queryFn: ({ signal }) => listHospitalRequests(status, page, signal),
  });
  const requests = (query.data?.items ?? []).flatMap((item) =>
    item.view === 'full' ? [item] : [],
  );

  return (
    <div className="mt-6 flex flex-col gap-6">
      <div className="flex flex-wrap items-end gap-4">
        <div className="min-w-48">
          <label htmlFor={filterId} className="block font-medium text-slate-900">
            {t('hospital:filter.label')}
          </label>
          <Select
            id={filterId}
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value as Filter);
              setPage(1);
            }}
          >
            <option value="all">{t('hospital:filter.all')}</option>
            {LISTED_BLOOD_REQUEST_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`requests:status.${value}`)}
              </option>
            ))}
          </Select>
        </div>
        <Button type="button" onClick={() => setIsCreating((value) => !value)}>
          {isCreating ? t('hospital:create.close') : t('hospital:create.open')}
        </Button>
      </div>

      {isCreating && (
        <section className="rounded-lg border border-slate-300 p-4">
          <h2 className="mb-4 text-xl font-semibold text-slate-900">
            {t('hospital:create.title')}
          </h2>
          <RequestForm
            submitLabel={t('hospital:create.submit')}
            onCreated={() => {
              setIsCreating(false);
              toast.success(t('hospital:create.done'));
              void queryClient.invalidateQueries({ queryKey: hospitalRequestsKey });
            }}
          />
        </section>
      )}

      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : requests.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">
            {filter === 'all' ? t('hospital:empty.title') : t('hospital:empty.filteredTitle')}
          </h2>
          <p className="mt-2 text-slate-700">{t('hospital:empty.message')}</p>
        </div>
      ) : (
        <ul className="flex flex-col gap-4">
          {requests.map((request) => (
            <li key={request.id}>
              <RequestCard request={request} />
            </li>
          ))}
        </ul>
      )}
      {query.data && (
        <Pagination
          page={query.data.page}
          pageSize={query.data.pageSize}
          total={query.data.total}
          onPageChange={setPage}
          label={t('hospital:pages')}
          isLoading={query.isFetching}
        />
      )}
    </div>
  );
}

function RequestCard({ request }: { request: BloodRequest }) {
  const { t } = useTranslation(['hospital', 'requests']);
  const formatDate = useFormatDate();
  const [change, setChange] = useState<StatusChange | null>(null);
  const [showDonors, setShowDonors] = useState(request.matches.accepted > 0);
  const headingId = useId();
  const isPending = request.status === 'pending';
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {t('hospital:card.title', {
            bloodType: request.bloodType,
            count: request.unitsNeeded,
          })}
        </h2>
        <Badge variant={STATUS_BADGE[request.status]}>
          {t(`requests:status.${request.status}`)}
        </Badge>
        <Badge variant={request.urgency === 'critical' ? 'primary' : 'warning'}>
          {t(`requests:urgency.${request.urgency}`)}
        </Badge>
      </div>
      <p className="text-slate-800">
        {request.hospitalName}, {request.city} · {request.trackingCode} ·{' '}
        {formatDate(request.createdAt, 'medium', true)}
      </p>
      {request.contactPhoneConfirmed === false && (
        // Issue #32 item 9: no code reached the number; the verifier checks it by a call.
        <Alert
          variant="warning"
          dismissible={false}
          title={t('requests:phoneNotConfirmed.title')}
          message={t('requests:phoneNotConfirmed.body')}
        />
      )}
      {/* The contact is gone once the requester erased their account. */}
      {(request.contactName || request.contactPhone) && (
        <p className="text-slate-800">
          {request.contactName && t('hospital:card.contact', { name: request.contactName })}{' '}
          {request.contactPhone && (
            <a
              className="font-semibold text-primary-700 underline"
              href={`tel:${request.contactPhone}`}
            >
              {formatIndianPhone(request.contactPhone)}
            </a>
          )}
        </p>
      )}
      <p className="text-slate-700">
        {t('requests:tracking.counts', {
          notified: request.matches.notified,
          accepted: request.matches.accepted,
        })}
      </p>
      {request.notes && <p className="text-slate-700">{request.notes}</p>}
      <div className="flex flex-wrap gap-2">
        {isPending && (
          <>
            <Button type="button" onClick={() => setChange('verified')}>
              {t('hospital:status.verify')}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setChange('cancelled')}>
              {t('hospital:status.cancel')}
            </Button>
          </>
        )}
        {canTransition(request.status, 'fulfilled') && (
          // Asks first: a request marked fulfilled stops being open for good (issue #18).
          <Button type="button" variant="secondary" onClick={() => setChange('fulfilled')}>
            {t('hospital:status.fulfil')}
          </Button>
        )}
        {!isPending && (
          <Button
            type="button"
            variant="ghost"
            aria-expanded={showDonors}
            onClick={() => setShowDonors((value) => !value)}
          >
            {showDonors ? t('hospital:donors.hide') : t('hospital:donors.show')}
          </Button>
        )}
      </div>
      {showDonors && !isPending && <AcceptedDonors request={request} />}
      <StatusDialog request={request} change={change} onClose={() => setChange(null)} />
    </article>
  );
}

type StatusChange = 'verified' | 'cancelled' | 'fulfilled';

const STATUS_TEXTS = {
  verified: {
    title: 'status.verifyTitle',
    text: 'status.verifyText',
    confirm: 'status.verifyConfirm',
    done: 'status.verifiedDone',
  },
  cancelled: {
    title: 'status.cancelTitle',
    text: 'status.cancelText',
    confirm: 'status.cancelConfirm',
    done: 'status.cancelledDone',
  },
  fulfilled: {
    title: 'status.fulfilTitle',
    text: 'status.fulfilText',
    confirm: 'status.fulfilConfirm',
    done: 'status.fulfilledDone',
  },
} as const;

function StatusDialog({
  request,
  change,
  onClose,
}: {
  request: BloodRequest;
  change: StatusChange | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('hospital');
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [notes, setNotes] = useState('');
  const mutation = useMutation({
    mutationFn: (status: StatusChange) =>
      updateRequestStatus(request.id, status, notes.trim() || undefined),
    onSuccess: (_, status) => {
      toast.success(t(STATUS_TEXTS[status].done));
      setNotes('');
      onClose();
      void queryClient.invalidateQueries({ queryKey: hospitalRequestsKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change) mutation.mutate(change);
  };
  return (
    <Dialog
      isOpen={change !== null}
      onClose={onClose}
      role={change === 'verified' ? 'dialog' : 'alertdialog'}
      title={t(STATUS_TEXTS[change ?? 'verified'].title)}
      description={t(STATUS_TEXTS[change ?? 'verified'].text)}
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        {mutation.isError && (
          <Alert variant="error" dismissible={false} message={errorMessage(mutation.error)} />
        )}
        <Field label={t('status.notes')}>
          <Textarea maxLength={1000} value={notes} onChange={(e) => setNotes(e.target.value)} />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            variant={change === 'cancelled' ? 'danger' : 'primary'}
            isLoading={mutation.isPending}
          >
            {t(STATUS_TEXTS[change ?? 'verified'].confirm)}
          </Button>
          <Button type="button" variant="secondary" onClick={onClose}>
            {t('status.back')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function AcceptedDonors({ request }: { request: BloodRequest }) {
  const { t } = useTranslation('hospital');
  const query = useQuery({
    queryKey: [...hospitalRequestsKey, 'donors', request.id],
    queryFn: ({ signal }) => listAcceptedDonors(request.id, signal),
  });
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.items.length === 0) {
    return <p className="rounded-lg bg-slate-50 p-3 text-slate-700">{t('donors.none')}</p>;
  }
  return (
    <section className="flex flex-col gap-2" aria-label={t('donors.title')}>
      <h3 className="font-semibold text-slate-900">{t('donors.title')}</h3>
      <ul className="flex flex-col gap-2">
        {query.data.items.map((donor) => (
          <li key={donor.donorId}>
            <DonorRow donor={donor} request={request} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function DonorRow({ donor, request }: { donor: AcceptedDonor; request: BloodRequest }) {
  const { t } = useTranslation('hospital');
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [isRecording, setIsRecording] = useState(false);
  const [date, setDate] = useState(localIsoDate());
  const [units, setUnits] = useState('1');
  const mutation = useMutation({
    mutationFn: () =>
      recordDonation({
        donorId: donor.donorId,
        donatedAt: date,
        units: Number(units),
        requestId: request.id,
      }),
    onSuccess: () => {
      setIsRecording(false);
      toast.success(t('donors.recorded', { name: donor.name }));
      void queryClient.invalidateQueries({ queryKey: hospitalRequestsKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <div className="flex flex-col gap-2 rounded-lg bg-slate-50 p-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-semibold text-slate-900">{donor.name}</span>
        {donor.bloodType && <Badge>{donor.bloodType}</Badge>}
        {donor.phone && (
          <a
            className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline"
            href={`tel:${donor.phone}`}
          >
            {formatIndianPhone(donor.phone)}
          </a>
        )}
        {donor.distanceKm !== null && (
          <span className="text-slate-700">{t('donors.distance', { km: donor.distanceKm })}</span>
        )}
        {donor.donated ? (
          <Badge variant="success">{t('donors.donated')}</Badge>
        ) : (
          !isRecording && (
            <Button type="button" variant="secondary" onClick={() => setIsRecording(true)}>
              {t('donors.record')}
            </Button>
          )
        )}
      </div>
      {isRecording && (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
          {mutation.isError && (
            <Alert
              className="w-full"
              variant="error"
              dismissible={false}
              message={errorMessage(mutation.error)}
            />
          )}
          <Field label={t('donors.date')} isRequired>
            <Input
              type="date"
              max={localIsoDate()}
              value={date}
              onChange={(e) => setDate(e.target.value)}
            />
          </Field>
          <Field label={t('donors.units')} isRequired>
            <Select value={units} onChange={(e) => setUnits(e.target.value)}>
              <option value="1">1</option>
              <option value="2">2</option>
            </Select>
          </Field>
          <Button type="submit" isLoading={mutation.isPending}>
            {t('donors.save', { name: donor.name })}
          </Button>
          <Button type="button" variant="ghost" onClick={() => setIsRecording(false)}>
            {t('status.back')}
          </Button>
        </form>
      )}
    </div>
  );
}
