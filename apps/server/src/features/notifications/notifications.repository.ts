import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cachedRead } from '../../db/read-cache';
import {
  hospitals,
  notificationDeliveries,
  notifications,
  pushSubscriptions,
  users,
  whatsappWebhookEvents,
  type NotificationRow,
} from '../../db/schema';
import { CALLER_COLUMNS, callerFactsFrom } from '../../plugins/auth';

/** `to_json` of a notifications row: snake_case keys, timestamps as ISO text. */
interface NotificationJson {
  id: string;
  user_id: string;
  type: string;
  title: string;
  message: string;
  link: string | null;
  read_at: string | null;
  created_at: string;
}

function notificationFromJson(json: NotificationJson): NotificationRow {
  return {
    id: json.id,
    userId: json.user_id,
    type: json.type,
    title: json.title,
    message: json.message,
    link: json.link,
    readAt: json.read_at === null ? null : new Date(json.read_at),
    createdAt: new Date(json.created_at),
  };
}

/**
 * The notifications list in one prepared statement (the page, the total and the unread count),
 * where it took three queries, with the caller's row for authentication (issue #20: the list is
 * always the caller's own, so `app.authenticateWith` needs no statement of its own). Made once
 * on the database handle, never a transaction.
 */
export function createNotificationPages(db: Db) {
  const pageQuery = db
    .select({
      caller: CALLER_COLUMNS,
      counts: sql<{ total: number; unread: number }>`(
        select json_build_object('total', count(*), 'unread', count(*) filter (where c.read_at is null))
        from notifications c where c.user_id = users.id
      )`,
      items: sql<NotificationJson[]>`coalesce((
        select json_agg(to_json(n) order by n.created_at desc, n.id desc) from (
          select * from notifications p where p.user_id = users.id
          order by p.created_at desc, p.id desc
          limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}
        ) n
      ), '[]'::json)`,
    })
    .from(users)
    .leftJoin(hospitals, eq(hospitals.id, users.hospitalId))
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('notifications_page');
  // Served from memory while none of its tables was written (db/read-cache.ts).
  const page = cachedRead(db, 'notifications_page', pageQuery);

  return {
    /** The caller's page with their caller facts; undefined when there is no such user. */
    async list(userId: string, pageNumber: number, pageSize: number) {
      const [row] = await page({
        userId,
        limit: pageSize,
        offset: (pageNumber - 1) * pageSize,
      });
      if (!row) return undefined;
      return {
        caller: callerFactsFrom(row.caller),
        items: row.items.map(notificationFromJson),
        total: Number(row.counts.total),
        unread: Number(row.counts.unread),
      };
    },
  };
}

export function createNotificationsRepository(db: Db) {
  return {
    /** Marks the user's own notification read (keeps the first read time). */
    async markRead(userId: string, id: string, at: Date): Promise<NotificationRow | undefined> {
      await db
        .update(notifications)
        .set({ readAt: at })
        .where(
          and(
            eq(notifications.id, id),
            eq(notifications.userId, userId),
            isNull(notifications.readAt),
          ),
        );
      const [row] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .limit(1);
      return row;
    },

    async markAllRead(userId: string, at: Date): Promise<number> {
      const rows = await db
        .update(notifications)
        .set({ readAt: at })
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning({ id: notifications.id });
      return rows.length;
    },

    /** The endpoint belongs to whoever subscribed with it last (one browser, another account). */
    async upsertSubscription(subscription: {
      userId: string;
      endpoint: string;
      p256dh: string;
      auth: string;
      userAgent: string | null;
      createdAt: Date;
    }): Promise<void> {
      await db
        .insert(pushSubscriptions)
        .values(subscription)
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: {
            userId: subscription.userId,
            p256dh: subscription.p256dh,
            auth: subscription.auth,
            userAgent: subscription.userAgent,
          },
        });
    },

    async deleteSubscription(userId: string, endpoint: string): Promise<boolean> {
      const rows = await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
        .returning({ id: pushSubscriptions.id });
      return rows.length > 0;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;

/** The statements of the WhatsApp webhook (whatsapp-webhook.service.ts). */
export function createWhatsAppWebhookRepository(db: Db) {
  return {
    /**
     * Claims an inbound event for this instance: true when it was not seen before. One
     * statement (insert ... on conflict do nothing), so of two instances receiving the same
     * event at once exactly one gets true.
     */
    async claimEvent(key: string, sentAt: Date, receivedAt: Date): Promise<boolean> {
      const rows = await db
        .insert(whatsappWebhookEvents)
        .values({ key, sentAt, receivedAt })
        .onConflictDoNothing({ target: whatsappWebhookEvents.key })
        .returning({ key: whatsappWebhookEvents.key });
      return rows.length > 0;
    },

    /** Gives a claim back when acting on the event failed, so Meta's retry is acted on. */
    async releaseEvent(key: string): Promise<void> {
      await db.delete(whatsappWebhookEvents).where(eq(whatsappWebhookEvents.key, key));
    },

    /** Forgets events received before `before` (the retention). */
    async deleteEventsReceivedBefore(before: Date): Promise<void> {
      await db.delete(whatsappWebhookEvents).where(lt(whatsappWebhookEvents.receivedAt, before));
    },

    /** Stores a delivery status (sent, delivered, read, failed) on the WhatsApp delivery row. */
    async recordDeliveryStatus(providerMessageId: string, status: string, at: Date) {
      const updated = await db
        .update(notificationDeliveries)
        .set({ receiptStatus: status.toUpperCase(), receiptAt: at })
        .where(
          and(
            eq(notificationDeliveries.channel, 'whatsapp'),
            eq(notificationDeliveries.providerMessageId, providerMessageId),
          ),
        )
        .returning({ id: notificationDeliveries.id });
      return updated.length > 0;
    },
  };
}

export type WhatsAppWebhookRepository = ReturnType<typeof createWhatsAppWebhookRepository>;
