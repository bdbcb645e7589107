import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import type { Config } from '../../../config/env';
import type { Db } from '../../../db/client';
import { mailOutbox, type MailOutboxRow } from '../../../db/schema';
import { createCoalescingRunner } from '../../../lib/coalescing-runner';
import { safeErrorMessage } from '../../../lib/db-errors';

/** After the n-th failed attempt the next one waits 1 minute × 2^(n−1); after the 8th, it gives up. */
export const MAIL_MAX_ATTEMPTS = 8;
export const MAIL_RETRY_BASE_MS = 60_000;
/**
 * A claimed row is not claimed again for this long, even if its process dies mid-send. Renewed
 * before each message of a batch (a send takes at most ~50 s: the SMTP timeouts below), so a
 * message claimed by a killed instance is retried within about 1½ minutes (lease + poll), well
 * inside a sign-in code's 10 minutes (issue #19).
 */
export const MAIL_CLAIM_LEASE_MS = 60_000;
export const MAIL_POLL_INTERVAL_MS = 30_000;
const BATCH_SIZE = 20;

export interface OutgoingMail {
  to: string;
  /** The account the message concerns (erased with it). */
  userId?: string | null;
  /** A short machine name: `login_otp`, `password_reset`, … */
  kind: string;
  subject: string;
  text: string;
  html: string;
  /** Reply-To, e.g. the contact form's sender (personal data: never logged). */
  replyTo?: string | null;
}

export interface MailLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** A message's own columns in the outbox. */
function outboxFields(mail: OutgoingMail) {
  return {
    userId: mail.userId ?? null,
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    replyTo: mail.replyTo ?? null,
    kind: mail.kind,
  };
}

/** Something that delivers one message; nodemailer's transporter in production. */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    replyTo?: string;
  }): Promise<{ messageId?: string }>;
  close(): void;
}

export interface MailerDeps {
  db: Db;
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>;
  logger?: MailLogger;
  now?: () => number;
  /** Defaults to nodemailer over SMTP_URL; null keeps every message in the outbox. */
  transport?: MailTransport | null;
  pollIntervalMs?: number;
}

export function retryDelayMs(attempts: number): number {
  return MAIL_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1);
}

/** Only the domain: mail logs must not hold addresses (they are personal data). */
export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at === -1 ? '(invalid)' : address.slice(at + 1);
}

/**
 * True for an address on `.invalid`, the top-level domain reserved never to resolve (RFC 2606,
 * RFC 6761), such as the demo data's `@example.invalid`: the message is kept in the outbox as
 * `logged` and never handed to SMTP.
 */
export function isUndeliverableAddress(address: string): boolean {
  return /(^|\.)invalid\.?$/i.test(recipientDomain(address));
}

