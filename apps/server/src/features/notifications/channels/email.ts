import { inArray } from 'drizzle-orm';
import type { Config } from '../../../config/env';
import type { Db } from '../../../db/client';
import { notificationDeliveries, type NotificationDeliveryRow } from '../../../db/schema';
import { digestHolds } from '../email-digest';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import { renderNotificationMail } from '../mail/templates';
import type { Channel, DeliveryOutcome } from './channel';
import { loadNotifications } from './notification-row';

export interface EmailChannelDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mail: Pick<Mailer, 'enqueueMany' | 'kick'>;
  now: () => number;
}

/**
 * E-mail for what a person must not miss, while the `emailNotifications` flag and the
 * administrators' `emailEnabled` setting are on. A delivery hands the message to the mail
 * outbox, which owns SMTP retries; a burst over a type's allowance waits for the digest.
 */
export function createEmailChannel(deps: EmailChannelDeps): Channel {
  const { db, now } = deps;

  const planMany: NonNullable<Channel['planMany']> = async (events, { tx, settings, flag }) => {
    const wanted = events.filter((event) => event.reachOut);
    if (wanted.length === 0 || !settings.emailEnabled || !(await flag('emailNotifications'))) {
      return events.map(() => []);
    }
    // Over its type's burst allowance, an e-mail waits for the digest at its window's end;
    // every recipient is counted in one statement.
    const holds = await digestHolds(
      tx,
      wanted.map((event) => ({ userId: event.userId, type: event.type, at: event.at.getTime() })),
    );
    const heldUntil = new Map(wanted.map((event, i) => [event, holds[i] ?? null]));
    return events.map((event) => {
      if (!event.reachOut) return [];
      const hold = heldUntil.get(event) ?? null;
      return [
        {
          notificationId: event.notificationId,
          channel: 'email' as const,
          ...(hold
            ? { status: 'held' as const, nextAttemptAt: hold }
            : { nextAttemptAt: event.at }),
          createdAt: event.at,
        },
      ];
    });
  };

  /**
   * Hands a batch to the mail outbox: the notifications and their people in one statement, then
   * every message and every row marked sent in one transaction (the outbox then owns SMTP
   * retries). A verification's twenty e-mails cost three statements and one BEGIN/COMMIT, where
   * one by one they cost sixty and forty (issue #20).
   */
  async function deliverMany(rows: readonly NotificationDeliveryRow[]): Promise<DeliveryOutcome[]> {
    const found = await loadNotifications(
      db,
      rows.flatMap((row) => (row.notificationId ? [row.notificationId] : [])),
    );
    const outcomes: DeliveryOutcome[] = [];
    const sending: { row: NotificationDeliveryRow; mail: OutgoingMail }[] = [];
    for (const row of rows) {
      const notification = row.notificationId ? found.get(row.notificationId) : undefined;
      if (!notification || notification.deletedAt) {
        outcomes.push({ status: 'failed', reason: 'The account no longer exists.' });
        continue;
      }
      let rendered: ReturnType<typeof renderNotificationMail>;
      try {
        rendered = renderNotificationMail({
          language: notification.language,
          name: notification.fullName,
          title: notification.title,
          message: notification.message,
          link: notification.link ? `${deps.config.publicUrl}${notification.link}` : null,
          publicUrl: deps.config.publicUrl,
        });
      } catch (error) {
        // One message that cannot be written waits alone; the batch goes on.
        outcomes.push({
          status: 'retry',
          reason: error instanceof Error ? error.message : String(error),
        });
        continue;
      }
      outcomes.push({ status: 'handled' });
      sending.push({
        row,
        mail: {
          to: notification.email,
          userId: notification.userId,
          kind: `notification:${notification.type}`,
          ...rendered,
        },
      });
    }
    if (sending.length === 0) return outcomes;
    await db.transaction(async (tx) => {
      await deps.mail.enqueueMany(
        sending.map(({ mail }) => mail),
        tx,
      );
      await tx
        .update(notificationDeliveries)
        .set({ status: 'sent', sentAt: new Date(now()), lastError: null })
        .where(
          inArray(
            notificationDeliveries.id,
            sending.map(({ row }) => row.id),
          ),
        );
    });
    deps.mail.kick();
    return outcomes;
  }

  return {
    name: 'email',

    async plan(event, context) {
      const [rows] = await planMany([event], context);
      return rows ?? [];
    },

    planMany,

    async deliver(row: NotificationDeliveryRow): Promise<DeliveryOutcome> {
      const [outcome] = await deliverMany([row]);
      return outcome!;
    },

    deliverMany,
  };
}
