import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BloodRequest, BloodRequestHistoryItem } from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { useToast } from '../../../../components/toast';
import { cn } from '../../../../lib/cn';
import { useUpdateRequestStatus } from '../../api/admin-api';
import { formatPhone, useFormat } from '../../lib/format';
import {
  isClosingTransition,
  requestTransitionsFor,
  type RequestTransition,
} from '../../lib/transitions';
import { useAdminErrorMessage } from '../../lib/use-admin-error';
import { ConfirmDialog } from '../confirm-dialog';
import {
  BloodTypeMark,
  DemoBadge,
  RequestStatusBadge,
  UrgencyBadge,
  useRequestStatusLabel,
} from '../status-badges';

const ACTOR_ROLES = ['guest', 'donor', 'hospital', 'admin', 'system'] as const;

function History({ history }: { history: BloodRequestHistoryItem[] }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const statusLabel = useRequestStatusLabel();
  return (
    <details className="text-sm">
      <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-slate-800 underline">
        {t('requests.history', { count: history.length })}
      </summary>
      <ol className="mt-1 flex flex-col gap-2 border-s-2 border-slate-200 ps-3">
        {[...history].reverse().map((entry, index) => (
          <li key={`${entry.at}-${index}`}>
            <p className="font-medium text-slate-900">
              {statusLabel(entry.status)}
              <span className="font-normal text-slate-700">
                {' · '}
                <time dateTime={entry.at}>{format.dateTime(entry.at)}</time>
                {ACTOR_ROLES.includes(entry.byRole) && ` · ${t(`requests.by.${entry.byRole}`)}`}
              </span>
            </p>
            {entry.notes && <p className="text-slate-800">{entry.notes}</p>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** One blood request, with the changes its status allows (API.md "Blood requests"). */
export function RequestCard({ request }: { request: BloodRequest }) {
  const { t } = useTranslation(['admin', 'requests']);
  const toast = useToast();
  const format = useFormat();
  const describeError = useAdminErrorMessage('request');
  const statusLabel = useRequestStatusLabel();
  const update = useUpdateRequestStatus();
  const [target, setTarget] = useState<RequestTransition | null>(null);
  const transitions = requestTransitionsFor(request.status);
  const isCritical = request.urgency === 'critical';
  const matches = request.matches;
  const headingId = `request-${request.id}`;

  return (
    <li>
      <article
        aria-labelledby={headingId}
        className={cn(
          'flex flex-col gap-3 rounded-xl border bg-white p-4 shadow-sm',
          isCritical ? 'border-primary-200 border-s-4 border-s-primary-700' : 'border-slate-200',
        )}
      >
        <header className="flex flex-wrap items-start justify-between gap-2">
          <div className="flex items-start gap-3">
            <BloodTypeMark bloodType={request.bloodType} className="min-h-10 text-lg" />
            <div>
              <h3 id={headingId} className="font-mono text-lg font-bold text-slate-900">
                <span className="sr-only">{t('requests.trackingCode')}:</span>{' '}
                {request.trackingCode}
              </h3>
              <p className="text-sm text-slate-700">
                {t('requests.units', { count: request.unitsNeeded })}
                {' · '}
                {t('requests.created', { date: format.dateTime(request.createdAt) })}
              </p>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <UrgencyBadge urgency={request.urgency} />
            <RequestStatusBadge status={request.status} />
            {request.isDemo && <DemoBadge />}
          </div>
        </header>

        {request.contactPhoneConfirmed === false && (
          // Issue #32 item 9: no code reached the number; the verifier checks it by a call.
          <Alert
            variant="warning"
            dismissible={false}
            title={t('requests:phoneNotConfirmed.title')}
            message={t('requests:phoneNotConfirmed.body')}
          />
        )}

        <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-700">{t('requests.hospital')}</dt>
            <dd className="font-medium text-slate-900">{request.hospitalName}</dd>
          </div>
          <div>
            <dt className="text-slate-700">{t('requests.place')}</dt>
            <dd className="font-medium text-slate-900">
              {[request.city, request.state].filter(Boolean).join(', ')}
            </dd>
          </div>
          <div>
            <dt className="text-slate-700">{t('requests.contact')}</dt>
            <dd className="font-medium text-slate-900">
              {request.contactName}
              {request.contactPhone && (
                <>
                  {' · '}
                  <a href={`tel:${request.contactPhone}`} className="text-primary-700 underline">
                    {formatPhone(request.contactPhone)}
                  </a>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-slate-700">{t('requests.requiredBy')}</dt>
            <dd className="font-medium text-slate-900">
              {request.requiredBy
                ? format.dateTime(request.requiredBy)
                : t('requests.asSoonAsPossible')}
            </dd>
          </div>
          {request.patientName && (
            <div>
              <dt className="text-slate-700">{t('requests.patient')}</dt>
              <dd className="font-medium text-slate-900">{request.patientName}</dd>
            </div>
          )}
          <div
            className={
              request.patientName ? 'sm:col-span-1 lg:col-span-3' : 'sm:col-span-2 lg:col-span-4'
            }
          >
            <dt className="text-slate-700">{t('requests.matches')}</dt>
            <dd className="flex flex-wrap gap-x-4 font-medium text-slate-900">
              <span>{t('requests.notified', { value: format.number(matches.notified) })}</span>
              <span>{t('requests.accepted', { value: format.number(matches.accepted) })}</span>
              <span>{t('requests.declined', { value: format.number(matches.declined) })}</span>
            </dd>
          </div>
        </dl>
        {request.notes && (
          <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800">
            <span className="font-semibold">{t('requests.notes')}:</span> {request.notes}
          </p>
        )}

        <div className="flex flex-col gap-3 border-t border-slate-200 pt-3 sm:flex-row sm:items-start sm:justify-between">
          {request.history && request.history.length > 0 ? (
            <History history={request.history} />
          ) : (
            <span className="text-sm text-slate-700">{t('requests.noHistory')}</span>
          )}
          {transitions.length > 0 ? (
            <div
              className="flex flex-wrap gap-2"
              role="group"
              aria-label={t('requests.changeStatus', { code: request.trackingCode })}
            >
              {transitions.map((status) => (
                <Button
                  key={status}
                  variant={
                    isClosingTransition(status)
                      ? 'danger'
                      : status === 'verified'
                        ? 'primary'
                        : 'secondary'
                  }
                  onClick={() => setTarget(status)}
                >
                  {t(`requests.transitions.${status}.button`)}
                </Button>
              ))}
            </div>
          ) : (
            <p className="text-sm text-slate-700">{t('requests.final')}</p>
          )}
        </div>
      </article>
      {target && (
        <ConfirmDialog
          title={t(`requests.transitions.${target}.title`, { code: request.trackingCode })}
          message={t(`requests.transitions.${target}.message`, {
            from: statusLabel(request.status),
          })}
          confirmLabel={t(`requests.transitions.${target}.button`)}
          tone={isClosingTransition(target) ? 'danger' : 'primary'}
          reason={{
            label: t('requests.statusNotes'),
            hint: isClosingTransition(target)
              ? t('requests.statusNotesRequired')
              : t('requests.statusNotesOptional'),
            required: isClosingTransition(target),
          }}
          describeError={describeError}
          onClose={() => setTarget(null)}
          onConfirm={async (notes) => {
            await update.mutateAsync({ requestId: request.id, status: target, notes });
            toast.success(
              t('requests.updated', { code: request.trackingCode, status: statusLabel(target) }),
            );
          }}
        />
      )}
    </li>
  );
}