function smtpTransport(smtpUrl: string): MailTransport {
  return createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

const silentLogger: MailLogger = { info() {}, warn() {}, error() {} };

/**
 * The transactional outbox for e-mail. `enqueue` writes a row (inside the caller's transaction
 * when given one); `kick` starts delivery; a timer retries due rows, so delivery survives
 * restarts and SMTP outages. Without SMTP_URL messages are stored with status `logged` and only
 * a line without the address or content is logged: developers read codes and links from the
 * `mail_outbox` table.
 */
export function createMailer(deps: MailerDeps) {
  const { db } = deps;
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const transport =
    deps.transport !== undefined
      ? deps.transport
      : deps.config.smtpUrl
        ? smtpTransport(deps.config.smtpUrl)
        : null;
  const pollIntervalMs = deps.pollIntervalMs ?? MAIL_POLL_INTERVAL_MS;

  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function claimDue(): Promise<MailOutboxRow[]> {
    const at = new Date(now());
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, at)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(BATCH_SIZE)
      .for('update', { skipLocked: true });
    // Claiming moves next_attempt_at past a lease, so other processes skip the row meanwhile.
    const rows = await db
      .update(mailOutbox)
      .set({
        nextAttemptAt: new Date(at.getTime() + MAIL_CLAIM_LEASE_MS),
        attempts: sql`${mailOutbox.attempts} + 1`,
      })
      .where(and(inArray(mailOutbox.id, due), eq(mailOutbox.status, 'queued')))
      .returning();
    return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /**
   * Extends the claim of a row about to be sent, so the rows late in a slow batch are not
   * claimed by another instance meanwhile. False when the row is no longer ours to send.
   */
  async function renewLease(row: MailOutboxRow): Promise<boolean> {
    const renewed = await db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(now() + MAIL_CLAIM_LEASE_MS) })
      .where(
        and(
          eq(mailOutbox.id, row.id),
          eq(mailOutbox.status, 'queued'),
          eq(mailOutbox.attempts, row.attempts),
        ),
      )
      .returning({ id: mailOutbox.id });
    return renewed.length === 1;
  }

  /** One attempt; `final`: a failure is not retried (status failed at once). */
  async function deliver(
    row: MailOutboxRow,
    via: MailTransport,
    final = false,
  ): Promise<{ messageId: string | null; error: string | null }> {
    try {
      const info = await via.sendMail({
        from: deps.config.mailFrom,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody ?? '',
        html: row.htmlBody ?? '',
        ...(row.replyTo ? { replyTo: row.replyTo } : {}),
      });
      await db
        .update(mailOutbox)
        .set({
          status: 'sent',
          sentAt: new Date(now()),
          messageId: info.messageId ?? null,
          lastError: null,
          // The bodies carry live codes and links; once delivered they are not kept.
          textBody: null,
          htmlBody: null,
          replyTo: null,
        })
        .where(eq(mailOutbox.id, row.id));
      logger.info(
        { mailId: row.id, kind: row.kind, to: recipientDomain(row.toAddress) },
        'mail sent',
      );
      return { messageId: info.messageId ?? null, error: null };
    } catch (error) {
      // Stored and logged: a failed statement's values stay out (#32 item 18).
      const reason = safeErrorMessage(error);
      const giveUp = final || row.attempts >= MAIL_MAX_ATTEMPTS;
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'queued',
          lastError: reason.slice(0, 500),
          nextAttemptAt: new Date(now() + (giveUp ? 0 : retryDelayMs(row.attempts))),
        })
        .where(eq(mailOutbox.id, row.id));
      logger.warn(
        { mailId: row.id, kind: row.kind, attempts: row.attempts, reason, gaveUp: giveUp },
        giveUp ? 'mail failed; giving up' : 'mail failed; will retry',
      );
      return { messageId: null, error: reason };
    }
  }

  /** Sends every due message once; resolves when the batch is done. */
  async function deliverDue(): Promise<number> {
    if (!transport) return 0;
    let count = 0;
    for (;;) {
      const rows = await claimDue();
      for (const row of rows) {
        if (!(await renewLease(row))) continue;
        await deliver(row, transport);
      }
      count += rows.length;
      if (rows.length < BATCH_SIZE || stopped) return count;
    }
  }

  const runner = createCoalescingRunner({
    run: deliverDue,
    canRun: () => transport !== null && !stopped,
    onError: (error) => logger.error({ err: error }, 'mail delivery run failed'),
  });
  const kick = runner.kick;

  /** Several messages in one statement (a batch of notification e-mails), rows in order. */
  async function enqueueMany(
    mails: readonly OutgoingMail[],
    into: Db = db,
  ): Promise<MailOutboxRow[]> {
    if (mails.length === 0) return [];
    const at = new Date(now());
    const rows = await into
      .insert(mailOutbox)
      .values(
        mails.map((mail) => ({
          ...outboxFields(mail),
          status:
            transport && !isUndeliverableAddress(mail.to)
              ? ('queued' as const)
              : ('logged' as const),
          nextAttemptAt: at,
        })),
      )
      .returning();
    if (rows.length !== mails.length) throw new Error('mail_outbox insert returned too few rows');
    for (const row of rows) {
      if (row.status !== 'logged') continue;
      logger.info(
        {
          mailId: row.id,
          kind: row.kind,
          to: recipientDomain(row.toAddress),
          subject: row.subject,
        },
        transport
          ? 'The address is on .invalid (demo data): the message is kept in the mail_outbox table (status logged), not sent'
          : 'SMTP_URL is not set: the message is kept in the mail_outbox table (status logged), not sent',
      );
    }
    return rows;
  }

  return {
    /** True when SMTP_URL is set and messages leave the outbox. */
    isConfigured: transport !== null,

    /**
     * Stores a message for delivery. Pass a transaction as `into` to store it atomically with the
     * change it announces, then call `kick()` after the commit.
     */
    async enqueue(mail: OutgoingMail, into: Db = db): Promise<MailOutboxRow> {
      const [row] = await enqueueMany([mail], into);
      if (!row) throw new Error('mail_outbox insert returned no row');
      return row;
    },

    enqueueMany,

    /**
     * Stores a message and makes one delivery attempt right away, reporting how it went (the
     * administrators' test e-mail). The row is written already claimed, so the retry worker
     * leaves it alone, and a failure is final: a test is not retried for hours. Without SMTP_URL
     * the message is only kept in the outbox (`logged`).
     */
    async sendNow(mail: OutgoingMail): Promise<{
      row: MailOutboxRow;
      status: 'sent' | 'logged' | 'failed';
      messageId: string | null;
      error: string | null;
    }> {
      if (!transport || isUndeliverableAddress(mail.to)) {
        const row = await this.enqueue(mail);
        return { row, status: 'logged', messageId: null, error: null };
      }
      const at = now();
      const [row] = await db
        .insert(mailOutbox)
        .values({
          ...outboxFields(mail),
          status: 'queued',
          attempts: 1,
          nextAttemptAt: new Date(at + MAIL_CLAIM_LEASE_MS),
        })
        .returning();
      if (!row) throw new Error('mail_outbox insert returned no row');
      const outcome = await deliver(row, transport, true);
      return { row, status: outcome.error === null ? 'sent' : 'failed', ...outcome };
    },

    /** Stores and starts delivering a message (no caller transaction). */
    async send(mail: OutgoingMail): Promise<MailOutboxRow> {
      const row = await this.enqueue(mail);
      kick();
      return row;
    },

    kick,
    deliverDue,

    /** Starts the retry timer (idempotent). */
    start(): void {
      if (!transport || timer || stopped) return;
      timer = setInterval(kick, pollIntervalMs);
      timer.unref();
      kick();
    },

    /** Resolves once no delivery run is in progress. */
    async idle(): Promise<void> {
      await runner.idle();
    },

    /** Stops the timer, waits for the run in progress and closes SMTP connections. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await runner.idle();
      transport?.close();
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
