import type { PhoneChannel } from '@bdms/shared';
import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationDeliveries, users } from '../../db/schema';
import { withdrawConsent } from './consents';
import { renderReplyAnswer, replyIntent, type ReplyKind } from './channels/phone-texts';
import { mailLanguage } from './mail/templates';
import { localDate } from './templates';

/** What accepting or declining a request answered, from the blood-requests feature. */
export type RespondResult =
  | {
      outcome: 'accepted';
      contactName: string;
      contactPhone: string;
      hospital: string;
      address: string;
    }
  | { outcome: 'declined' }
  /**
   * An accept refused because the donor may not give blood now (issue #32 item 2), with the
   * date they may again (ISO) when one is known: nothing changed, no contact released.
   */
  | { outcome: 'not_eligible'; nextEligibleAt: string | null }
  /** Already answered, closed, or not this donor's: nothing changed. */
  | { outcome: 'late' };

export interface ReplyRouterDeps {
  db: Db;
  now: () => number;
  publicUrl: string;
  /**
   * The in-app accept/decline (the same service function, so the contact is released and the
   * requester told exactly as by the button). Composed in services.ts.
   */
  respond(
    userId: string,
    bloodRequestId: string,
    response: 'accepted' | 'declined',
  ): Promise<RespondResult>;
  /**
   * Sends the answer on the channel the reply came from; past the day's budget of answers it
   * sends nothing (services.ts, issue #32 item 8): the reply was acted on all the same.
   */
  answer(channel: PhoneChannel, to: string, text: string): Promise<void>;
}

export interface InboundReply {
  channel: PhoneChannel;
  /** E.164. */
  from: string;
  text: string;
  /** A WhatsApp button names the alert (its delivery id) it belongs to. */
  deliveryId?: string | null;
  /** A button's meaning, when pressed rather than typed. */
  intent?: 'accept' | 'decline' | null;
}

/**
 * Replies by SMS and WhatsApp. STOP withdraws that channel's consent at once; YES / "1" /
 * "I can donate" accepts and NO / "2" / "Not now" declines the ONE alert it answers: the alert
 * a button belongs to, or else the newest alert sent on that channel to that number. A late or
 * unknown reply gets a polite answer, never an error; every reply gets exactly one answer.
 */
export function createReplyRouter(deps: ReplyRouterDeps) {
  const { db, now } = deps;

  async function findAlert(reply: InboundReply) {
    const conditions = [
      eq(notificationDeliveries.channel, reply.channel),
      eq(notificationDeliveries.status, 'sent'),
      isNotNull(notificationDeliveries.bloodRequestId),
      // A donor alert; not a guest requester's message (which has no notification and no
      // question: YES to it must never answer the person's own request as a donor).
      isNotNull(notificationDeliveries.notificationId),
    ];
    if (reply.deliveryId) conditions.push(eq(notificationDeliveries.id, reply.deliveryId));
    else conditions.push(eq(notificationDeliveries.destination, reply.from));
    const [row] = await db
      .select({
        bloodRequestId: notificationDeliveries.bloodRequestId,
        destination: notificationDeliveries.destination,
        shortCode: notificationDeliveries.shortCode,
      })
      .from(notificationDeliveries)
      .where(and(...conditions))
      .orderBy(desc(notificationDeliveries.sentAt))
      .limit(1);
    // A button of an alert sent to another number is not this person's to press.
    if (!row || row.destination !== reply.from) return null;
    return row;
  }

  return {
    async handle(reply: InboundReply): Promise<ReplyKind> {
      const [user] = await db
        .select({ id: users.id, language: users.language })
        .from(users)
        // Issue #32 item 7: only an account whose number came back with its code owns a reply
        // from it; anyone can type a number into a profile. An unverified number is nobody's.
        .where(
          and(
            eq(users.phone, reply.from),
            isNull(users.deletedAt),
            isNotNull(users.phoneVerifiedAt),
          ),
        )
        .limit(1);
      const language = user?.language ?? 'en';
      const intent = reply.intent ?? replyIntent(reply.text);
      let kind: ReplyKind;
      let params: Record<string, string> = {};
      if (intent === 'stop') {
        // A guest requester's messages still waiting for this number on this channel are not
        // sent (they have no consent record to withdraw).
        await db
          .update(notificationDeliveries)
          .set({ status: 'skipped', lastError: 'The recipient replied STOP.' })
          .where(
            and(
              eq(notificationDeliveries.channel, reply.channel),
              eq(notificationDeliveries.destination, reply.from),
              eq(notificationDeliveries.status, 'queued'),
              isNull(notificationDeliveries.notificationId),
            ),
          );
      }
      if (!user) {
        kind = intent === 'stop' ? 'stopped' : 'unknown';
      } else if (intent === 'stop') {
        await withdrawConsent(db, user.id, reply.channel, 'reply', new Date(now()));
        kind = 'stopped';
      } else if (intent === 'unknown') {
        kind = 'unknown';
      } else {
        const alert = await findAlert(reply);
        if (!alert?.bloodRequestId) {
          kind = 'late';
        } else {
          const result = await deps.respond(
            user.id,
            alert.bloodRequestId,
            intent === 'accept' ? 'accepted' : 'declined',
          );
          kind = result.outcome;
          if (result.outcome === 'not_eligible' && result.nextEligibleAt) {
            params = { until: localDate(result.nextEligibleAt)(mailLanguage(language)) };
          }
          if (result.outcome === 'accepted') {
            params = {
              contactName: result.contactName,
              contactPhone: result.contactPhone,
              hospital: result.hospital,
              address: result.address,
              link: alert.shortCode
                ? `${deps.publicUrl}/r/${alert.shortCode}`
                : `${deps.publicUrl}/dashboard?request=${alert.bloodRequestId}`,
            };
          }
        }
      }
      await deps.answer(reply.channel, reply.from, renderReplyAnswer(kind, language, params));
      return kind;
    },
  };
}

export type ReplyRouter = ReturnType<typeof createReplyRouter>;
