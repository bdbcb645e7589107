import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  formatIndianPhone,
  isOpenStatus,
  type BloodRequestPage,
  type MatchResponse,
  type MatchedBloodRequest,
} from '@bdms/shared';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { LoadError, LoadingState } from '../../../components/query-state';
import { api } from '../../../lib/api-client';
import { useErrorMessage } from '../../../lib/use-error-message';

export const matchedRequestsKey = ['blood-requests', 'matched'] as const;

function listMatched(signal: AbortSignal): Promise<BloodRequestPage> {
  return api.get<BloodRequestPage>('/blood-requests', { query: { pageSize: 50 }, signal });
}

function respond(id: string, response: MatchResponse) {
  return api.post<{ request: MatchedBloodRequest }>(`/blood-requests/${id}/respond`, {
    response,
  });
}

/**
 * The donor dashboard's "Requests for you": open requests the donor was matched to, with what
 * they need to decide (never the requester's contact), and "I can donate" / "I can't this time".
 * Accepting reveals the requester's contact and the hospital address.
 */
export default function MatchedRequests() {
  const { t } = useTranslation('requests');
  const headingId = useId();
  const query = useQuery({
    queryKey: matchedRequestsKey,
    queryFn: ({ signal }) => listMatched(signal),
  });
  const items = (query.data?.items ?? []).flatMap((item) =>
    item.view === 'matched' && item.response !== 'declined' && isOpenStatus(item.status)
      ? [item]
      : [],
  );
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('matched.title')}
      </h2>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-5 text-slate-700">
          {t('matched.empty')}
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {items.map((request) => (
            <li key={request.id}>
              <MatchedCard request={request} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MatchedCard({ request: initial }: { request: MatchedBloodRequest }) {
  const { t } = useTranslation('requests');
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const headingId = useId();
  const [request, setRequest] = useState(initial);
  const mutation = useMutation({
    mutationFn: (response: MatchResponse) => respond(request.id, response),
    onSuccess: ({ request: updated }) => {
      if (updated.response === 'declined') {
        queryClient.setQueryData<BloodRequestPage>(matchedRequestsKey, (page) =>
          page ? { ...page, items: page.items.filter((item) => item.id !== updated.id) } : page,
        );
        return;
      }
      setRequest(updated);
    },
  });
  const accepted = request.response === 'accepted';
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-lg font-semibold text-slate-900">
          {t('matched.cardTitle', { bloodType: request.bloodType, count: request.unitsNeeded })}
        </h3>
        <Badge variant={request.urgency === 'critical' ? 'primary' : 'warning'}>
          {t(`urgency.${request.urgency}`)}
        </Badge>
      </div>
      <p className="text-slate-800">
        {request.hospitalName}, {request.city}
        {request.distanceKm !== null &&
          ` · ${t(request.distanceApproximate ? 'matched.distanceApproximate' : 'matched.distance', { km: request.distanceKm })}`}
      </p>
      {mutation.isError && (
        <Alert variant="error" dismissible={false} message={errorMessage(mutation.error)} />
      )}
      {accepted ? (
        <div aria-live="polite" className="flex flex-col gap-1 rounded-lg bg-success-50 p-3">
          <p className="font-semibold text-success-800">{t('matched.thanks')}</p>
          {request.contactName && (
            <p className="text-slate-900">
              {t('matched.callRequester', { name: request.contactName })}{' '}
              {request.contactPhone && (
                <a
                  href={`tel:${request.contactPhone}`}
                  className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline"
                >
                  {formatIndianPhone(request.contactPhone)}
                </a>
              )}
            </p>
          )}
          {request.address && (
            <p className="text-slate-800">{t('matched.address', { address: request.address })}</p>
          )}
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            isLoading={mutation.isPending && mutation.variables === 'accepted'}
            disabled={mutation.isPending}
            onClick={() => mutation.mutate('accepted')}
          >
            {t('matched.accept')}
          </Button>
          <Button
            type="button"
            variant="secondary"
            isLoading={mutation.isPending && mutation.variables === 'declined'}
            disabled={mutation.isPending}
            onClick={() => mutation.mutate('declined')}
          >
            {t('matched.decline')}
          </Button>
        </div>
      )}
    </article>
  );
}
