import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { indianDate, type Deferral } from '@bdms/shared';
import { STATUS_STYLES, StatusIcon } from '../../../../components/status';
import { cn } from '../../../../lib/cn';
import { useFormatDate } from '../../../../lib/dates';
import { useDeferralText } from '../../onboarding/deferral-text';

export interface EligibilityView {
  eligible: boolean;
  nextEligibleAt: string | null;
  deferrals: Deferral[];
  maxVolumeMl?: number | null | undefined;
}

/**
 * Deferrals end at 00:00 IST, so their dates are shown as Indian days (a device in another time
 * zone would otherwise show the day before).
 *
 * The verdict on the health answers, said kindly: a deferral is "not now", never a judgement.
 * Each reason is explained by its code, with the date it ends when there is one.
 */
export function EligibilitySummary({
  eligibility,
  gender,
  headingLevel: Heading = 'h3',
  className,
  children,
}: {
  eligibility: EligibilityView;
  gender: string | null | undefined;
  headingLevel?: 'h2' | 'h3' | 'h4';
  className?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('onboarding');
  const formatDate = useFormatDate();
  const explain = useDeferralText(gender);
  const isPermanent = eligibility.deferrals.some((deferral) => deferral.permanent);
  const variant = eligibility.eligible ? 'success' : isPermanent ? 'info' : 'warning';

  let title: string;
  let message: string;
  if (eligibility.eligible) {
    title = t('eligibility.eligible.title');
    message = t('eligibility.eligible.message');
  } else if (isPermanent) {
    title = t('eligibility.permanent.title');
    message = t('eligibility.permanent.message');
  } else {
    title = eligibility.nextEligibleAt
      ? t('eligibility.temporary.title', {
          date: formatDate(indianDate(eligibility.nextEligibleAt), 'long'),
        })
      : t('eligibility.temporary.titleNoDate');
    message = t('eligibility.temporary.message');
  }
  const styles = STATUS_STYLES[variant];

  return (
    <div className={cn('flex items-start gap-3 rounded-lg border-s-4 p-4', styles.box, className)}>
      <span className={cn('mt-1 shrink-0', styles.icon)}>
        <StatusIcon variant={variant} />
      </span>
      <div className="min-w-0 flex-1">
        <Heading className="text-lg font-semibold">{title}</Heading>
        <p className="mt-1">{message}</p>
        {eligibility.deferrals.length > 0 && (
          <ul className="mt-3 flex list-disc flex-col gap-2 ps-5">
            {eligibility.deferrals.map((deferral) => (
              <li key={deferral.code}>
                {explain(deferral)}
                {deferral.until && (
                  <>
                    {' '}
                    <strong className="font-semibold">
                      {t('eligibility.until', {
                        date: formatDate(indianDate(deferral.until), 'long'),
                      })}
                    </strong>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        {eligibility.eligible && eligibility.maxVolumeMl && (
          <p className="mt-2">{t('eligibility.volume', { ml: eligibility.maxVolumeMl })}</p>
        )}
        {children}
      </div>
    </div>
  );
}
