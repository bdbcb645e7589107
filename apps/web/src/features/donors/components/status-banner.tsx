import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button';
import { STATUS_STYLES, StatusIcon, type StatusVariant } from '../../../components/status';
import { useConfig } from '../../../config/use-config';
import { cn } from '../../../lib/cn';

export type DonorStatusKind = 'incomplete' | 'pending' | 'approved' | 'suspended' | 'rejected';

/** The donor's status as the banner tells it; an unknown status reads as pending. */
export function donorStatusKind(user: {
  status?: string | null;
  isApproved?: boolean | null;
  onboardingCompleted?: boolean | null;
}): DonorStatusKind {
  const status = user.status ?? 'pending';
  if (status === 'suspended') return 'suspended';
  if (status === 'rejected') return 'rejected';
  if (status === 'approved' || status === 'active' || user.isApproved) return 'approved';
  return user.onboardingCompleted ? 'pending' : 'incomplete';
}

const VARIANTS: Record<DonorStatusKind, StatusVariant> = {
  incomplete: 'info',
  pending: 'info',
  approved: 'success',
  suspended: 'warning',
  rejected: 'warning',
};

/** Where each status's button goes (none for approved and suspended donors). */
const ACTIONS: Partial<Record<DonorStatusKind, 'incomplete' | 'pending' | 'rejected'>> = {
  incomplete: 'incomplete',
  pending: 'pending',
  rejected: 'rejected',
};

/**
 * Where the donor stands: pending review, approved, suspended or rejected (with the reason the
 * administrator gave). A static region with its own heading, not a live alert: it is read in
 * page order, never shouted over what the donor is doing.
 */
export function StatusBanner({
  kind,
  reason,
  showAction = true,
  headingLevel: Heading = 'h2',
  className,
}: {
  kind: DonorStatusKind;
  reason?: string | null | undefined;
  /** The button to the registration; off on the registration screen itself. */
  showAction?: boolean;
  headingLevel?: 'h2' | 'h3';
  className?: string;
}) {
  const { t } = useTranslation('donors');
  const { supportEmail } = useConfig();
  const headingId = useId();
  const variant = VARIANTS[kind];
  const styles = STATUS_STYLES[variant];
  const action = showAction ? ACTIONS[kind] : undefined;
  const hasReason = (kind === 'suspended' || kind === 'rejected') && reason;

  return (
    <section
      aria-labelledby={headingId}
      data-status={kind}
      className={cn(
        'flex items-start gap-3 rounded-xl border-s-4 p-4 sm:p-5',
        styles.box,
        className,
      )}
    >
      <span className={cn('mt-1 shrink-0', styles.icon)}>
        <StatusIcon variant={variant} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="sr-only">{t('status.label')}</p>
        <Heading id={headingId} className="text-lg font-semibold sm:text-xl">
          {t(`status.${kind}.title`)}
        </Heading>
        {hasReason && (
          <p className="mt-2 font-semibold">{t('status.reason', { reason: reason.trim() })}</p>
        )}
        <p className="mt-1">{t(`status.${kind}.message`)}</p>
        {kind === 'suspended' && supportEmail && (
          <p className="mt-2">
            {t('status.contact')}{' '}
            <a
              href={`mailto:${supportEmail}`}
              className="inline-flex min-h-11 items-center font-semibold break-all underline"
            >
              {supportEmail}
            </a>
          </p>
        )}
        {action && (
          <LinkButton to="/onboarding" variant="secondary" className="mt-3">
            {t(`status.${action}.action`)}
          </LinkButton>
        )}
      </div>
    </section>
  );
}
