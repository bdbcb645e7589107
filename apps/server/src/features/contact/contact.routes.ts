import { contactMessageSchema, contactReceiptSchema, successEnvelope } from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import type { ContactService } from './contact.service';

/** Per client address: a person writes a few times, a script many. */
export const CONTACT_RATE_LIMIT = { max: 5, timeWindow: '1 hour' } as const;

export interface ContactRoutesOptions {
  contact: ContactService;
}

export const contactRoutes: FastifyPluginAsyncZod<ContactRoutesOptions> = async (
  app,
  { contact },
) => {
  app.post(
    '/api/v1/contact',
    {
      config: { rateLimit: CONTACT_RATE_LIMIT },
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the team (contact form)',
        description:
          'Anyone, signed in or not. `name` 2–100 and `subject` 3–150 characters on one line, `email` where the ' +
          'reply goes, `message` 10–5000 characters. The message is stored and e-mailed (plain text, with an ' +
          'escaped HTML copy) to the support address (`SUPPORT_EMAIL`) through the mail outbox, with Reply-To set ' +
          "to the sender. The sender's address is personal data: it is never written to the logs, and messages are " +
          'deleted a year after they were dealt with (privacy policy). **Idempotent** by `X-Request-ID` (header ' +
          '`Idempotent-Replayed: true` on a replay). ' +
          `Rate limit: ${CONTACT_RATE_LIMIT.max} per hour per address.`,
        body: contactMessageSchema,
        response: {
          201: successEnvelope(contactReceiptSchema),
          ...errorResponses(400, 409, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const { receipt, replayed } = await contact.submit(request.body, requestMeta(request));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send({ success: true as const, data: receipt });
    },
  );
};
