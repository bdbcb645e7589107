import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ActivityItem } from '@bdms/shared';
import { LoadError, LoadingState } from '../../../../components/query-state';
import { useFormatDate } from '../../../../lib/dates';
import { useActivity } from '../../api/donations';

const LINK = 'inline-flex min-h-11 items-center font-semibold text-primary-700 underline';

/** An activity entry in the user's language, by its action; the server's text when unknown. */
function useActivityText() {
  const { t, i18n } = useTranslation('donors');
  return (item: ActivityItem): string => {
    const key = `activity.${item.action.replace(/\./g, '_')}`;
    return i18n.exists(`donors:${key}`) ? t(key as 'activity.user_registered') : item.message;
  };
}

/** The 5 newest entries of the donor's activity (`GET /users/{id}/activity`). */
export function RecentActivityCard({ userId }: { userId: string }) {
  const { t } = useTranslation('donors');
  const formatDate = useFormatDate();
  const text = useActivityText();
  const query = useActivity(userId, 5);
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('cards.activity.title')}
      </h2>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <LoadingState />}
      {query.data &&
        (query.data.items.length === 0 ? (
          <p className="text-slate-700">{t('cards.activity.empty')}</p>
        ) : (
          <ol className="flex flex-col divide-y divide-slate-100">
            {query.data.items.map((item) => (
              <li key={item.id} className="flex flex-col py-2 sm:flex-row sm:gap-4">
                <time
                  dateTime={item.at}
                  className="shrink-0 text-sm text-slate-600 sm:w-32 sm:text-base"
                >
                  {formatDate(item.at)}
                </time>
                <span className="text-slate-900">{text(item)}</span>
              </li>
            ))}
          </ol>
        ))}
      <Link to="/donor/history" className={LINK}>
        {t('cards.activity.seeHistory')}
      </Link>
    </section>
  );
}
