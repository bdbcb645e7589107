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

/** An e-mail about to be queued: to whom, of which type, when. */
export interface DigestUse {
  userId: string;
  type: NotificationType;
  at: number;
}

/**
 * Counts each e-mail in its type's window (usage_counters, inside the caller's transaction, so
 * every server process counts together and a rolled-back event is not counted), all in one
 * upsert however many people (issue #20). Returns, in order, null for an e-mail that may go now,
 * else when its digest goes (the window's end). Several e-mails to one person in one batch count
 * as if sent one after the other.
 */
export async function digestHolds(tx: Db, uses: readonly DigestUse[]): Promise<(Date | null)[]> {
  const counted = uses.flatMap((use, index) => {
    const policy = EMAIL_DIGEST_POLICIES[use.type];
    return policy
      ? [{ index, policy, key: `email-burst:${use.type}:${use.userId}`, at: use.at }]
      : [];
  });
  const windows = await createUsageCounter(tx).addMany(
    counted.map((use) => ({ key: use.key, amount: 1, windowMs: use.policy.windowMs, at: use.at })),
  );
  // The window's total covers the whole batch: the k-th of n uses of a key saw total - n + k.
  const slot = (key: string, start: Date) => `${start.toISOString()} ${key}`;
  const inBatch = new Map<string, number>();
  windows.forEach((window, i) => {
    const id = slot(counted[i]!.key, window.windowStart);
    inBatch.set(id, (inBatch.get(id) ?? 0) + 1);
  });
  const seen = new Map<string, number>();
  const holds: (Date | null)[] = uses.map(() => null);
  windows.forEach((window, i) => {
    const use = counted[i]!;
    const id = slot(use.key, window.windowStart);
    const k = (seen.get(id) ?? 0) + 1;
    seen.set(id, k);
    const used = window.used - inBatch.get(id)! + k;
    holds[use.index] = used > use.policy.max ? window.windowEnd : null;
  });
  return holds;
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
