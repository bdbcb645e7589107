import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isFeatureFlag, type FeatureFlag, type RecentActivityItem } from '@bdms/shared';
import { useRecentActivity } from '../../api/admin-api';
import { useActivityLabel } from '../../lib/activity';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { EmptyState, ErrorState, Skeleton } from '../states';

const KNOWN_ROLES = ['admin', 'donor', 'hospital'] as const;

/** Actions about a donor's registration: their target opens in the verification screen. */
const DONOR_ACTIONS = /^(donor|document|questionnaire|donation|availability)\.|^user\.registered$/;

/**
 * Whom or what an entry is about: a person or a hospital by name, the flags by their names.
 * Other targets (a mail, a blood request) are known only by an id, which says nothing here.
 */
function Target({ item }: { item: RecentActivityItem }) {
  const { t } = useTranslation('admin');
  const target = item.target;
  // "Signed in: Administrator, by Administrator" says the name twice.
  if (!target || target.id === item.actor?.id) return null;
  if (target.type === 'feature_flags') {
    const names = target.id
      .split(',')
      .filter((name): name is FeatureFlag => isFeatureFlag(name))
      .map((name) => t(`flags.names.${name}`));
    return names.length > 0 ? <p className="text-sm text-slate-800">{names.join(', ')}</p> : null;
  }
  if (target.type !== 'user' && target.type !== 'hospital') return null;
  if (target.type === 'user' && DONOR_ACTIONS.test(item.action)) {
    return (
      <p className="text-sm">
        <Link
          to={`/admin/verification?donor=${encodeURIComponent(target.id)}`}
          className="font-semibold text-primary-700 underline"
        >
          {target.label}
        </Link>
      </p>
    );
  }
  return <p className="text-sm text-slate-800">{target.label}</p>;
}

/** `GET /admin/activity/recent`: who did what, newest first. */
export function ActivityFeed() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const label = useActivityLabel();
  const activity = useRecentActivity();

  return (
    <AdminSection
      title={t('dashboard.activity.title')}
      description={t('dashboard.activity.description')}
    >
      {activity.isPending ? (
        <Skeleton lines={6} />
      ) : activity.isError ? (
        <ErrorState error={activity.error} onRetry={() => void activity.refetch()} />
      ) : activity.data.items.length === 0 ? (
        <EmptyState
          title={t('dashboard.activity.emptyTitle')}
          message={t('dashboard.activity.emptyMessage')}
        />
      ) : (
        // Scrolls on its own: focusable, so the keyboard can scroll it too.
        <ol
          tabIndex={0}
          aria-label={t('dashboard.activity.title')}
          className="flex max-h-[32rem] flex-col divide-y divide-slate-200 overflow-y-auto"
        >
          {activity.data.items.map((item) => {
            const role = KNOWN_ROLES.find((known) => known === item.actor?.role);
            return (
              <li key={item.id} className="flex flex-col gap-0.5 py-3">
                <p className="font-medium text-slate-900">{label(item.action)}</p>
                <Target item={item} />
                <p className="text-sm text-slate-700">
                  {item.actor
                    ? t('dashboard.activity.by', {
                        name: item.actor.name,
                        role: role ? t(`roles.${role}`) : item.actor.role,
                      })
                    : t('dashboard.activity.bySystem')}
                  {' · '}
                  <time dateTime={item.at} title={format.dateTime(item.at)}>
                    {format.relative(item.at)}
                  </time>
                </p>
              </li>
            );
          })}
        </ol>
      )}
    </AdminSection>
  );
}
