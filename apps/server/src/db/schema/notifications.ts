import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
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
export type NewNotificationRow = typeof notifications.$inferInsert;

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

export const DELIVERY_CHANNELS = ['push', 'email', 'sms', 'whatsapp'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];
/**
 * `queued`: waiting for (another) attempt at `next_attempt_at`; `sent`: handed over (the push
 * service accepted it, or the e-mail is in the mail outbox); `failed`: gave up; `gone`: the
 * push subscription no longer exists (404/410), so it was removed; `held`: an e-mail over its
 * type's burst allowance (features/notifications/email-digest.ts), waiting until `next_attempt_at` (the
 * end of its window) to go out in one digest; `digested`: sent as part of a digest; `skipped`:
 * not sent on purpose (an SMS/WhatsApp channel's daily budget was spent, or the consent was
 * withdrawn before it went out).
 */
export const DELIVERY_STATUSES = [
  'queued',
  'sent',
  'failed',
  'gone',
  'held',
  'digested',
  'skipped',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * What a delivery row is (issue #32 item 11): `outbox` a message of the outbox (an alert, a
 * guest requester's message); `code` a one-time code and `answer` the answer to an SMS/WhatsApp
 * reply, both sent directly (not through the outbox) and written down once handed over, only so
 * that the provider's receipt matches a row and the channels panel counts them. They carry no
 * destination and no text (a code is a secret).
 */
export const DELIVERY_KINDS = ['outbox', 'code', 'answer'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/**
 * One row per channel (and per push subscription) a notification must still reach. Written in
 * the transaction of the event, delivered by the notification worker, so nothing is lost on a
 * crash or restart. A message to a guest requester (no account, so no in-app notification:
 * features/notifications/requester-messages.ts) has no `notification_id`; it carries its
 * `destination`, `blood_request_id` and pre-rendered `payload` instead (the recipient check).
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Null only for a message to a guest requester (see above). */
    notificationId: uuid().references(() => notifications.id, { onDelete: 'cascade' }),
    channel: text().$type<DeliveryChannel>().notNull(),
    /** The push subscription this delivery is for (push only). */
    pushSubscriptionId: uuid().references(() => pushSubscriptions.id, { onDelete: 'set null' }),
    status: text().$type<DeliveryStatus>().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    /** Phone channels: the E.164 number the message is for, fixed when it was queued. */
    destination: text(),
    /** Phone channels: what to send, rendered in the recipient's language when queued. */
    payload: jsonb().$type<Record<string, string>>(),
    /** Critical: never waits for quiet hours and may exceed the channel's daily budget. */
    critical: boolean().notNull().default(false),
    /** Sent while the channel's daily budget was already spent (Critical only). */
    overBudget: boolean().notNull().default(false),
    /** The blood request an alert is about: a reply (YES, "I can donate") answers it. */
    bloodRequestId: uuid(),
    /** The short link (`/r/<code>`) in an SMS that opens the notification's link. */
    shortCode: text(),
    /** The provider's id of the sent message (SMPP message_id, WhatsApp wamid). */
    providerMessageId: text(),
    /** The last delivery receipt or status the provider reported (DELIVRD, read, failed…). */
    receiptStatus: text(),
    receiptAt: timestamp({ withTimezone: true }),
    kind: text().$type<DeliveryKind>().notNull().default('outbox'),
  },
  (table) => [
    index('notification_deliveries_status_next_idx').on(table.status, table.nextAttemptAt),
    index('notification_deliveries_notification_idx').on(table.notificationId),
    uniqueIndex('notification_deliveries_short_code_unique').on(table.shortCode),
    index('notification_deliveries_provider_message_idx').on(
      table.channel,
      table.providerMessageId,
    ),
    index('notification_deliveries_destination_idx').on(table.destination, table.createdAt),
    check(
      'notification_deliveries_channel_check',
      sql`${table.channel} in ('push', 'email', 'sms', 'whatsapp')`,
    ),
    check(
      'notification_deliveries_status_check',
      sql`${table.status} in ('queued', 'sent', 'failed', 'gone', 'held', 'digested', 'skipped')`,
    ),
    check(
      'notification_deliveries_recipient_check',
      sql`${table.notificationId} is not null or ${table.kind} in ('code', 'answer') or (${table.destination} is not null and ${table.bloodRequestId} is not null and ${table.payload} is not null)`,
    ),
    check('notification_deliveries_kind_check', sql`${table.kind} in ('outbox', 'code', 'answer')`),
  ],
);

export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect;

export const CONSENT_CHANNELS = ['sms', 'whatsapp'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/**
 * A donor's consent to alerts on a phone channel, one row per grant: when, the exact wording
 * shown, in which language; withdrawn (in the settings, or by replying STOP) at `withdrawn_at`.
 * The current consent is the newest row; older rows stay as the record.
 */
export const channelConsents = pgTable(
  'channel_consents',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text().$type<ConsentChannel>().notNull(),
    wording: text().notNull(),
    language: text().notNull(),
    grantedAt: timestamp({ withTimezone: true }).notNull(),
    withdrawnAt: timestamp({ withTimezone: true }),
    /** `settings` or `reply` (STOP by SMS or WhatsApp). */
    withdrawnVia: text(),
  },
  (table) => [
    index('channel_consents_user_channel_idx').on(table.userId, table.channel, table.grantedAt),
    check('channel_consents_channel_check', sql`${table.channel} in ('sms', 'whatsapp')`),
  ],
);

export type ChannelConsentRow = typeof channelConsents.$inferSelect;

/**
 * Inbound WhatsApp webhook events already acted on (issue #32 item 10): a signed webhook
 * replayed (by anyone who captured it, or by Meta retrying) is acknowledged but not acted on
 * again. `key` is the message id (`wamid…`) of an inbound message, or `<wamid>:<status>` for a
 * delivery status. Inserted with ON CONFLICT DO NOTHING before acting, so of two instances
 * receiving the same event at once exactly one acts. Rows older than the retention
 * (notifications/whatsapp-webhook.service.ts) are deleted; older events are refused by their
 * timestamp anyway.
 */
export const whatsappWebhookEvents = pgTable(
  'whatsapp_webhook_events',
  {
    key: text().primaryKey(),
    /** Meta's `timestamp` of the event. */
    sentAt: timestamp({ withTimezone: true }).notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('whatsapp_webhook_events_received_at_idx').on(table.receivedAt)],
);
