import { useTranslation } from 'react-i18next';
import { indianDate, type Questionnaire } from '@bdms/shared';
import { LinkButton } from '../../../../components/link-button';
import { calendarDaysUntil, useFormatDate } from '../../../../lib/dates';
import { useNow } from '../../../../lib/use-now';
import { StatCard } from './stat-card';

/**
 * When the donor may give again: a countdown in days that stays right while the page is open,
 * "You can donate now" once the day has come. A deferral with no end date ("while it lasts")
 * reads "Not right now"; a permanent one is said kindly, without a countdown.
 */
export function NextEligibleCard({
  nextEligibleAt,
  questionnaire,
}: {
  nextEligibleAt: string | null | undefined;
  questionnaire: Questionnaire | null | undefined;
}) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const now = useNow();
  const title = t('cards.nextEligible.title');

  if (questionnaire?.deferrals.some((deferral) => deferral.permanent)) {
    return (
      <StatCard
        title={title}
        value={t('cards.nextEligible.notNow')}
        hint={t('cards.nextEligible.permanent')}
      />
    );
  }
  const days = nextEligibleAt ? calendarDaysUntil(nextEligibleAt, now) : 0;
  if (days > 0 && nextEligibleAt) {
    return (
      <StatCard
        title={title}
        value={t('cards.nextEligible.daysLeft', { count: days })}
        // The day it opens is an Indian day (00:00 IST).
        hint={t('cards.nextEligible.from', {
          date: formatDate(indianDate(nextEligibleAt), 'long'),
        })}
      />
    );
  }
  // Deferred with no end date (a cold, pregnancy, low weight): not now, and no date to count to.
  if (questionnaire && !questionnaire.eligible) {
    return (
      <StatCard
        title={title}
        value={t('cards.nextEligible.notNow')}
        hint={t('cards.nextEligible.notNowHint')}
      >
        <LinkButton to="/onboarding" variant="secondary" className="mt-2 self-start">
          {t('cards.nextEligible.updateAnswers')}
        </LinkButton>
      </StatCard>
    );
  }
  return <StatCard title={title} value={t('cards.nextEligible.now')} />;
}
