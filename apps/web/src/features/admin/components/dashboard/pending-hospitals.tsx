import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HospitalAccount } from '@bdms/shared';
import { Badge } from '../../../../components/badge';
import { Button } from '../../../../components/button';
import { Pagination } from '../../../../components/pagination';
import { useToast } from '../../../../components/toast';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { HOSPITALS_PAGE_SIZE, useDecideHospital, usePendingHospitals } from '../../api/admin-api';
import { formatPhone, useFormat } from '../../lib/format';
import { ConfirmDialog } from '../confirm-dialog';
import { ErrorState, Skeleton } from '../states';

function Confirmed({ isConfirmed, label }: { isConfirmed: boolean; label: string }) {
  const { t } = useTranslation('admin');
  return (
    <Badge variant={isConfirmed ? 'success' : 'warning'}>
      {label}:{' '}
      {isConfirmed
        ? t('dashboard.hospitals.pending.confirmed')
        : t('dashboard.hospitals.pending.unconfirmed')}
    </Badge>
  );
}

/** One line of a definition list; an empty value reads "not in the directory". */
function Line({ term, value }: { term: string; value: string | null | undefined }) {
  const { t } = useTranslation('admin');
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2">
      <dt className="text-slate-600">{term}</dt>
      <dd className="break-words text-slate-900">
        {value || <span className="text-slate-500">{t('dashboard.hospitals.pending.none')}</span>}
      </dd>
    </div>
  );
}

