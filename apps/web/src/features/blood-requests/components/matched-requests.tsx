import { useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
import { Dialog } from '../../../components/dialog';
import { LoadError, LoadingState } from '../../../components/query-state';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/intl';
import { useErrorMessage } from '../../../lib/use-error-message';
import {
  matchedRequestsKey,
  openMatched,
  respondToRequest,
  useMatchedRequests,
} from '../api/matched-requests';

export { matchedRequestsKey } from '../api/matched-requests';

/**
 * A maps search for the request's place: its point when it has one (exact), else the address
 * with the hospital, city and PIN code. Google's "search" URL opens the app on phones.
 */
export function mapsUrl(request: MatchedBloodRequest): string {
  const query =
    request.latitude !== null && request.longitude !== null
      ? `${request.latitude},${request.longitude}`
      : [request.hospitalName, request.address, request.city, request.pincode]
          .filter(Boolean)
          .join(', ');
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/**
 * The donor dashboard's "Requests for you": open requests the donor was matched to (Critical
 * first, then by "needed by"), with what they need to decide (never the requester's contact),
 * and "I can donate" / "I can't this time". Accepting reveals how to get there: the address and
 * a maps link, the notes, the requester's name and phone; an accepted donor can withdraw.
 * `alertedId` (from an alert's link, `/dashboard?request=<id>`) marks, scrolls to and focuses
 * that request, or says politely why it is not here.
 */
export default function MatchedRequests({ alertedId = null }: { alertedId?: string | null }) {
  const { t } = useTranslation('requests');
  const headingId = useId();
  const query = useMatchedRequests();
  const items = openMatched(query.data);
  const [notice, setNotice] = useState<string | null>(null);
  const alerted = alertedId ? items.find((item) => item.id === alertedId) : undefined;
  // Why the alerted request is not listed: closed, or not (or no longer) this donor's to answer.
  const missing =
    alertedId && query.isSuccess && !alerted
      ? query.data.items.some(
          (item) => item.id === alertedId && item.view === 'matched' && !isOpenStatus(item.status),
        )
        ? t('matched.alertedClosed')
        : t('matched.alertedUnavailable')
      : null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('matched.title')}
      </h2>
      <div aria-live="polite">
        {notice && <Alert variant="success" message={notice} onDismiss={() => setNotice(null)} />}
      </div>
      {missing && <Alert variant="info" dismissible={false} message={missing} />}
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
              <MatchedCard
                request={request}
                isAlerted={request.id === alerted?.id}
                onWithdrawn={() => setNotice(t('matched.withdrawn'))}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MatchedCard({
  request: initial,
  isAlerted,
  onWithdrawn,
}: {
  request: MatchedBloodRequest;
  isAlerted: boolean;
  onWithdrawn: () => void;
}) {
  const { t, i18n } = useTranslation('requests');
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const headingId = useId();
  const articleRef = useRef<HTMLElement>(null);
  const [request, setRequest] = useState(initial);
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn: (response: MatchResponse) => respondToRequest(request.id, response),
    onSuccess: ({ request: updated }) => {
      if (updated.response === 'declined' || updated.response === 'withdrawn') {
        setConfirming(false);
        queryClient.setQueryData<BloodRequestPage>(matchedRequestsKey, (page) =>
          page ? { ...page, items: page.items.filter((item) => item.id !== updated.id) } : page,
        );
        if (updated.response === 'withdrawn') onWithdrawn();
        return;
      }
      setRequest(updated);
    },
    onError: () => setConfirming(false),
  });

  // The request an alert opened: brought into view and focused once, so it is read first.
  useEffect(() => {
    if (!isAlerted) return;
    const element = articleRef.current;
    element?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    element?.focus({ preventScroll: true });
  }, [isAlerted]);

  const accepted = request.response === 'accepted';
  return (
    <article
      ref={articleRef}
      aria-labelledby={headingId}
      aria-current={isAlerted ? 'true' : undefined}
      tabIndex={isAlerted ? -1 : undefined}
      className={cn(
        'flex scroll-mt-20 flex-col gap-3 rounded-lg border bg-white p-4 focus:outline-none',
        isAlerted
          ? 'border-primary-600 ring-2 ring-primary-600 focus-visible:ring-4'
          : 'border-slate-300',
      )}
    >
      {isAlerted && (
        <p className="text-sm font-semibold uppercase tracking-wide text-primary-800">
          {t('matched.alertedHeading')}
        </p>
      )}
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
      {request.requiredBy && (
        <p className="font-medium text-slate-900">
          {t('matched.neededBy', { date: formatDateTime(request.requiredBy, i18n.language) })}
        </p>
      )}
      {mutation.isError && (
        <Alert variant="error" dismissible={false} message={errorMessage(mutation.error)} />
      )}
      {accepted ? (
        <div aria-live="polite" className="flex flex-col gap-2 rounded-lg bg-success-50 p-3">
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
            <p className="text-slate-800">
              {t('matched.address', {
                address: [request.address, request.pincode].filter(Boolean).join(' '),
              })}
            </p>
          )}
          <p>
            <a
              href={mapsUrl(request)}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline"
            >
              {t('matched.openMaps', { hospital: request.hospitalName })}
              <span className="sr-only"> {t('matched.newTab')}</span>
            </a>
          </p>
          {request.notes && (
            <p className="whitespace-pre-line text-slate-800">
              {t('matched.notes', { notes: request.notes })}
            </p>
          )}
          <div>
            <Button
              type="button"
              variant="secondary"
              disabled={mutation.isPending}
              onClick={() => setConfirming(true)}
            >
              {t('matched.withdraw')}
            </Button>
          </div>
          <Dialog
            isOpen={confirming}
            onClose={() => setConfirming(false)}
            role="alertdialog"
            title={t('matched.withdrawTitle')}
            description={t('matched.withdrawDescription')}
          >
            <div className="mt-4 flex flex-wrap justify-end gap-2">
              <Button type="button" variant="secondary" onClick={() => setConfirming(false)}>
                {t('matched.withdrawCancel')}
              </Button>
              <Button
                type="button"
                variant="danger"
                isLoading={mutation.isPending}
                onClick={() => mutation.mutate('withdrawn')}
              >
                {t('matched.withdrawConfirm')}
              </Button>
            </div>
          </Dialog>
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
