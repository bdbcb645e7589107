import type { User } from '@bdms/shared';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../../components/badge';
import { cn } from '../../../../lib/cn';
import { useFormat } from '../../lib/format';
import { BloodTypeMark, DemoBadge, DonorStatusBadge } from '../status-badges';

/**
 * Donors as a list of buttons: Tab reaches each, Enter or Space opens it in the panel. The open
 * one is marked with aria-current.
 */
export function DonorList({
  donors,
  selectedId,
  onSelect,
  showOnboarding = false,
  label,
}: {
  donors: User[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** The queue shows whether onboarding is done (approval needs it). */
  showOnboarding?: boolean;
  label: string;
}) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  return (
    <ul aria-label={label} className="flex flex-col gap-2">
      {donors.map((donor) => {
        const isSelected = donor.id === selectedId;
        return (
          <li key={donor.id}>
            <button
              type="button"
              onClick={() => onSelect(donor.id)}
              aria-current={isSelected ? 'true' : undefined}
              className={cn(
                'flex w-full items-start gap-3 rounded-lg border-2 p-3 text-start transition-colors',
                isSelected
                  ? 'border-slate-800 bg-slate-50'
                  : 'border-slate-200 bg-white hover:border-slate-400',
              )}
            >
              <BloodTypeMark bloodType={donor.bloodType} className="mt-0.5" />
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="font-semibold break-words text-slate-900">
                  {donor.fullName || donor.name || donor.email}
                </span>
                <span className="text-sm break-all text-slate-700">{donor.email}</span>
                <span className="text-sm text-slate-700">
                  {[donor.city, donor.state].filter(Boolean).join(', ')}
                  {(donor.city || donor.state) && ' · '}
                  {t('verification.registered', { date: format.date(donor.createdAt) })}
                </span>
                <span className="mt-1 flex flex-wrap gap-1.5">
                  <DonorStatusBadge status={donor.status} />
                  {donor.isDemo && <DemoBadge />}
                  {showOnboarding &&
                    (donor.onboardingCompleted ? (
                      <Badge variant="info">{t('verification.onboardingDone')}</Badge>
                    ) : (
                      <Badge variant="neutral">{t('verification.onboardingNotDone')}</Badge>
                    ))}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
