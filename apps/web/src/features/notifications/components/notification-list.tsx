import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AppNotification } from '@bdms/shared';
import { Button } from '../../../components/button';
import { Pagination } from '../../../components/pagination';
import { LoadError, LoadingState } from '../../../components/query-state';
import { useToast } from '../../../components/toast';
import { cn } from '../../../lib/cn';
import { useFormatDate } from '../../../lib/dates';
import { useErrorMessage } from '../../../lib/use-error-message';
import { useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications';

const PAGE_SIZE = 20;

/** An in-app path for a notification's link; null for another site. */
export function inAppPath(link: string): string | null {
  if (link.startsWith('/') && !link.startsWith('//')) return link;
  try {
    const url = new URL(link);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

const ITEM =
  'flex w-full items-start gap-3 rounded-xl border p-4 text-start no-underline transition-colors';

function NotificationItem({
  notification,
  onOpen,
}: {
  notification: AppNotification;
  onOpen: () => void;
}) {
  const { t } = useTranslation('notifications');
  const formatDate = useFormatDate();
  const isUnread = !notification.readAt;
  const className = cn(
    ITEM,
    isUnread
      ? 'border-info-200 bg-info-50 hover:bg-info-50/70'
      : 'border-slate-200 bg-white hover:bg-slate-50',
  );
  const content: ReactNode = (
    <>
      <span
        aria-hidden="true"
        className={cn(
          'mt-2 size-2.5 shrink-0 rounded-full',
          isUnread ? 'bg-info-700' : 'bg-transparent',
        )}
      />
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className={cn('text-slate-900', isUnread ? 'font-bold' : 'font-semibold')}>
          {isUnread && <span className="sr-only">{t('unread')}: </span>}
          {notification.title}
        </span>
        <span className="text-slate-800">{notification.message}</span>
        <time dateTime={notification.createdAt} className="text-sm text-slate-600">
          {formatDate(notification.createdAt, 'medium', true)}
        </time>
      </span>
    </>
  );

  const link = notification.link ? notification.link : null;
  const path = link ? inAppPath(link) : null;
  if (path) {
    return (
      <Link to={path} onClick={onOpen} className={className}>
        {content}
      </Link>
    );
  }
  if (link && /^https?:\/\//.test(link)) {
    return (
      <a
        href={link}
        onClick={onOpen}
        className={className}
        rel="noopener noreferrer"
        target="_blank"
      >
        {content}
      </a>
    );
  }
  if (isUnread) {
    return (
      <button type="button" onClick={onOpen} className={cn(className, 'cursor-pointer')}>
        {content}
      </button>
    );
  }
  return <div className={className}>{content}</div>;
}

/**
 * The user's notifications, 20 a page, newest first. Unread ones stand out (colour, weight, a
 * dot, and "Unread" for screen readers); opening one marks it read and follows its link.
 */
export function NotificationList() {
  const { t } = useTranslation('notifications');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(1);

  const query = useNotifications(page, PAGE_SIZE);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();

  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <LoadingState />;
  const { items, unread, total } = query.data;

  const readAll = async () => {
    try {
      await markAll.mutateAsync();
      toast.success(t('markedAll'));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p aria-live="polite" className="font-medium text-slate-800">
          {unread > 0 ? t('unreadCount', { count: unread }) : t('allRead')}
        </p>
        <Button
          variant="secondary"
          disabled={unread === 0}
          isLoading={markAll.isPending}
          onClick={() => void readAll()}
        >
          {t('markAll')}
        </Button>
      </div>
      {items.length === 0 ? (
        <p className="rounded-lg bg-slate-50 p-4 text-slate-700">{t('empty')}</p>
      ) : (
        <ul aria-label={t('listLabel')} className="flex flex-col gap-2">
          {items.map((notification) => (
            <li key={notification.id}>
              <NotificationItem
                notification={notification}
                onOpen={() => {
                  if (!notification.readAt) markRead.mutate(notification.id);
                }}
              />
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        pageSize={PAGE_SIZE}
        total={total}
        onPageChange={setPage}
        label={t('pagesLabel')}
        isLoading={query.isFetching}
      />
    </div>
  );
}
