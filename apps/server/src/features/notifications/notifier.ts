import { randomUUID } from 'node:crypto';
import type https from 'node:https';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { liveAdminIds } from '../../lib/admins';
import {
  notificationDeliveries,
  type DeliveryChannel,
  type NewNotificationRow,
  type NotificationDeliveryRow,
} from '../../db/schema';
import { createCoalescingRunner } from '../../lib/coalescing-runner';
import { safeErrorMessage } from '../../lib/db-errors';
import { readNotificationSettings } from '../../lib/notification-settings';
import type {
  Channel,
  DeliveryInsert,
  DeliveryOutcome,
  NotificationEvent,
  PlanContext,
  RequesterMessage,
} from './channels/channel';
import { createEmailChannel } from './channels/email';
import { createPushChannel, type PushSender } from './channels/push';
import { flagInTransaction } from '../flags/flag-in-transaction';
import { createDigestSender } from './email-digest';
import type { MailLogger, Mailer } from './mail/mailer';
import { writeNotificationBatch, type NotificationBatch } from './notification-batch';
import { readRecipients } from './recipients';
import { renderNotification, type NotificationParams, type NotificationType } from './templates';

export { PUSH_TTL_SECONDS, type PushSender } from './channels/push';

/** After the n-th failed attempt the next waits 30 s × 2^n; after the 8th it gives up. */
export const DELIVERY_MAX_ATTEMPTS = 8;
export const DELIVERY_RETRY_BASE_MS = 30_000;
/** A claimed delivery is not claimed again for this long, even if its process dies mid-send. */
export const DELIVERY_CLAIM_LEASE_MS = 5 * 60_000;
export const DELIVERY_POLL_INTERVAL_MS = 15_000;
const BATCH_SIZE = 20;
/** Rows of channels without a send window are attempted in this many lanes (see deliverDue). */
const SERIAL_LANES = 4;

/** A stable lane for a notification id (its rows stay together and in order). */
function laneOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i += 1) hash = (hash * 31 + id.charCodeAt(i)) | 0;
  return Math.abs(hash) % SERIAL_LANES;
}

export function deliveryRetryDelayMs(attempts: number): number {
  return DELIVERY_RETRY_BASE_MS * 2 ** attempts;
}

export interface NotifyInput {
  type: NotificationType;
  params?: NotificationParams;
  /** A path in the web app (`/dashboard`), or null. */
  link?: string | null;
  /**
   * Also outside the app, on the channels the person chose and the administrators switched on
   * (e-mail, SMS, WhatsApp): for what they must not miss (status changes, document verdicts,
   * matches). Which channels carry which types is each channel's business.
   */
  reachOut?: boolean;
  /** Never waits for quiet hours and may exceed a paid channel's daily budget. */
  critical?: boolean;
  /** What a reply to this notification (YES, "I can donate") answers. */
  subject?: { bloodRequestId: string };
}

/** One person to tell and what (each may differ: a match alert names the donor's distance). */
export interface NotifyRecipient {
  userId: string;
  input: NotifyInput;
}

export interface NotifierDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'vapid' | 'supportEmail'>;
  mail: Pick<Mailer, 'enqueue' | 'enqueueMany' | 'kick'>;
  logger?: MailLogger;
  now?: () => number;
  /** An https.Agent for the push requests (tests trust a self-signed fake push service). */
  pushAgent?: https.Agent;
  /** Replaces web-push entirely. */
  pushSender?: PushSender;
  /** Channels besides push and e-mail (SMS, WhatsApp), when configured. */
  channels?: Channel[];
  pollIntervalMs?: number;
}

const silentLogger: MailLogger = { info() {}, warn() {}, error() {} };

/**
 * Notifications: `notify` writes the in-app notification and, in the caller's transaction, the
 * delivery rows each channel owes for it, so the event and its announcement commit together.
 * A worker (timer, `FOR UPDATE SKIP LOCKED` lease, backoff) then makes each channel attempt its
 * rows. All state is in the database, so a restart loses nothing and a second server process
 * never sends the same delivery twice. Nothing here names a channel: they are a list.
 */
