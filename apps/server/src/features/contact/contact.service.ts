import { createHmac } from 'node:crypto';
import type { ContactMessage, ContactReceipt } from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { createActivityLog } from '../../lib/activity-log';
import { fingerprint, type Idempotency } from '../../lib/idempotency';
import type { Mailer } from '../notifications/mail/mailer';
import type { RequestMeta } from '../../lib/request-context';
import { renderContactMail } from './contact.mail';
import { createContactRepository } from './contact.repository';

export const CONTACT_ROUTE_KEY = 'POST /api/v1/contact';
/** The privacy policy: "Up to 1 year after we have dealt with them". */
export const CONTACT_RETENTION_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * The client address, kept only as a keyed hash: enough to see that many messages came from one
 * place, not enough to recover the address.
 */
export function hashAddress(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`contact-ip:${address}`).digest('hex');
}

export interface ContactServiceDeps {
  db: Db;
  mail: Pick<Mailer, 'enqueue' | 'kick'>;
  idempotency: Idempotency;
  config: Pick<Config, 'supportEmail' | 'jwtSecret' | 'publicUrl'>;
  now?: () => number;
}

export function createContactService(deps: ContactServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  /** The message, its e-mail (outbox) and the activity entry, in one transaction. */
  async function store(tx: Db, input: ContactMessage, meta: RequestMeta): Promise<ContactReceipt> {
    const receivedAt = new Date(now());
    const { id } = await createContactRepository(tx).insert({
      ...input,
      ipHash: hashAddress(meta.ip, deps.config.jwtSecret),
      createdAt: receivedAt,
    });
    await deps.mail.enqueue(
      renderContactMail({
        to: deps.config.supportEmail,
        message: input,
        id,
        receivedAt,
        publicUrl: deps.config.publicUrl,
      }),
      tx,
    );
    // No personal data in the trail: the message itself is the record.
    await createActivityLog(tx).record({
      action: 'contact.received',
      targetType: 'contact_message',
      targetId: id,
      requestId: meta.requestId,
    });
    return { received: true, id };
  }

  return {
    /**
     * Stores a contact form message and e-mails it to SUPPORT_EMAIL (Reply-To: the sender).
     * Idempotent by X-Request-ID: a retry returns the first receipt and sends nothing again.
     */
    async submit(
      input: ContactMessage,
      meta: RequestMeta,
    ): Promise<{ receipt: ContactReceipt; replayed: boolean }> {
      await createContactRepository(db).deleteDealtWithBefore(
        new Date(now() - CONTACT_RETENTION_MS),
      );
      if (!meta.idempotencyKey) {
        const receipt = await db.transaction((tx) => store(tx, input, meta));
        deps.mail.kick();
        return { receipt, replayed: false };
      }
      const reply = await deps.idempotency.run(
        {
          key: meta.idempotencyKey,
          route: CONTACT_ROUTE_KEY,
          requestHash: fingerprint(input, deps.config.jwtSecret),
        },
        async (tx) => ({ statusCode: 201, body: await store(tx, input, meta) }),
      );
      if (!reply.replayed) deps.mail.kick();
      return { receipt: reply.body as ContactReceipt, replayed: reply.replayed };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
