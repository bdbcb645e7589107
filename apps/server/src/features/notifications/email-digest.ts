import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { notificationDeliveries, notifications, users } from '../../db/schema';
import type { Mailer } from './mail/mailer';
import { renderDigestMail } from './mail/templates';
import { createUsageCounter } from '../../lib/usage-counter';
import type { NotificationType } from './templates';

export interface DigestPolicy {
  /** E-mails of this type one person gets one by one in a window; the rest wait for the digest. */
  max: number;
  windowMs: number;
}

/**
 * E-mail types that come in bursts. A wave of Critical requests (a road accident, a festival
 * weekend) would otherwise bury every administrator's inbox: the first `max` in a window go one by
 * one, the rest go together in one digest at the end of the window. In-app notifications and
 * push are not affected: they still go out one by one.
 */
export const EMAIL_DIGEST_POLICIES: Partial<Record<NotificationType, DigestPolicy>> = {
  'blood_request.critical': { max: 3, windowMs: 10 * 60_000 },
};

/** At most this many held e-mails are digested per run (the next run takes the rest). */
const DIGEST_BATCH = 200;

/**
 * Counts an e-mail of `type` to `userId` in its window (usage_counters, inside the caller's
 * transaction, so every server process counts together and a rolled-back event is not counted).
 * Returns null when it may go now, else when the digest goes (the window's end).
 */
export async function digestHoldUntil(
  tx: Db,
  userId: string,
  type: NotificationType,
  at: number,
): Promise<Date | null> {
  const policy = EMAIL_DIGEST_POLICIES[type];
  if (!policy) return null;
  const window = await createUsageCounter(tx).add(
    `email-burst:${type}:${userId}`,
    1,
    policy.windowMs,
    at,
  );
  return window.used > policy.max ? window.windowEnd : null;
}

export interface DigestSenderDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  now: () => number;
}

/**
 * Sends the digests that are due: held e-mail deliveries whose window has ended, one e-mail per
 * person and type with every held message, in the person's language. Claimed with
 * `FOR UPDATE SKIP LOCKED` and marked `digested` in the transaction that writes the e-mail to
 * the outbox, so with several server processes each digest is sent once.
 */
export function createDigestSender(deps: DigestSenderDeps) {
  const { db, now } = deps;

  return async function sendDueDigests(): Promise<number> {
    const sent = await db.transaction(async (tx) => {
      const at = new Date(now());
      const due = await tx
        .select({ id: notificationDeliveries.id })
        .from(notificationDeliveries)
        .where(
          and(
            eq(notificationDeliveries.status, 'held'),
            lte(notificationDeliveries.nextAttemptAt, at),
          ),
        )
        .orderBy(asc(notificationDeliveries.nextAttemptAt))
        .limit(DIGEST_BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return 0;
      const held = await tx
        .select({
          deliveryId: notificationDeliveries.id,
          type: notifications.type,
          title: notifications.title,
          message: notifications.message,
          link: notifications.link,
          createdAt: notifications.createdAt,
          userId: users.id,
          email: users.email,
          fullName: users.fullName,
          language: users.language,
          deletedAt: users.deletedAt,
        })
        .from(notificationDeliveries)
        .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
        .innerJoin(users, eq(users.id, notifications.userId))
        .where(
          inArray(
            notificationDeliveries.id,
            due.map((row) => row.id),
          ),
        )
        .orderBy(asc(notifications.createdAt));
      const groups = new Map<string, typeof held>();
      for (const row of held) {
        const key = `${row.userId} ${row.type}`;
        groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      let mails = 0;
      for (const rows of groups.values()) {
        const first = rows[0]!;
        const ids = rows.map((row) => row.deliveryId);
        if (first.deletedAt) {
          await tx
            .update(notificationDeliveries)
            .set({ status: 'failed', lastError: 'The account no longer exists.' })
            .where(inArray(notificationDeliveries.id, ids));
          continue;
        }
        const policy = EMAIL_DIGEST_POLICIES[first.type as NotificationType];
        const mail = renderDigestMail({
          language: first.language,
          name: first.fullName,
          title: first.title,
          messages: rows.map((row) => row.message),
          minutes: Math.round((policy?.windowMs ?? 0) / 60_000),
          link: first.link ? `${deps.config.publicUrl}${first.link}` : null,
          publicUrl: deps.config.publicUrl,
        });
        await deps.mail.enqueue(
          { to: first.email, userId: first.userId, kind: `digest:${first.type}`, ...mail },
          tx,
        );
        await tx
          .update(notificationDeliveries)
          .set({ status: 'digested', sentAt: at, lastError: null })
          .where(inArray(notificationDeliveries.id, ids));
        mails += 1;
      }
      return mails;
    });
    if (sent > 0) deps.mail.kick();
    return sent;
  };
}
