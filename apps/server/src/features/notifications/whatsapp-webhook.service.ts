import type { Db } from '../../db/client';
import { createWhatsAppWebhookRepository } from './notifications.repository';
import type { InboundReply, ReplyRouter } from './replies';

/**
 * How old a signed event may be and still be acted on (issue #32 item 10). Meta delivers at
 * once and retries a failed delivery within seconds to minutes; an event older than this is a
 * replay (or a retry after a long outage, which the donor can simply send again) and is
 * acknowledged without being acted on. Events from the future (clock skew) are accepted: a
 * replay is always of the past.
 */
export const WHATSAPP_EVENT_MAX_AGE_MS = 15 * 60 * 1000;
/**
 * How long the ids of events acted on are kept. Longer than the window above, so every event
 * young enough to be acted on is still known if it comes again.
 */
export const WHATSAPP_EVENT_RETENTION_MS = 48 * 60 * 60 * 1000;

/** One inbound message or delivery status, as the route read it from the signed body. */
export type WhatsAppWebhookEvent =
  | {
      kind: 'message';
      /** Meta's message id (`wamid…`). */
      id: string;
      /** Meta's `timestamp`: Unix seconds. */
      timestamp: number;
      reply: InboundReply;
    }
  | {
      kind: 'status';
      /** The id of the message this status is about (ours, sent earlier). */
      id: string;
      status: string;
      timestamp: number;
    };

export interface WhatsAppWebhookServiceDeps {
  db: Db;
  now: () => number;
  replies: Pick<ReplyRouter, 'handle'>;
}

/**
 * Acts on the events of a signed WhatsApp webhook at most once each: an event is claimed by its
 * id in the database before it is acted on (a replay, Meta's retry or the same delivery reaching
 * a second instance finds the claim and is skipped), and an event whose timestamp is older than
 * WHATSAPP_EVENT_MAX_AGE_MS is not acted on at all. Both are acknowledged to Meta the same way,
 * so it does not retry them.
 */
export function createWhatsAppWebhookService(deps: WhatsAppWebhookServiceDeps) {
  const { now, replies } = deps;
  const repository = createWhatsAppWebhookRepository(deps.db);

  return {
    async handle(events: WhatsAppWebhookEvent[]) {
      const at = now();
      await repository.deleteEventsReceivedBefore(new Date(at - WHATSAPP_EVENT_RETENTION_MS));
      let handled = 0;
      let ignored = 0;
      for (const event of events) {
        const sentAt = event.timestamp * 1000;
        if (!Number.isFinite(sentAt) || at - sentAt > WHATSAPP_EVENT_MAX_AGE_MS) {
          ignored += 1;
          continue;
        }
        // A status is one event per (message, status): "delivered" and "read" of one message
        // are two, the same "read" twice is one.
        const key = event.kind === 'message' ? event.id : `${event.id}:${event.status}`;
        if (!(await repository.claimEvent(key, new Date(sentAt), new Date(at)))) {
          ignored += 1;
          continue;
        }
        try {
          if (event.kind === 'status') {
            await repository.recordDeliveryStatus(event.id, event.status, new Date(at));
          } else {
            await replies.handle(event.reply);
            handled += 1;
          }
        } catch (error) {
          // Not acted on: Meta's retry (the 500 below makes it retry) must find no claim.
          await repository.releaseEvent(key);
          throw error;
        }
      }
      return { handled, ignored };
    },
  };
}

export type WhatsAppWebhookService = ReturnType<typeof createWhatsAppWebhookService>;
