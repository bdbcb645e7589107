import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * `queued`: waiting for (another) SMTP attempt at `next_attempt_at`; `sent`: accepted by the SMTP
 * server (`message_id`); `failed`: gave up after the last attempt; `logged`: SMTP_URL is not set,
 * so the message is only kept here for a developer to read.
 */
export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'logged'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * Every message is written here first and sent from here, so a crash or an SMTP outage loses
 * nothing. Bodies of sent messages are blanked: they hold one-time codes and reset links that
 * the token tables keep only as hashes.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The account the message is about, so erasing the account erases its mail. */
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    toAddress: text().notNull(),
    subject: text().notNull(),
    textBody: text(),
    htmlBody: text(),
    /** Reply-To (the contact form's sender); blanked with the bodies once sent. */
    replyTo: text(),
    kind: text().notNull(),
    status: text().$type<MailStatus>().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    messageId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('mail_outbox_status_next_attempt_idx').on(table.status, table.nextAttemptAt),
    check(
      'mail_outbox_status_check',
      sql`${table.status} in ('queued', 'sent', 'failed', 'logged')`,
    ),
  ],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
export type NewMailOutboxRow = typeof mailOutbox.$inferInsert;
