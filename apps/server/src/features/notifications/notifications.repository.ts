import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import { notifications, pushSubscriptions, type NotificationRow } from '../../db/schema';

export function createNotificationsRepository(db: Db) {
  return {
    async list(userId: string, page: number, pageSize: number) {
      const [items, [totals], [unread]] = await queryAll(db, [
        () =>
          db
            .select()
            .from(notifications)
            .where(eq(notifications.userId, userId))
            .orderBy(desc(notifications.createdAt), desc(notifications.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () =>
          db.select({ total: count() }).from(notifications).where(eq(notifications.userId, userId)),
        () =>
          db
            .select({ total: count() })
            .from(notifications)
            .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
      ]);
      return {
        items,
        total: Number(totals?.total ?? 0),
        unread: Number(unread?.total ?? 0),
      };
    },

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
