import { useTranslation } from 'react-i18next';
import { Badge, type BadgeVariant } from '../../../components/badge';
import { cn } from '../../../lib/cn';

const DONOR_STATUS_VARIANTS: Record<string, BadgeVariant> = {
  pending: 'warning',
  approved: 'success',
  active: 'success',
  rejected: 'neutral',
  suspended: 'primary',
};

const KNOWN_DONOR_STATUSES = ['pending', 'approved', 'active', 'rejected', 'suspended'] as const;

/** A demo record (the `mockData` flag): made up, never contacted. */
export function DemoBadge() {
  const { t } = useTranslation();
  return <Badge variant="warning">{t('demoData.tag')}</Badge>;
}

export function DonorStatusBadge({ status }: { status: string | null | undefined }) {
  const { t } = useTranslation('admin');
  const value = status ?? 'pending';
  const known = KNOWN_DONOR_STATUSES.find((item) => item === value);
  return (
    <Badge variant={DONOR_STATUS_VARIANTS[value] ?? 'neutral'}>
      {known ? t(`donorStatus.${known}`) : value}
    </Badge>
  );
}

const REQUEST_STATUS_VARIANTS: Record<string, BadgeVariant> = {
  pending: 'warning',
  verified: 'info',
  in_progress: 'info',
  fulfilled: 'success',
  cancelled: 'neutral',
  expired: 'neutral',
};

const KNOWN_REQUEST_STATUSES = [
  'pending',
  'verified',
  'in_progress',
  'fulfilled',
  'cancelled',
  'expired',
] as const;

export function useRequestStatusLabel() {
  const { t } = useTranslation('admin');
  return (status: string) => {
    const known = KNOWN_REQUEST_STATUSES.find((item) => item === status);
    return known ? t(`requestStatus.${known}`) : status;
  };
}

export function RequestStatusBadge({ status }: { status: string }) {
  const label = useRequestStatusLabel();
  return <Badge variant={REQUEST_STATUS_VARIANTS[status] ?? 'neutral'}>{label(status)}</Badge>;
}

/** Critical stands out (solid red, an exclamation mark); urgent is quieter. */
export function UrgencyBadge({ urgency }: { urgency: string }) {
  const { t } = useTranslation('admin');
  if (urgency === 'critical') {
    return (
      <span className="inline-flex items-center gap-1 rounded-full bg-primary-700 px-2.5 py-0.5 text-sm font-bold text-white">
        <span aria-hidden="true">!</span>
        {t('urgency.critical')}
      </span>
    );
  }
  return <Badge variant="warning">{urgency === 'urgent' ? t('urgency.urgent') : urgency}</Badge>;
}

export function BloodTypeMark({
  bloodType,
  className,
}: {
  bloodType: string | null | undefined;
  className?: string;
}) {
  const { t } = useTranslation('admin');
  if (!bloodType) return <span className="text-slate-600">{t('common.notGiven')}</span>;
  return (
    <span
      className={cn(
        'inline-flex min-w-11 items-center justify-center rounded-md border-2 border-primary-200 bg-white px-1.5 font-bold text-primary-800 tabular-nums',
        className,
      )}
    >
      {bloodType}
    </span>
  );
}
