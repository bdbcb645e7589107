import type https from 'node:https';
import { FEATURE_FLAG_DEFAULTS } from '@bdms/shared';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import {
  featureFlags,
  notificationDeliveries,
  notifications,
  pushSubscriptions,
  users,
  type NotificationDeliveryRow,
} from '../../db/schema';
import type { MailLogger, Mailer } from './mail/mailer';
import { renderNotificationMail } from './mail/templates';
import { readNotificationSettings } from '../../lib/notification-settings';
import { renderNotification, type NotificationParams, type NotificationType } from './templates';
import { createCoalescingRunner } from '../../lib/coalescing-runner';
import { createDigestSender, digestHoldUntil } from './email-digest';

/** After the n-th failed attempt the next waits 30 s × 2^n; after the 8th it gives up. */
export const DELIVERY_MAX_ATTEMPTS = 8;
export const DELIVERY_RETRY_BASE_MS = 30_000;
/** A claimed delivery is not claimed again for this long, even if its process dies mid-send. */
export const DELIVERY_CLAIM_LEASE_MS = 5 * 60_000;
export const DELIVERY_POLL_INTERVAL_MS = 15_000;
/** How long a push service keeps a message for an offline browser. */
export const PUSH_TTL_SECONDS = 24 * 3600;
const BATCH_SIZE = 20;

export function deliveryRetryDelayMs(attempts: number): number {
  return DELIVERY_RETRY_BASE_MS * 2 ** attempts;
}

export interface NotifyInput {
  type: NotificationType;
  params?: NotificationParams;
  /** A path in the web app (`/dashboard`), or null. */
  link?: string | null;
  /**
   * Also by e-mail (through the mail outbox) while the `emailNotifications` flag and the
   * administrators' `emailEnabled` setting are on: for what a donor must not miss (status
   * changes, document verdicts, matches).
   */
  email?: boolean;
}

/** Sends one Web Push message; web-push in production. */
export type PushSender = (
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
) => Promise<void>;

export interface NotifierDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'vapid' | 'supportEmail'>;
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  logger?: MailLogger;
  now?: () => number;
  /** An https.Agent for the push requests (tests trust a self-signed fake push service). */
  pushAgent?: https.Agent;
  /** Replaces web-push entirely. */
  pushSender?: PushSender;
  pollIntervalMs?: number;
}

const silentLogger: MailLogger = { info() {}, warn() {}, error() {} };

/** The status a push service answered with, when it did. */
function pushStatus(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : null;
}

/**
 * Notifications: `notify` writes the in-app notification and one delivery row per channel in
 * the caller's transaction, so the event and its announcement commit together. A worker
 * (timer, `FOR UPDATE SKIP LOCKED` lease, backoff) then sends web push to each of the user's
 * subscriptions and hands e-mails to the mail outbox. All state is in the database, so a
 * restart loses nothing and a second server process never sends the same delivery twice.
 */
