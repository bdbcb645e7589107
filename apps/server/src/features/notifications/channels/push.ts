import type https from 'node:https';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../../../config/env';
import type { Db } from '../../../db/client';
import { pushSubscriptions, type NotificationDeliveryRow } from '../../../db/schema';
import type { Channel, DeliveryOutcome } from './channel';
import { loadNotification } from './notification-row';

/** How long a push service keeps a message for an offline browser. */
export const PUSH_TTL_SECONDS = 24 * 3600;

/** Sends one Web Push message; web-push in production. */
export type PushSender = (
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
) => Promise<void>;

export interface PushChannelDeps {
  db: Db;
  config: Pick<Config, 'vapid' | 'supportEmail'>;
  now: () => number;
  onGone?: (details: { deliveryId: string; status: number }) => void;
  /** An https.Agent for the push requests (tests trust a self-signed fake push service). */
  pushAgent?: https.Agent;
  /** Replaces web-push entirely. */
  pushSender?: PushSender;
}

/** The status a push service answered with, when it did. */
function pushStatus(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : null;
}

/** Web Push to each of the person's subscribed browsers (one delivery row per subscription). */
export function createPushChannel(deps: PushChannelDeps): Channel {
  const { db, now } = deps;
  const vapidDetails = {
    // RFC 8292: a contact for the push service's operators.
    subject: `mailto:${deps.config.supportEmail}`,
    publicKey: deps.config.vapid.publicKey,
    privateKey: deps.config.vapid.privateKey,
  };
  const sendPush: PushSender =
    deps.pushSender ??
    (async (subscription, payload) => {
      await webpush.sendNotification(subscription, payload, {
        vapidDetails,
        TTL: PUSH_TTL_SECONDS,
        timeout: 10_000,
        ...(deps.pushAgent ? { agent: deps.pushAgent } : {}),
      });
    });

  return {
    name: 'push',

    async plan(event, { settings }) {
      if (!settings.pushEnabled) return [];
      return event.user.pushSubscriptionIds.map((id) => ({
        notificationId: event.notificationId,
        channel: 'push' as const,
        pushSubscriptionId: id,
        nextAttemptAt: event.at,
        createdAt: event.at,
      }));
    },

    async deliver(row: NotificationDeliveryRow): Promise<DeliveryOutcome> {
      const [subscription] = row.pushSubscriptionId
        ? await db
            .select()
            .from(pushSubscriptions)
            .where(eq(pushSubscriptions.id, row.pushSubscriptionId))
            .limit(1)
        : [];
      const notification = await loadNotification(db, row.notificationId);
      if (!subscription || !notification || notification.deletedAt) {
        return { status: 'gone', reason: 'The push subscription no longer exists.' };
      }
      // Only what the lock screen may show: no contact details, ever.
      const payload = JSON.stringify({
        id: notification.id,
        type: notification.type,
        title: notification.title,
        message: notification.message,
        link: notification.link,
      });
      try {
        await sendPush(
          {
            endpoint: subscription.endpoint,
            keys: { p256dh: subscription.p256dh, auth: subscription.auth },
          },
          payload,
        );
        await db
          .update(pushSubscriptions)
          .set({ lastSuccessAt: new Date(now()) })
          .where(eq(pushSubscriptions.id, subscription.id));
        return { status: 'sent' };
      } catch (error) {
        const status = pushStatus(error);
        if (status === 404 || status === 410) {
          // The browser unsubscribed or the subscription expired: forget it for good.
          await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
          deps.onGone?.({ deliveryId: row.id, status });
          return { status: 'gone', reason: `The push service answered ${status}.` };
        }
        return {
          status: 'retry',
          reason:
            status !== null
              ? `The push service answered ${status}.`
              : error instanceof Error
                ? error.message
                : String(error),
        };
      }
    },
  };
}
