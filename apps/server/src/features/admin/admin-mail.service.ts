import type { EmailStatus, TestEmailResult } from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { recipientDomain, type Mailer } from '../notifications/mail/mailer';
import { renderTestMail } from '../notifications/mail/templates';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import { createAdminRepository } from './admin.repository';

const DAY_MS = 86_400_000;

export interface AdminMailServiceDeps {
  db: Db;
  mail: Pick<Mailer, 'isConfigured' | 'sendNow'>;
  config: Pick<Config, 'mailFrom' | 'publicUrl'>;
  now?: () => number;
}

/** The e-mail panel of the administrators' console: outbox health and a test message. */
export function createAdminMailService(deps: AdminMailServiceDeps) {
  const now = deps.now ?? Date.now;
  const repository = createAdminRepository(deps.db);

  return {
    async status(): Promise<EmailStatus> {
      const stats = await repository.mailStats(new Date(now() - DAY_MS));
      return {
        transport: deps.mail.isConfigured ? 'smtp' : 'outbox',
        configured: deps.mail.isConfigured,
        from: deps.config.mailFrom,
        ...stats,
      };
    },

    /**
     * Sends a test message at once through the mail outbox and reports the SMTP server's
     * answer: its Message-ID, or 503 SERVICE_UNAVAILABLE with the reason it gave (a test is not
     * retried). Without SMTP_URL the message is kept in the outbox (`logged`).
     */
    async sendTest(caller: AuthUser, to: string, meta: RequestMeta): Promise<TestEmailResult> {
      const admin = await repository.findUser(caller.id);
      const mail = renderTestMail({
        language: admin?.language,
        name: admin?.fullName ?? 'An administrator',
        at: new Date(now()).toISOString().slice(0, 19).replace('T', ' '),
        publicUrl: deps.config.publicUrl,
      });
      const result = await deps.mail.sendNow({ to, userId: null, kind: 'admin_test', ...mail });
      await createActivityLog(deps.db).record({
        action: 'email.test_sent',
        actorId: caller.id,
        actorRole: caller.role,
        targetType: 'mail',
        targetId: result.row.id,
        // The domain only: the address is personal data.
        details: { status: result.status, to: recipientDomain(to) },
        requestId: meta.requestId,
      });
      if (result.status === 'failed') {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `The mail server did not accept the test message: ${result.error ?? 'no reason given'}`,
        );
      }
      return {
        messageId: result.messageId ?? result.row.id,
        status: result.status === 'sent' ? 'sent' : 'logged',
      };
    },
  };
}

export type AdminMailService = ReturnType<typeof createAdminMailService>;
