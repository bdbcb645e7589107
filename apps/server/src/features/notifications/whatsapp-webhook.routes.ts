import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { WhatsAppChannel } from './channels/whatsapp';
import { WHATSAPP_ACCEPT, WHATSAPP_DECLINE } from './channels/whatsapp';
import type { WhatsAppWebhookEvent, WhatsAppWebhookService } from './whatsapp-webhook.service';

export interface WhatsAppWebhookOptions {
  whatsapp: WhatsAppChannel;
  verifyToken: string;
  webhook: WhatsAppWebhookService;
}

/** Meta's `timestamp`: Unix seconds as a string. */
const unixSeconds = z.string().regex(/^\d{1,12}$/);

/** The parts of the Cloud API's webhook this server reads; the rest is ignored. */
const webhookSchema = z.object({
  object: z.string().optional(),
  entry: z
    .array(
      z.object({
        changes: z
          .array(
            z.object({
              value: z
                .object({
                  messages: z
                    .array(
                      z.object({
                        id: z.string().min(1).max(256),
                        timestamp: unixSeconds,
                        from: z.string().regex(/^\d{6,20}$/),
                        type: z.string(),
                        text: z.object({ body: z.string().max(4096) }).optional(),
                        button: z
                          .object({ payload: z.string().max(256), text: z.string().max(256) })
                          .optional(),
                        interactive: z
                          .object({
                            button_reply: z
                              .object({ id: z.string().max(256), title: z.string().max(256) })
                              .optional(),
                          })
                          .optional(),
                      }),
                    )
                    .optional(),
                  statuses: z
                    .array(
                      z.object({
                        id: z.string().max(256),
                        status: z.string().max(32),
                        timestamp: unixSeconds,
                      }),
                    )
                    .optional(),
                })
                .passthrough(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A quick-reply payload `accept:<delivery id>` / `decline:<delivery id>`, or null. */
function parseButton(payload: string | undefined) {
  const [kind, deliveryId] = (payload ?? '').split(':');
  if (!deliveryId || !UUID.test(deliveryId)) return null;
  if (kind === WHATSAPP_ACCEPT) return { intent: 'accept' as const, deliveryId };
  if (kind === WHATSAPP_DECLINE) return { intent: 'decline' as const, deliveryId };
  return null;
}

/**
 * The WhatsApp Business webhook: GET is Meta's verify-token handshake; POST carries button
 * presses, typed replies and delivery statuses, accepted only with a valid X-Hub-Signature-256
 * (HMAC-SHA256 of the raw body with the app secret).
 */
export const whatsappWebhookRoutes: FastifyPluginAsyncZod<WhatsAppWebhookOptions> = async (
  app,
  { whatsapp, verifyToken, webhook },
) => {
  // The signature covers the exact bytes: keep them, parse after checking.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.get(
    '/api/v1/webhooks/whatsapp',
    {
      schema: {
        tags: ['notifications'],
        summary: 'WhatsApp webhook verification (Meta handshake)',
        description:
          'Answers `hub.challenge` when `hub.mode` is `subscribe` and `hub.verify_token` equals WHATSAPP_VERIFY_TOKEN; 403 otherwise.',
        querystring: z.object({
          'hub.mode': z.string().max(32).optional(),
          'hub.verify_token': z.string().max(256).optional(),
          'hub.challenge': z.string().max(256).optional(),
        }),
      },
    },
    async (request, reply) => {
      const query = request.query;
      if (
        query['hub.mode'] !== 'subscribe' ||
        query['hub.verify_token'] !== verifyToken ||
        !query['hub.challenge']
      ) {
        throw new AppError('FORBIDDEN', 'The verify token does not match.');
      }
      return reply.type('text/plain').send(query['hub.challenge']);
    },
  );

  app.post(
    '/api/v1/webhooks/whatsapp',
    {
      schema: {
        tags: ['notifications'],
        summary: 'WhatsApp webhook: button replies, messages and delivery statuses',
        description:
          'Signed by Meta: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET>`; ' +
          'a missing or wrong signature is 401 and nothing is read. "I can donate" / "Not now" answer the alert ' +
          'the button belongs to (exactly like the in-app buttons); STOP withdraws the WhatsApp consent; statuses ' +
          '(sent, delivered, read, failed) are stored on the delivery. Every message and status must carry ' +
          "Meta's `id` and `timestamp` (else 400). Each is acted on at most once: a replayed or retried " +
          'webhook (the same message id, or the same status of the same message) and an event whose ' +
          '`timestamp` is more than 15 minutes older than the server clock are answered 200 but not acted ' +
          'on (so Meta does not retry them); `data.handled` counts the messages acted on, `data.ignored` ' +
          'the events skipped. Message ids are remembered for 48 hours; the same holds across instances. When ' +
          'acting on an event fails (its answer cannot be sent), the reply is 500 and the event is not remembered, ' +
          "so Meta's retry is acted on.",
      },
    },
    async (request, reply) => {
      const raw = request.body;
      const signature = request.headers['x-hub-signature-256'];
      if (
        !Buffer.isBuffer(raw) ||
        !whatsapp.verifySignature(raw, typeof signature === 'string' ? signature : undefined)
      ) {
        throw new AppError('UNAUTHENTICATED', 'The webhook signature is missing or wrong.');
      }
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError('VALIDATION_ERROR', 'The webhook body is not JSON.');
      }
      const parsed = webhookSchema.safeParse(json);
      if (!parsed.success) throw new AppError('VALIDATION_ERROR', 'Unexpected webhook body.');
      const events: WhatsAppWebhookEvent[] = [];
      for (const entry of parsed.data.entry) {
        for (const change of entry.changes) {
          for (const status of change.value.statuses ?? []) {
            events.push({
              kind: 'status',
              id: status.id,
              status: status.status,
              timestamp: Number(status.timestamp),
            });
          }
          for (const message of change.value.messages ?? []) {
            const button =
              parseButton(message.button?.payload) ??
              parseButton(message.interactive?.button_reply?.id);
            events.push({
              kind: 'message',
              id: message.id,
              timestamp: Number(message.timestamp),
              reply: {
                channel: 'whatsapp',
                from: `+${message.from}`,
                text:
                  message.text?.body ??
                  message.button?.text ??
                  message.interactive?.button_reply?.title ??
                  '',
                deliveryId: button?.deliveryId ?? null,
                intent: button?.intent ?? null,
              },
            });
          }
        }
      }
      const { handled, ignored } = await webhook.handle(events);
      return reply.send({ success: true, data: { handled, ignored } });
    },
  );
};