export function createNotifier(deps: NotifierDeps) {
  const { db } = deps;
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const pollIntervalMs = deps.pollIntervalMs ?? DELIVERY_POLL_INTERVAL_MS;
  const channels: Channel[] = [
    createPushChannel({
      db,
      config: deps.config,
      now,
      pushAgent: deps.pushAgent,
      pushSender: deps.pushSender,
      onGone: (details) => logger.info(details, 'push subscription gone; removed'),
    }),
    createEmailChannel({ db, config: deps.config, mail: deps.mail, now }),
    ...(deps.channels ?? []),
  ];
  const byName = new Map<DeliveryChannel, Channel>(channels.map((c) => [c.name, c]));

  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let stopped = false;

  /** A flag as the transaction sees it (PGlite runs one transaction at a time). */
  const readFlag = (tx: Db, key: Parameters<PlanContext['flag']>[0]) => flagInTransaction(tx, key);

  /**
   * What telling several people at once writes, in the caller's transaction, in a constant
   * number of statements however many they are (issue #20): one read of every recipient (with
   * their push subscriptions and phone consents) and each channel's batch planning (the e-mail
   * burst counter: one upsert). Its rows go in one statement (notification-batch.ts), on their
   * own or with the caller's own write (a new blood request).
   */
  async function planMany(
    tx: Db,
    recipients: readonly NotifyRecipient[],
  ): Promise<NotificationBatch> {
    const ids: (string | null)[] = recipients.map(() => null);
    if (recipients.length === 0) return { ids, notifications: [], deliveries: [] };
    const people = await readRecipients(
      tx,
      recipients.map((recipient) => recipient.userId),
    );
    const at = new Date(now());
    const told = recipients.flatMap(({ userId, input }, index) => {
      const person = people.get(userId);
      if (!person || person.deletedAt) return [];
      // Ids from here, so each notification is matched to its recipient without relying on
      // the order RETURNING gives them back in.
      return [{ index, userId, input, person, notificationId: randomUUID() }];
    });
    if (told.length === 0) return { ids, notifications: [], deliveries: [] };
    const inApp: NewNotificationRow[] = told.map(({ userId, input, person, notificationId }) => {
      const text = renderNotification(input.type, person.language, input.params);
      return {
        id: notificationId,
        userId,
        type: input.type,
        title: text.title,
        message: text.message,
        link: input.link ?? null,
        readAt: null,
        createdAt: at,
      };
    });
    for (const { index, notificationId } of told) ids[index] = notificationId;
    // The in-app notification is always written; each channel decides what it owes. A demo
    // account (the mockData flag) gets the in-app row only: no push, e-mail, SMS or WhatsApp is
    // ever queued for it (docs/decisions/010-demo-data.md).
    const events: NotificationEvent[] = told
      .filter(({ person }) => !person.isDemo)
      .map(({ userId, input, person, notificationId }) => ({
        notificationId,
        userId,
        type: input.type,
        params: input.params ?? {},
        link: input.link ?? null,
        reachOut: input.reachOut ?? false,
        critical: input.critical ?? false,
        bloodRequestId: input.subject?.bloodRequestId ?? null,
        user: {
          language: person.language,
          phone: person.phone,
          pushSubscriptionIds: person.pushSubscriptionIds,
          consents: person.consents,
        },
        at,
      }));
    if (events.length === 0) return { ids, notifications: inApp, deliveries: [] };
    const context: PlanContext = {
      tx,
      settings: await readNotificationSettings(tx),
      flag: (key) => readFlag(tx, key),
    };
    // Per channel, one list of rows per event.
    const planned: DeliveryInsert[][][] = [];
    for (const channel of channels) {
      if (channel.planMany) {
        planned.push(await channel.planMany(events, context));
        continue;
      }
      const rows: DeliveryInsert[][] = [];
      for (const event of events) rows.push(await channel.plan(event, context));
      planned.push(rows);
    }
    // Event by event, channels in their order (as one notify after another would queue them).
    const deliveries = events.flatMap((_, i) => planned.flatMap((rows) => rows[i] ?? []));
    return { ids, notifications: inApp, deliveries };
  }

  /**
   * Tells several people at once, in the caller's transaction: `planMany`, then its rows in one
   * statement. Resolves with each recipient's notification id, in order; null for a deleted or
   * unknown account, which is told nothing.
   */
  async function notifyMany(
    tx: Db,
    recipients: readonly NotifyRecipient[],
  ): Promise<(string | null)[]> {
    const batch = await planMany(tx, recipients);
    await writeNotificationBatch(tx, batch);
    return batch.ids;
  }

  /** Tells one person (see notifyMany): their notification id, or null for a deleted account. */
  async function notify(tx: Db, userId: string, input: NotifyInput): Promise<string | null> {
    const [id] = await notifyMany(tx, [{ userId, input }]);
    return id ?? null;
  }

  /**
   * Queues a guest requester's message in the caller's transaction on ONE channel: the first
   * in the list that owes it (SMS before WhatsApp). Not both: it is one person waiting on one
   * phone, a second copy would cost twice against the budgets, and SMS reaches every phone
   * without an app. Resolves with the channel chosen, or null when none is on.
   */
  async function messageRequester(
    tx: Db,
    message: RequesterMessage,
  ): Promise<DeliveryChannel | null> {
    const context: PlanContext = {
      tx,
      settings: await readNotificationSettings(tx),
      flag: (key) => readFlag(tx, key),
    };
    for (const channel of channels) {
      const rows = (await channel.planRequester?.(message, context)) ?? [];
      if (rows.length === 0) continue;
      if (await message.alreadySent?.()) return null;
      await tx.insert(notificationDeliveries).values(rows);
      return channel.name;
    }
    return null;
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
    status: 'gone' | 'failed' | 'skipped',
    lastError: string,
  ) {
    await db
      .update(notificationDeliveries)
      .set({ status, lastError: lastError.slice(0, 500), sentAt: null })
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

  async function apply(row: NotificationDeliveryRow, outcome: DeliveryOutcome) {
    switch (outcome.status) {
      case 'handled':
        return;
      case 'retry':
        await retryLater(row, outcome.reason);
        return;
      case 'sent':
        await db
          .update(notificationDeliveries)
          .set({
            status: 'sent',
            lastError: null,
            sentAt: new Date(now()),
            providerMessageId: outcome.providerMessageId ?? null,
            overBudget: outcome.overBudget ?? false,
          })
          .where(eq(notificationDeliveries.id, row.id));
        return;
      default:
        await finish(row, outcome.status, outcome.reason);
    }
  }

  async function deliver(row: NotificationDeliveryRow) {
    try {
      const channel = byName.get(row.channel);
      if (!channel) {
        // A channel this process was started without (not configured here): try again later.
        await retryLater(row, `The ${row.channel} channel is not configured.`);
        return;
      }
      await apply(row, await channel.deliver(row));
    } catch (error) {
      // Stored and logged: a failed statement's values stay out (#32 item 18).
      await retryLater(row, safeErrorMessage(error));
    }
  }

  async function deliverTogether(channel: Channel, rows: readonly NotificationDeliveryRow[]) {
    let outcomes: DeliveryOutcome[];
    try {
      outcomes = await channel.deliverMany!(rows);
    } catch (error) {
      const reason = safeErrorMessage(error);
      for (const row of rows) await retryLater(row, reason);
      return;
    }
    for (const [i, row] of rows.entries()) {
      await apply(row, outcomes[i] ?? { status: 'retry', reason: 'No outcome for this row.' });
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
      // Channels with a send window take their rows side by side. A channel that attempts rows
      // together (e-mail) takes all of its rows in one attempt: a verification's twenty e-mails
      // are a handful of statements, done before the next emergency's are claimed (issue #20).
      // The others (push) go in SERIAL_LANES lanes, one by one in each, so they do not take
      // every pooled connection; a notification's rows stay in one lane, in queued order.
      const side = rows.filter((row) => byName.get(row.channel)?.concurrent);
      const together = new Map<Channel, NotificationDeliveryRow[]>();
      const lanes: NotificationDeliveryRow[][] = Array.from({ length: SERIAL_LANES }, () => []);
      for (const row of rows) {
        const channel = byName.get(row.channel);
        if (channel?.concurrent) continue;
        if (channel?.deliverMany) {
          const batch = together.get(channel) ?? [];
          batch.push(row);
          together.set(channel, batch);
        } else lanes[laneOf(row.notificationId ?? row.id)]!.push(row);
      }
      await Promise.all([
        Promise.all(side.map(deliver)),
        ...[...together].map(([channel, batch]) => deliverTogether(channel, batch)),
        ...lanes.map(async (lane) => {
          for (const row of lane) await deliver(row);
        }),
      ]);
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
    notifyMany,
    planMany,
    messageRequester,

    /** Tells every live administrator (in-app and push; admins read e-mail elsewhere). */
    async notifyAdmins(tx: Db, input: NotifyInput): Promise<number> {
      const admins = await liveAdminIds(tx);
      await notifyMany(
        tx,
        admins.map((userId) => ({ userId, input: { ...input, reachOut: false } })),
      );
      return admins.length;
    },

    deliverDue,
    /** Starts a delivery run now (after the caller's transaction committed). */
    kick,

    /** The channels, for their health in the admin console. */
    channels: channels as readonly Channel[],

    /** Opens the channels' links (SMPP), so replies arrive even without the worker. */
    startChannels(): void {
      if (stopped) return;
      for (const channel of channels) channel.start?.();
    },

    /** Starts the retry timer and the channels' links (idempotent). */
    start(): void {
      if (started || stopped) return;
      started = true;
      for (const channel of channels) channel.start?.();
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
      for (const channel of channels) await channel.stop?.();
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
