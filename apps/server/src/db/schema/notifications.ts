import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** In-app notifications, written in the user's language when they are created. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    link: text(),
    readAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('notifications_user_created_idx').on(table.userId, table.createdAt)],
);

export type NotificationRow = typeof notifications.$inferSelect;

/** A browser's PushSubscription; the endpoint belongs to whoever subscribed with it last. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text().notNull().unique('push_subscriptions_endpoint_unique'),
    p256dh: text().notNull(),
    auth: text().notNull(),
    userAgent: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('push_subscriptions_user_id_idx').on(table.userId)],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

export const DELIVERY_CHANNELS = ['push', 'email'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];
/**
 * `queued`: waiting for (another) attempt at `next_attempt_at`; `sent`: handed over (the push
 * service accepted it, or the e-mail is in the mail outbox); `failed`: gave up; `gone`: the
 * push subscription no longer exists (404/410), so it was removed; `held`: an e-mail over its
 * type's burst allowance (features/notifications/email-digest.ts), waiting until `next_attempt_at` (the
 * end of its window) to go out in one digest; `digested`: sent as part of a digest.
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'gone', 'held', 'digested'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One row per channel (and per push subscription) a notification must still reach. Written in
 * the transaction of the event, delivered by the notification worker, so nothing is lost on a
 * crash or restart.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    notificationId: uuid()
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    channel: text().$type<DeliveryChannel>().notNull(),
    /** The push subscription this delivery is for (push only). */
    pushSubscriptionId: uuid().references(() => pushSubscriptions.id, { onDelete: 'set null' }),
    status: text().$type<DeliveryStatus>().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('notification_deliveries_status_next_idx').on(table.status, table.nextAttemptAt),
    index('notification_deliveries_notification_idx').on(table.notificationId),
    check('notification_deliveries_channel_check', sql`${table.channel} in ('push', 'email')`),
    check(
      'notification_deliveries_status_check',
      sql`${table.status} in ('queued', 'sent', 'failed', 'gone', 'held', 'digested')`,
    ),
  ],
);

export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect;
