import { useTranslation } from 'react-i18next';
import type { FeatureFlags } from '@bdms/shared';
import { LoadError } from '../../../../components/query-state';
import { cn } from '../../../../lib/cn';
import { useFormatDate } from '../../../../lib/dates';
import { useDonorStats } from '../../api/donations';
import { useQuestionnaire } from '../../api/onboarding';
import { StatusBanner, donorStatusKind } from '../status-banner';
import { AvailabilityCard } from './availability-card';
import { CertificatesCard } from './certificates-card';
import { DonationsCard } from './donations-card';
import { NextEligibleCard } from './next-eligible-card';
import { RecentActivityCard } from './recent-activity-card';
import { ReferralCard } from './referral-card';
import { StatCard } from './stat-card';

export interface DashboardDonor {
  id: string;
  status?: string | undefined;
  isApproved?: boolean | undefined;
  onboardingCompleted?: boolean | undefined;
  rejectionReason?: string | null | undefined;
  suspensionReason?: string | null | undefined;
}

/**
 * The donor's dashboard (API.md "Feature flags"): the status banner, last and total donations
 * and availability always; the countdown to the next donation, lives impacted and recent
 * activity with `donorDashboard`; the donations card with `donationHistory`; the certificates
 * card with `certificateGeneration`; the invitation card with `referralSystem`. Blood requests near the donor appear once blood requests
 * exist; until then there is no card at all, rather than an empty promise.
 */
export function DonorDashboard({
  donor,
  flags,
}: {
  donor: DashboardDonor;
  flags: Pick<FeatureFlags, 'donorDashboard' | 'donationHistory' | 'certificateGeneration'> &
    Partial<Pick<FeatureFlags, 'referralSystem'>>;
}) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const stats = useDonorStats(donor.id);
  const questionnaire = useQuestionnaire(donor.id);
  const kind = donorStatusKind(donor);
  const reason = kind === 'suspended' ? donor.suspensionReason : donor.rejectionReason;
  const data = stats.data;
  const dash = '–';

  return (
    <div className="mt-6 flex flex-col gap-6">
      <StatusBanner kind={kind} reason={reason} />
      {stats.isError && <LoadError error={stats.error} onRetry={() => void stats.refetch()} />}
      <div
        className={cn(
          'grid grid-cols-2 gap-3 sm:gap-4',
          flags.donorDashboard ? 'lg:grid-cols-4' : 'lg:max-w-3xl',
        )}
      >
        <StatCard
          title={t('cards.lastDonation.title')}
          value={
            !data
              ? dash
              : data.lastDonationAt
                ? formatDate(data.lastDonationAt, 'long')
                : t('cards.lastDonation.none')
          }
        />
        <StatCard
          title={t('cards.totalDonations.title')}
          value={data ? data.totalDonations : dash}
        />
        {flags.donorDashboard &&
          (data ? (
            <NextEligibleCard
              nextEligibleAt={data.nextEligibleAt}
              questionnaire={questionnaire.data}
            />
          ) : (
            <StatCard title={t('cards.nextEligible.title')} value={dash} />
          ))}
        {flags.donorDashboard && (
          <StatCard
            title={t('cards.livesImpacted.title')}
            value={data ? data.livesImpacted : dash}
            hint={t('cards.livesImpacted.hint')}
          />
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <AvailabilityCard userId={donor.id} hiddenUntil={data?.nextEligibleAt} />
        {flags.donorDashboard && <RecentActivityCard userId={donor.id} />}
        {flags.donationHistory && <DonationsCard userId={donor.id} />}
        {flags.certificateGeneration && <CertificatesCard userId={donor.id} />}
        {flags.referralSystem && kind !== 'suspended' && <ReferralCard userId={donor.id} />}
      </div>
    </div>
  );
}
