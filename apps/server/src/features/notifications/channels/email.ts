import { eq } from 'drizzle-orm';
import type { Config } from '../../../config/env';
import type { Db } from '../../../db/client';
import { notificationDeliveries, type NotificationDeliveryRow } from '../../../db/schema';
import { digestHoldUntil } from '../email-digest';
import type { Mailer } from '../mail/mailer';
import { renderNotificationMail } from '../mail/templates';
import type { Channel, DeliveryOutcome } from './channel';
import { loadNotification } from './notification-row';

export interface EmailChannelDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  now: () => number;
}

/**
 * E-mail for what a person must not miss, while the `emailNotifications` flag and the
 * administrators' `emailEnabled` setting are on. A delivery hands the message to the mail
 * outbox, which owns SMTP retries; a burst over a type's allowance waits for the digest.
 */
export function createEmailChannel(deps: EmailChannelDeps): Channel {
  const { db, now } = deps;
  return {
    name: 'email',

    async plan(event, { tx, settings, flag }) {
      if (!event.reachOut || !settings.emailEnabled || !(await flag('emailNotifications'))) {
        return [];
      }
      // Over its type's burst allowance, the e-mail waits for the digest at its window's end.
      const heldUntil = await digestHoldUntil(tx, event.userId, event.type, event.at.getTime());
      return [
        {
          notificationId: event.notificationId,
          channel: 'email' as const,
          ...(heldUntil
            ? { status: 'held' as const, nextAttemptAt: heldUntil }
            : { nextAttemptAt: event.at }),
          createdAt: event.at,
        },
      ];
    },

    async deliver(row: NotificationDeliveryRow): Promise<DeliveryOutcome> {
      const notification = await loadNotification(db, row.notificationId);
      if (!notification || notification.deletedAt) {
        return { status: 'failed', reason: 'The account no longer exists.' };
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
      return { status: 'handled' };
    },
  };
}
