import { NOTIFICATION_SETTINGS_DEFAULTS } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import type { Config, SmsConfig } from '../../../config/env';
import type { Db } from '../../../db/client';
import { notificationDeliveries, type NotificationDeliveryRow } from '../../../db/schema';
import { readNotificationSettings } from '../../../lib/notification-settings';
import { hasConsent } from '../consents';
import type { Channel, ChannelHealth, DeliveryOutcome } from './channel';
import { loadNotification } from './notification-row';
import { renderPhoneAlert, renderRequesterText } from './phone-texts';
import { generateShortCode, quietHoursEnd, sentToday } from './phone-rules';
import {
  createSmppClient,
  SmsRejectedError,
  type SmppClient,
  type SmppLogger,
  type SmsInbound,
} from './smpp-client';

/** The DLT template names this server sends (SMS_DLT_TEMPLATE_IDS maps them to ids). */
export const SMS_TEMPLATES = [
  'donor_alert',
  'reply',
  'phone_code',
  'request_received',
  'donor_coming',
] as const;

export interface SmsChannelDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'> & { sms: SmsConfig };
  now: () => number;
  logger?: SmppLogger;
  /** Tests: a faster reconnect. */
  reconnectBaseMs?: number;
}

export type SmsChannel = Channel & {
  /** Sends a text outside the outbox (answers to replies): resolves with the message id. */
  sendDirect(to: string, text: string): Promise<string>;
  /** Sends a one-time code outside the outbox (see sms-phone-code-sender.ts). */
  sendCode(to: string, text: string): Promise<string>;
  client: SmppClient;
  /** Who handles a reply typed by a person (YES, STOP…): set once the features exist. */
  onInbound(handler: (message: SmsInbound) => Promise<void>): void;
};

/**
 * SMS over SMPP. A donor alert goes to a person who consented to SMS (recorded wording), with
 * a phone, while the `smsNotifications` flag and the administrators' `smsEnabled` are on; a
 * non-critical one waits for the end of quiet hours. At send time the consent is checked again
 * (STOP withdraws at once) and the daily budget: over it, only Critical alerts go (counted).
 * A guest requester's message (planRequester) needs the flag and `smsEnabled` too, but no
 * consent record (the number was given for this request) and never waits for quiet hours.
 */
