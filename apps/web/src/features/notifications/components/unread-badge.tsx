import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { NotificationPage } from '@bdms/shared';
import { api } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';

/** The same key as `notificationKeys.unread` (api/notifications.ts), not imported: this chunk stays alone. */
const UNREAD_KEY = ['notifications', 'unread'] as const;

/** Asked again every minute while the page is visible, and when the window regains focus. */
const POLL_MS = 60_000;

function BellIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/**
 * The bell in the header: a link to /notifications whose name says how many are unread, with
 * the count drawn on it. Loaded lazily after sign-in, so the first page load does not carry it.
 */
export default function UnreadBadge() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: UNREAD_KEY,
    queryFn: async ({ signal }) =>
      (
        await api.get<NotificationPage>('/notifications', {
          query: { page: 1, pageSize: 1 },
          signal,
        })
      ).unread,
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: POLL_MS / 2,
  });
  const count = query.data ?? 0;
  return (
    <NavLink
      to="/notifications"
      end
      aria-label={
        count > 0 ? t('account.unreadNotifications', { count }) : t('account.notifications')
      }
      className={({ isActive }) =>
        cn(
          'relative inline-flex size-11 shrink-0 items-center justify-center rounded-lg border-2 text-slate-900',
          isActive ? 'border-primary-700 bg-primary-50' : 'border-slate-300 hover:bg-slate-50',
        )
      }
    >
      <BellIcon className="size-6" />
      {count > 0 && (
        <span
          aria-hidden="true"
          className="absolute -end-1.5 -top-1.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-primary-700 px-1 text-xs font-bold text-white ring-2 ring-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </NavLink>
  );
}