function PendingRow({
  hospital,
  onDecide,
}: {
  hospital: HospitalAccount;
  onDecide: (hospital: HospitalAccount, decision: 'verify' | 'reject') => void;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const entry = hospital.directoryEntry;
  const isLicenceMatch =
    Boolean(entry?.licenceNumber && hospital.licenceNumber) &&
    entry!.licenceNumber!.replace(/\s+/g, '').toLowerCase() ===
      hospital.licenceNumber!.replace(/\s+/g, '').toLowerCase();
  return (
    <li className="flex flex-col gap-3 py-4" aria-label={hospital.name}>
      <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
        {hospital.name}
        <Badge variant="warning">{t('dashboard.hospitals.pending.badge')}</Badge>
        {(hospital.claimedBy ?? []).length > 0 && (
          <Badge variant="primary">
            {t('dashboard.hospitals.pending.claimed', {
              names: (hospital.claimedBy ?? []).map((other) => other.name).join(', '),
            })}
          </Badge>
        )}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <section aria-label={t('dashboard.hospitals.pending.submitted')}>
          <h4 className="mb-1 font-semibold text-slate-900">
            {t('dashboard.hospitals.pending.submitted')}
          </h4>
          <dl className="flex flex-col gap-1 text-sm">
            <Line term={t('dashboard.hospitals.pending.name')} value={hospital.name} />
            <Line term={t('dashboard.hospitals.pending.licence')} value={hospital.licenceNumber} />
            <Line term={t('dashboard.hospitals.pending.contact')} value={hospital.contactName} />
            <Line term={t('dashboard.hospitals.pending.email')} value={hospital.email} />
            <Line
              term={t('dashboard.hospitals.pending.phone')}
              value={hospital.phone ? formatPhone(hospital.phone) : null}
            />
            <Line
              term={t('dashboard.hospitals.pending.registered')}
              value={format.date(hospital.createdAt)}
            />
          </dl>
          <p className="mt-2 flex flex-wrap gap-2">
            <Confirmed
              isConfirmed={hospital.emailConfirmed}
              label={t('dashboard.hospitals.pending.email')}
            />
            <Confirmed
              isConfirmed={hospital.phoneConfirmed}
              label={t('dashboard.hospitals.pending.phone')}
            />
          </p>
        </section>
        <section aria-label={t('dashboard.hospitals.pending.directory')}>
          <h4 className="mb-1 font-semibold text-slate-900">
            {t('dashboard.hospitals.pending.directory')}
          </h4>
          {entry ? (
            <dl className="flex flex-col gap-1 text-sm">
              <Line term={t('dashboard.hospitals.pending.name')} value={entry.name} />
              <Line
                term={t('dashboard.hospitals.pending.address')}
                value={[entry.address, entry.city, entry.district, entry.pincode]
                  .filter(Boolean)
                  .join(', ')}
              />
              <Line term={t('dashboard.hospitals.pending.state')} value={entry.state} />
              <Line
                term={t('dashboard.hospitals.pending.phone')}
                value={[entry.phone, entry.mobile].filter(Boolean).join(' · ')}
              />
              <Line term={t('dashboard.hospitals.pending.email')} value={entry.email} />
              <Line
                term={t('dashboard.hospitals.pending.licence')}
                value={[
                  entry.licenceNumber,
                  entry.licenceObtained &&
                    t('dashboard.hospitals.pending.licenceSince', {
                      date: entry.licenceObtained,
                    }),
                  entry.licenceRenewed &&
                    t('dashboard.hospitals.pending.licenceRenewed', { date: entry.licenceRenewed }),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </dl>
          ) : (
            <p className="text-sm text-slate-700">{t('dashboard.hospitals.pending.noEntry')}</p>
          )}
          {entry?.licenceNumber && hospital.licenceNumber && (
            <p className="mt-2">
              <Badge variant={isLicenceMatch ? 'success' : 'warning'}>
                {isLicenceMatch
                  ? t('dashboard.hospitals.pending.licenceMatches')
                  : t('dashboard.hospitals.pending.licenceDiffers')}
              </Badge>
            </p>
          )}
        </section>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => onDecide(hospital, 'verify')}>
          {t('dashboard.hospitals.pending.verify')}
          <span className="sr-only">: {hospital.name}</span>
        </Button>
        <Button variant="danger" onClick={() => onDecide(hospital, 'reject')}>
          {t('dashboard.hospitals.pending.reject')}
          <span className="sr-only">: {hospital.name}</span>
        </Button>
      </div>
    </li>
  );
}

/**
 * Blood centres that registered themselves (issue #17), waiting for an administrator to check
 * them against the directory entry they chose and their licence. Hidden while none waits.
 */
export function PendingHospitals() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<{
    hospital: HospitalAccount;
    decision: 'verify' | 'reject';
  } | null>(null);
  const pending = usePendingHospitals(page);
  const decide = useDecideHospital();

  if (pending.isPending) return <Skeleton lines={2} />;
  if (pending.isError) {
    return <ErrorState error={pending.error} onRetry={() => void pending.refetch()} />;
  }
  // Only what the server says is pending (an older server ignores the filter).
  const items = pending.data.items.filter((item) => item.verificationStatus === 'pending');
  if (items.length === 0) return null;
  return (
    <section
      aria-labelledby="pending-hospitals-title"
      className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h3 id="pending-hospitals-title" className="text-lg font-semibold text-slate-900">
        {t('dashboard.hospitals.pending.title', { total: pending.data.total })}
      </h3>
      <p className="text-sm text-slate-700">{t('dashboard.hospitals.pending.description')}</p>
      <ul className="divide-y divide-amber-200">
        {items.map((hospital) => (
          <PendingRow
            key={hospital.id}
            hospital={hospital}
            onDecide={(chosen, decision) => setDeciding({ hospital: chosen, decision })}
          />
        ))}
      </ul>
      <Pagination
        page={pending.data.page}
        pageSize={pending.data.pageSize || HOSPITALS_PAGE_SIZE}
        total={pending.data.total}
        onPageChange={setPage}
        isLoading={pending.isFetching}
        label={t('dashboard.hospitals.pending.pages')}
      />
      {deciding && (
        <ConfirmDialog
          title={
            deciding.decision === 'verify'
              ? t('dashboard.hospitals.pending.verifyTitle', { name: deciding.hospital.name })
              : t('dashboard.hospitals.pending.rejectTitle', { name: deciding.hospital.name })
          }
          message={
            deciding.decision === 'verify'
              ? t('dashboard.hospitals.pending.verifyMessage')
              : t('dashboard.hospitals.pending.rejectMessage')
          }
          confirmLabel={
            deciding.decision === 'verify'
              ? t('dashboard.hospitals.pending.verify')
              : t('dashboard.hospitals.pending.reject')
          }
          tone={deciding.decision === 'verify' ? 'primary' : 'danger'}
          {...(deciding.decision === 'reject'
            ? {
                reason: {
                  label: t('dashboard.hospitals.pending.reason'),
                  hint: t('dashboard.hospitals.pending.reasonHint'),
                  required: true,
                },
              }
            : {})}
          describeError={errorMessage}
          onClose={() => setDeciding(null)}
          onConfirm={async (reason) => {
            const { hospital } = await decide.mutateAsync({
              hospitalId: deciding.hospital.id,
              decision: deciding.decision,
              ...(deciding.decision === 'reject' ? { reason } : {}),
            });
            toast.success(
              hospital.verificationStatus === 'verified'
                ? t('dashboard.hospitals.pending.verifiedToast', { name: hospital.name })
                : t('dashboard.hospitals.pending.rejectedToast', { name: hospital.name }),
            );
          }}
        />
      )}
    </section>
  );
}