export function createNotifier(deps: NotifierDeps) {
  const { db } = deps;
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const pollIntervalMs = deps.pollIntervalMs ?? DELIVERY_POLL_INTERVAL_MS;
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

  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let stopped = false;

  /**
   * The flag as the transaction sees it. Read through `tx`, not the flags service: PGlite runs
   * one transaction at a time, so a query outside it would wait for it forever.
   */
  async function isEmailOn(tx: Db): Promise<boolean> {
    const [row] = await tx
      .select({ enabled: featureFlags.enabled })
      .from(featureFlags)
      .where(eq(featureFlags.key, 'emailNotifications'))
      .limit(1);
    return row?.enabled ?? FEATURE_FLAG_DEFAULTS.emailNotifications;
  }

  async function notify(tx: Db, userId: string, input: NotifyInput): Promise<string | null> {
    const [user] = await tx
      .select({ language: users.language, deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user || user.deletedAt) return null;
    const text = renderNotification(input.type, user.language, input.params);
    const at = new Date(now());
    const [row] = await tx
      .insert(notifications)
      .values({
        userId,
        type: input.type,
        title: text.title,
        message: text.message,
        link: input.link ?? null,
        createdAt: at,
      })
      .returning({ id: notifications.id });
    if (!row) throw new Error('notifications insert returned no row');
    // The in-app notification is always written; the administrators' settings switch the
    // push and e-mail channels (read through the transaction, like the flag).
    const settings = await readNotificationSettings(tx);
    const subscriptions = settings.pushEnabled
      ? await tx
          .select({ id: pushSubscriptions.id })
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.userId, userId))
      : [];
    const deliveries: (typeof notificationDeliveries.$inferInsert)[] = subscriptions.map((sub) => ({
      notificationId: row.id,
      channel: 'push' as const,
      pushSubscriptionId: sub.id,
      nextAttemptAt: at,
      createdAt: at,
    }));
    if (input.email && settings.emailEnabled && (await isEmailOn(tx))) {
      // Over its type's burst allowance, the e-mail waits for the digest at its window's end.
      const heldUntil = await digestHoldUntil(tx, userId, input.type, at.getTime());
      deliveries.push({
        notificationId: row.id,
        channel: 'email',
        ...(heldUntil
          ? { status: 'held' as const, nextAttemptAt: heldUntil }
          : { nextAttemptAt: at }),
        createdAt: at,
      });
    }
    if (deliveries.length > 0) await tx.insert(notificationDeliveries).values(deliveries);
    return row.id;
  }

  async function claimDue(): Promise<NotificationDeliveryRow[]> {
    const at = new Date(now());
    const due = db
      .select({ id: notificationDeliveries.id })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.status, 'queued'),
          lte(notificationDeliveries.nextAttemptAt, at),
        ),
      )
      .orderBy(asc(notificationDeliveries.nextAttemptAt))
      .limit(BATCH_SIZE)
      .for('update', { skipLocked: true });
    // Claiming moves next_attempt_at past a lease, so other processes skip the row meanwhile.
    const rows = await db
      .update(notificationDeliveries)
      .set({
        nextAttemptAt: new Date(at.getTime() + DELIVERY_CLAIM_LEASE_MS),
        attempts: sql`${notificationDeliveries.attempts} + 1`,
      })
      .where(
        and(inArray(notificationDeliveries.id, due), eq(notificationDeliveries.status, 'queued')),
      )
      .returning();
    return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  async function finish(
    row: NotificationDeliveryRow,
    status: 'sent' | 'gone' | 'failed',
    lastError: string | null = null,
  ) {
    await db
      .update(notificationDeliveries)
      .set({ status, lastError, sentAt: status === 'sent' ? new Date(now()) : null })
      .where(eq(notificationDeliveries.id, row.id));
  }

  async function retryLater(row: NotificationDeliveryRow, reason: string) {
    const giveUp = row.attempts >= DELIVERY_MAX_ATTEMPTS;
    await db
      .update(notificationDeliveries)
      .set({
        status: giveUp ? 'failed' : 'queued',
        lastError: reason.slice(0, 500),
        nextAttemptAt: new Date(now() + (giveUp ? 0 : deliveryRetryDelayMs(row.attempts))),
      })
      .where(eq(notificationDeliveries.id, row.id));
    logger.warn(
      { deliveryId: row.id, channel: row.channel, attempts: row.attempts, reason, gaveUp: giveUp },
      giveUp
        ? 'notification delivery failed; giving up'
        : 'notification delivery failed; will retry',
    );
  }

  async function loadNotification(id: string) {
    const [row] = await db
      .select({
        id: notifications.id,
        type: notifications.type,
        title: notifications.title,
        message: notifications.message,
        link: notifications.link,
        userId: users.id,
        email: users.email,
        fullName: users.fullName,
        language: users.language,
        deletedAt: users.deletedAt,
      })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.userId))
      .where(eq(notifications.id, id))
      .limit(1);
    return row;
  }

  async function deliverPush(row: NotificationDeliveryRow) {
    const [subscription] = row.pushSubscriptionId
      ? await db
          .select()
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.id, row.pushSubscriptionId))
          .limit(1)
      : [];
    const notification = await loadNotification(row.notificationId);
    if (!subscription || !notification || notification.deletedAt) {
      await finish(row, 'gone', 'The push subscription no longer exists.');
      return;
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
      await finish(row, 'sent');
    } catch (error) {
      const status = pushStatus(error);
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: forget it for good.
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
        await finish(row, 'gone', `The push service answered ${status}.`);
        logger.info({ deliveryId: row.id, status }, 'push subscription gone; removed');
        return;
      }
      const reason =
        status !== null
          ? `The push service answered ${status}.`
          : error instanceof Error
            ? error.message
            : String(error);
      await retryLater(row, reason);
    }
  }

  async function deliverEmail(row: NotificationDeliveryRow) {
    const notification = await loadNotification(row.notificationId);
    if (!notification || notification.deletedAt) {
      await finish(row, 'failed', 'The account no longer exists.');
      return;
    }
    const mail = renderNotificationMail({
      language: notification.language,
      name: notification.fullName,
      title: notification.title,
      message: notification.message,
      link: notification.link ? `${deps.config.publicUrl}${notification.link}` : null,
      publicUrl: deps.config.publicUrl,
    });
    // Handing over to the outbox and marking the delivery sent commit together; the outbox
    // then owns SMTP retries.
    await db.transaction(async (tx) => {
      await deps.mail.enqueue(
        {
          to: notification.email,
          userId: notification.userId,
          kind: `notification:${notification.type}`,
          ...mail,
        },
        tx,
      );
      await tx
        .update(notificationDeliveries)
        .set({ status: 'sent', sentAt: new Date(now()), lastError: null })
        .where(eq(notificationDeliveries.id, row.id));
    });
    deps.mail.kick();
  }

  async function deliver(row: NotificationDeliveryRow) {
    try {
      if (row.channel === 'push') await deliverPush(row);
      else await deliverEmail(row);
    } catch (error) {
      await retryLater(row, error instanceof Error ? error.message : String(error));
    }
  }

  const sendDueDigests = createDigestSender({ db, config: deps.config, mail: deps.mail, now });

  /**
   * Sends every due delivery once, and the digests whose window has ended; resolves with how
   * many deliveries were attempted.
   */
  async function deliverDue(): Promise<number> {
    // A digest that cannot be sent now is tried again next run; deliveries go on meanwhile.
    await sendDueDigests().catch((error: unknown) =>
      logger.error({ err: error }, 'sending e-mail digests failed'),
    );
    let count = 0;
    for (;;) {
      const rows = await claimDue();
      for (const row of rows) await deliver(row);
      count += rows.length;
      if (rows.length < BATCH_SIZE || stopped) return count;
    }
  }

  const runner = createCoalescingRunner({
    run: deliverDue,
    canRun: () => started && !stopped,
    onError: (error) => logger.error({ err: error }, 'notification delivery run failed'),
  });
  const kick = runner.kick;

  return {
    notify,

    /** Tells every live administrator (in-app and push; admins read e-mail elsewhere). */
    async notifyAdmins(tx: Db, input: NotifyInput): Promise<number> {
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
      for (const admin of admins) await notify(tx, admin.id, { ...input, email: false });
      return admins.length;
    },

    deliverDue,
    /** Starts a delivery run now (after the caller's transaction committed). */
    kick,

    /** Starts the retry timer (idempotent). */
    start(): void {
      if (started || stopped) return;
      started = true;
      timer = setInterval(kick, pollIntervalMs);
      timer.unref();
      kick();
    },

    async idle(): Promise<void> {
      await runner.idle();
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await runner.idle();
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
