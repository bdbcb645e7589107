import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isOpenStatus, type BloodRequestStatus, type BloodRequestTracking } from '@bdms/shared';
import { Badge, type BadgeVariant } from '../../../components/badge';
import { Button } from '../../../components/button';
import { LoadError, LoadingState } from '../../../components/query-state';
import { isApiError } from '../../../lib/api-client';
import { useFormatDate } from '../../../lib/dates';
import { trackBloodRequest, trackingQueryKey } from '../api/requests-api';
import { ShareOnWhatsApp } from './share-on-whatsapp';
import { TrackingConfirm } from './tracking-confirm';

/** While the page is visible, the tracking page asks again this often. */
export const TRACKING_REFRESH_MS = 30_000;

export const STATUS_BADGE: Record<BloodRequestStatus, BadgeVariant> = {
  unconfirmed: 'warning',
  pending: 'warning',
  verified: 'info',
  in_progress: 'info',
  fulfilled: 'success',
  cancelled: 'neutral',
  expired: 'neutral',
};

/**
 * A request's progress for anyone with its tracking code (`GET /blood-requests/track/{code}`): no
 * personal data, only counts and the first names of donors on their way. Refreshes every 30 s
 * while the page is visible.
 */
export function TrackingView({
  code,
  onNotFound,
}: {
  code: string;
  /** Shown under "Request not found": a field to type the code again (issue #18). */
  onNotFound?: ReactNode;
}) {
  const { t } = useTranslation('requests');
  const query = useQuery({
    queryKey: trackingQueryKey(code),
    queryFn: ({ signal }) => trackBloodRequest(code, signal),
    refetchInterval: TRACKING_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: 0,
  });

  if (query.isPending) return <LoadingState label={t('tracking.loading')} />;
  if (query.isError) {
    if (isApiError(query.error) && (query.error.status === 404 || query.error.status === 400)) {
      return (
        <section className="rounded-lg border border-slate-300 p-5" aria-live="polite">
          <h2 className="text-xl font-semibold text-slate-900">{t('tracking.notFoundTitle')}</h2>
          <p className="mt-2 text-slate-800">{t('tracking.notFound', { code })}</p>
          {onNotFound && <div className="mt-4">{onNotFound}</div>}
        </section>
      );
    }
    return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <TrackingDetails tracking={query.data} />;
}

function TrackingDetails({ tracking }: { tracking: BloodRequestTracking }) {
  const { t } = useTranslation('requests');
  const formatDate = useFormatDate();
  const donors = tracking.donorsOnTheirWay.map((donor) => donor.firstName);
  const rows: [string, string][] = [
    [t('fields.bloodType'), tracking.bloodType],
    [t('fields.units'), String(tracking.unitsNeeded)],
    [t('fields.urgency'), t(`urgency.${tracking.urgency}`)],
    [t('fields.hospital'), tracking.hospitalName],
    [t('fields.city'), tracking.city],
    [t('tracking.created'), formatDate(tracking.createdAt, 'medium', true)],
  ];
  return (
    <section className="flex flex-col gap-5" aria-labelledby="tracking-heading">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="tracking-heading" className="text-2xl font-bold text-slate-900">
          {t(`status.${tracking.status}`)}
        </h2>
        <Badge variant={STATUS_BADGE[tracking.status]}>{tracking.trackingCode}</Badge>
      </div>
      <p className="text-slate-800">{t(`statusHint.${tracking.status}`)}</p>
      {tracking.status === 'unconfirmed' && <TrackingConfirm tracking={tracking} />}

      <div aria-live="polite" className="flex flex-col gap-2 rounded-lg bg-slate-50 p-4">
        {tracking.searchRadiusKm !== null && (
          <p className="text-slate-900">{t('tracking.radius', { km: tracking.searchRadiusKm })}</p>
        )}
        <p className="text-slate-900">
          {t('tracking.counts', {
            notified: tracking.matches.notified,
            accepted: tracking.matches.accepted,
          })}
        </p>
        {donors.length > 0 && (
          <p className="font-semibold text-success-800">
            {t('tracking.onTheirWay', { count: donors.length, names: donors.join(', ') })}
          </p>
        )}
      </div>

      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {isOpenStatus(tracking.status) && (
        <div className="flex flex-col gap-2 rounded-lg border border-slate-300 p-4">
          <p className="text-slate-800">{t('share.intro')}</p>
          <ShareOnWhatsApp tracking={tracking} />
        </div>
      )}
      <CopyCode code={tracking.trackingCode} />
    </section>
  );
}

function CopyCode({ code }: { code: string }) {
  const { t } = useTranslation('requests');
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-slate-300 p-4">
      <p className="text-slate-800">{t('tracking.keepCode')}</p>
      <p className="font-mono text-2xl font-bold tracking-widest text-slate-900">{code}</p>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="secondary" onClick={copy}>
          {t('tracking.copy')}
        </Button>
        <span aria-live="polite" className="text-sm text-success-800">
          {copied ? t('tracking.copied') : ''}
        </span>
      </div>
    </div>
  );
}