export function createSmsChannel(deps: SmsChannelDeps): SmsChannel {
  const { db, now } = deps;
  const sms = deps.config.sms;
  let failingSince: Date | null = null;
  let lastError: string | null = null;
  let inboundHandler: ((message: SmsInbound) => Promise<void>) | null = null;

  const client = createSmppClient({
    url: sms.smppUrl,
    senderId: sms.senderId,
    entityId: sms.entityId,
    windowSize: sms.windowSize,
    ...(deps.reconnectBaseMs ? { reconnectBaseMs: deps.reconnectBaseMs } : {}),
    logger: deps.logger,
    onReceipt: async (receipt) => {
      const updated = await db
        .update(notificationDeliveries)
        .set({ receiptStatus: receipt.status, receiptAt: new Date(now()) })
        .where(
          and(
            eq(notificationDeliveries.channel, 'sms'),
            eq(notificationDeliveries.providerMessageId, receipt.messageId),
          ),
        )
        .returning({ id: notificationDeliveries.id });
      // A receipt that overtook our own record of the send: refused, so the SMSC sends it again.
      if (updated.length === 0) throw new Error(`no SMS with message id ${receipt.messageId}`);
    },
    onInbound: async (message) => {
      // Refused until wired: the SMSC keeps the reply and delivers it again.
      if (!inboundHandler) throw new Error('SMS replies are not wired yet');
      await inboundHandler(message);
    },
  });

  /**
   * A message sent outside the outbox (a one-time code, the answer to a reply) is written down
   * once the SMSC took it (issue #32 item 11): its delivery receipt then matches a row instead of
   * being refused for ever, and the channels panel counts it. No number and no text are kept (a
   * code is a secret; the number is not needed to match a receipt). A receipt that arrives
   * before this row is refused once and comes again, like an alert's. The message is already
   * sent, so a failure to write is logged, never thrown at the flow that sent it.
   */
  async function recordDirect(kind: 'code' | 'answer', template: string, messageId: string) {
    const at = new Date(now());
    try {
      await db.insert(notificationDeliveries).values({
        channel: 'sms',
        kind,
        status: 'sent',
        attempts: 1,
        payload: { template },
        providerMessageId: messageId,
        nextAttemptAt: at,
        createdAt: at,
        sentAt: at,
      });
    } catch (error) {
      deps.logger?.warn({ err: error, kind }, 'SMS sent outside the outbox could not be recorded');
    }
  }

  function noteFailure(reason: string) {
    failingSince ??= new Date(now());
    lastError = reason;
  }

  return {
    name: 'sms',
    concurrent: true,
    client,

    async plan(event, { settings, flag }) {
      if (!event.reachOut || !event.user.phone || !settings.smsEnabled) return [];
      if (!(await flag('smsNotifications'))) return [];
      if (!event.user.consents.sms) return [];
      const shortCode = generateShortCode();
      const text = renderPhoneAlert(
        event.type,
        event.user.language,
        event.params,
        `${deps.config.publicUrl}/r/${shortCode}`,
      );
      if (!text) return [];
      const wait = event.critical ? null : quietHoursEnd(event.at);
      return [
        {
          notificationId: event.notificationId,
          channel: 'sms' as const,
          destination: event.user.phone,
          payload: { text, template: 'donor_alert' },
          critical: event.critical,
          bloodRequestId: event.bloodRequestId,
          shortCode,
          nextAttemptAt: wait ?? event.at,
          createdAt: event.at,
        },
      ];
    },

    async planRequester(message, { settings, flag }) {
      if (!settings.smsEnabled || !(await flag('smsNotifications'))) return [];
      // The short link keeps the text to one part in every language; it opens the tracking page.
      const shortCode = generateShortCode();
      const text = renderRequesterText(message.kind, message.language, {
        code: message.trackingCode,
        link: `${deps.config.publicUrl}/r/${shortCode}`,
      });
      return [
        {
          notificationId: null,
          channel: 'sms' as const,
          destination: message.destination,
          // The DLT template is named after the message, like the alerts' `donor_alert`.
          payload: { text, template: message.kind, kind: message.kind },
          critical: message.critical,
          bloodRequestId: message.bloodRequestId,
          shortCode,
          // The requester is waiting for it: no quiet hours.
          nextAttemptAt: message.at,
          createdAt: message.at,
        },
      ];
    },

    async deliver(row: NotificationDeliveryRow): Promise<DeliveryOutcome> {
      if (!row.destination || !row.payload?.text) {
        return { status: 'failed', reason: 'The message no longer exists.' };
      }
      // A guest requester's message has no account behind it (and no consent record).
      if (row.notificationId) {
        const notification = await loadNotification(db, row.notificationId);
        if (!notification || notification.deletedAt) {
          return { status: 'failed', reason: 'The account or the message no longer exists.' };
        }
        // STOP, or the switch turned off, after the alert was queued.
        // Issue #32 item 7: only to the account's number as it stands, and verified (it may
        // have changed, or lost its proof, while the alert waited for quiet hours to end).
        if (notification.phone !== row.destination || !notification.phoneVerifiedAt) {
          return { status: 'skipped', reason: 'The phone number is not verified.' };
        }
        if (!(await hasConsent(db, notification.userId, 'sms'))) {
          return { status: 'skipped', reason: 'The SMS consent was withdrawn.' };
        }
      }
      const settings = await readNotificationSettings(db);
      const budget = settings.smsDailyBudget ?? NOTIFICATION_SETTINGS_DEFAULTS.smsDailyBudget ?? 0;
      const overBudget = (await sentToday(db, 'sms', now())) >= budget;
      if (overBudget && !row.critical) {
        return { status: 'skipped', reason: `The daily SMS budget (${budget}) is spent.` };
      }
      try {
        const template = row.payload.template;
        const messageId = await client.send({
          to: row.destination,
          text: row.payload.text,
          templateId: template ? (sms.templateIds[template] ?? null) : null,
        });
        failingSince = null;
        lastError = null;
        return { status: 'sent', providerMessageId: messageId, overBudget };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        noteFailure(reason);
        if (error instanceof SmsRejectedError) return { status: 'failed', reason };
        return { status: 'retry', reason };
      }
    },

    onInbound(handler) {
      inboundHandler = handler;
    },

    async sendDirect(to, text) {
      const messageId = await client.send({ to, text, templateId: sms.templateIds.reply ?? null });
      await recordDirect('answer', 'reply', messageId);
      return messageId;
    },

    async sendCode(to, text) {
      const messageId = await client.send({
        to,
        text,
        templateId: sms.templateIds.phone_code ?? null,
      });
      await recordDirect('code', 'phone_code', messageId);
      return messageId;
    },

    health(): ChannelHealth {
      const link = client.health();
      return {
        configured: true,
        failingSince: link.downSince ?? failingSince,
        lastError: link.lastError ?? lastError,
      };
    },

    start() {
      client.start();
    },

    async stop() {
      await client.stop();
    },
  };
}
