import type { AppNotification, NotificationPage, PushSubscriptionBody } from '@bdms/shared';
import type { Db } from '../../db/client';
import type { NotificationRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { AuthUser, SelfLoader } from '../../plugins/auth';
import { createNotificationPages, createNotificationsRepository } from './notifications.repository';

/**
 * Browsers' push services. The server sends requests to whatever endpoint a subscription names,
 * so other hosts are refused: otherwise a subscription could aim the server at an internal
 * address (server-side request forgery).
 */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  '.push.apple.com',
  '.notify.windows.com',
];

export function isKnownPushService(endpoint: URL): boolean {
  if (endpoint.protocol !== 'https:') return false;
  const host = endpoint.hostname.toLowerCase();
  return PUSH_SERVICE_HOSTS.some((allowed) =>
    allowed.startsWith('.') ? host.endsWith(allowed) : host === allowed,
  );
}

export interface NotificationsServiceDeps {
  db: Db;
  now?: () => number;
  /** Which push endpoints are accepted (tests allow a local fake push service). */
  isAllowedPushEndpoint?: (endpoint: URL) => boolean;
}

export function toNotificationView(row: NotificationRow): AppNotification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    link: row.link,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', message, [{ path, message }]);

export function createNotificationsService(deps: NotificationsServiceDeps) {
  const now = deps.now ?? Date.now;
  const repository = createNotificationsRepository(deps.db);
  const pages = createNotificationPages(deps.db);
  const isAllowed = deps.isAllowedPushEndpoint ?? isKnownPushService;

  return {
    /**
     * The caller's own page, read with their row in one statement: pass it to
     * `app.authenticateWith`, which checks the caller before the page is sent.
     */
    list(page: number, pageSize: number): SelfLoader<NotificationPage> {
      return async (userId) => {
        const found = await pages.list(userId, page, pageSize);
        if (!found) return undefined;
        const { caller, items, total, unread } = found;
        return {
          caller,
          value: { items: items.map(toNotificationView), total, page, pageSize, unread },
        };
      };
    },

    /** Only the caller's own: another user's notification is 404, like one that does not exist. */
    async markRead(caller: AuthUser, id: string): Promise<AppNotification> {
      const row = await repository.markRead(caller.id, id, new Date(now()));
      if (!row) throw new AppError('NOT_FOUND', 'There is no notification with this id.');
      return toNotificationView(row);
    },

    async markAllRead(caller: AuthUser): Promise<number> {
      return repository.markAllRead(caller.id, new Date(now()));
    },

    async subscribe(
      caller: AuthUser,
      body: PushSubscriptionBody,
      userAgent: string | null,
    ): Promise<void> {
      const { endpoint, keys } = body.subscription;
      if (!isAllowed(new URL(endpoint))) {
        throw invalid(
          'body.subscription.endpoint',
          'This is not a push service address we can use.',
        );
      }
      const p256dh = Buffer.from(keys.p256dh, 'base64url');
      if (!/^[A-Za-z0-9_-]+={0,2}$/.test(keys.p256dh) || p256dh.length !== 65 || p256dh[0] !== 4) {
        throw invalid('body.subscription.keys.p256dh', 'Not a P-256 public key.');
      }
      if (
        !/^[A-Za-z0-9_-]+={0,2}$/.test(keys.auth) ||
        Buffer.from(keys.auth, 'base64url').length !== 16
      ) {
        throw invalid('body.subscription.keys.auth', 'Not a 16-byte authentication secret.');
      }
      await repository.upsertSubscription({
        userId: caller.id,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        userAgent: userAgent?.slice(0, 512) ?? null,
        createdAt: new Date(now()),
      });
    },

    /** Removes the caller's subscription; an unknown endpoint is fine (already gone). */
    async unsubscribe(caller: AuthUser, endpoint: string): Promise<void> {
      await repository.deleteSubscription(caller.id, endpoint);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
