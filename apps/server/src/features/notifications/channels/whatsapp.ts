import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_SETTINGS_DEFAULTS } from '@bdms/shared';
import type { WhatsAppConfig } from '../../../config/env';
import type { Db } from '../../../db/client';
import type { NotificationDeliveryRow } from '../../../db/schema';
import { readNotificationSettings } from '../../../lib/notification-settings';
import { hasConsent } from '../consents';
import { mailLanguage } from '../mail/templates';
import type { Channel, ChannelHealth, DeliveryOutcome } from './channel';
import { loadNotification } from './notification-row';
import { quietHoursEnd, sentToday } from './phone-rules';

/** Quick-reply payloads: `accept:<delivery id>`, `decline:<delivery id>`. */
export const WHATSAPP_ACCEPT = 'accept';
export const WHATSAPP_DECLINE = 'decline';

export interface WhatsAppChannelDeps {
  db: Db;
  config: WhatsAppConfig;
  now: () => number;
  fetch?: typeof fetch;
}

export type WhatsAppChannel = Channel & {
  /** A free-form text (answers to replies, inside WhatsApp's 24-hour service window). */
  sendText(to: string, text: string): Promise<string>;
  /**
   * A one-time code as the approved AUTHENTICATION template `codeTemplate` (copy-code button)
   * in `language`; resolves with the message id once the API took it, rejects otherwise.
   */
  sendCode(to: string, code: string, language: string | null): Promise<string>;
  /** Whether `signature` (X-Hub-Signature-256) is the app secret's HMAC of `rawBody`. */
  verifySignature(rawBody: Buffer, signature: string | undefined): boolean;
};

class WhatsAppError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** WhatsApp numbers are E.164 without the plus. */
const waNumber = (e164: string) => e164.replace(/^\+/, '');

/**
 * WhatsApp Business Cloud API: a donor alert is the approved template `alertTemplate` in the
 * donor's language, with body parameters {{1}} urgency, {{2}} blood type, {{3}} units, {{4}}
 * hospital, {{5}} city, {{6}} distance (km) and two quick-reply buttons ("I can donate",
 * "Not now") whose payloads name this delivery, so a press answers exactly this alert. Same
 * rules as SMS: consent, flag, quiet hours for non-critical alerts, daily budget. A guest
 * requester's message is the template `requestReceivedTemplate` or `donorComingTemplate` in
 * their language, body {{1}} tracking code, {{2}} tracking link; no buttons, no quiet hours,
 * no consent record (the number was given for this request), the same flag and budget.
 */
export function createWhatsAppChannel(deps: WhatsAppChannelDeps): WhatsAppChannel {
  const { db, now, config } = deps;
  const doFetch = deps.fetch ?? fetch;
  let failingSince: Date | null = null;
  let lastError: string | null = null;

  async function post(body: object): Promise<string> {
    let response: Response;
    try {
      response = await doFetch(
        `${config.apiUrl}/${config.apiVersion}/${config.phoneNumberId}/messages`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${config.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        },
      );
    } catch (error) {
      throw new WhatsAppError(
        `WhatsApp API unreachable: ${error instanceof Error ? error.message : String(error)}`,
        false,
      );
    }
    const text = await response.text();
    if (!response.ok) {
      // 429 and 5xx pass; other 4xx (bad number, template not approved) will not.
      const permanent = response.status >= 400 && response.status < 500 && response.status !== 429;
      throw new WhatsAppError(
        `WhatsApp API answered ${response.status}: ${text.slice(0, 200)}`,
        permanent,
      );
    }
    const parsed = JSON.parse(text) as { messages?: { id?: unknown }[] };
    const id = parsed.messages?.[0]?.id;
    if (typeof id !== 'string') throw new WhatsAppError('WhatsApp API gave no message id', false);
    return id;
  }

  return {
    name: 'whatsapp',
    concurrent: true,

    async plan(event, { flag }) {
      if (event.type !== 'blood_request.match' || !event.reachOut || !event.user.phone) return [];
      if (!(await flag('whatsappIntegration'))) return [];
      if (!event.user.consents.whatsapp) return [];
      const language = mailLanguage(event.user.language);
      const param = (key: string) => {
        const value = event.params[key];
        return typeof value === 'function' ? value(language) : (value ?? '');
      };
      const wait = event.critical ? null : quietHoursEnd(event.at);
      return [
        {
          id: randomUUID(),
          notificationId: event.notificationId,
          channel: 'whatsapp' as const,
          destination: event.user.phone,
          payload: {
            language,
            urgency: param('urgency'),
            bloodType: param('bloodType'),
            units: param('units'),
            hospital: param('hospital'),
            city: param('city'),
            distance: param('distance'),
          },
          critical: event.critical,
          bloodRequestId: event.bloodRequestId,
          nextAttemptAt: wait ?? event.at,
          createdAt: event.at,
        },
      ];
    },

    async planRequester(message, { flag }) {
      if (!(await flag('whatsappIntegration'))) return [];
      return [
        {
          notificationId: null,
          channel: 'whatsapp' as const,
          destination: message.destination,
          payload: {
            kind: message.kind,
            language: mailLanguage(message.language),
            code: message.trackingCode,
            link: message.trackingUrl,
          },
          critical: message.critical,
          bloodRequestId: message.bloodRequestId,
          // The requester is waiting for it: no quiet hours.
          nextAttemptAt: message.at,
          createdAt: message.at,
        },
      ];
    },

    async deliver(row: NotificationDeliveryRow): Promise<DeliveryOutcome> {
      const payload = row.payload;
      if (!row.destination || !payload) {
        return { status: 'failed', reason: 'The message no longer exists.' };
      }
      // A guest requester's message has no account behind it (and no consent record).
      if (row.notificationId) {
        const notification = await loadNotification(db, row.notificationId);
        if (!notification || notification.deletedAt) {
          return { status: 'failed', reason: 'The account or the message no longer exists.' };
        }
        // Issue #32 item 7: only to the account's number as it stands, and verified (it may
        // have changed, or lost its proof, while the alert waited for quiet hours to end).
        if (notification.phone !== row.destination || !notification.phoneVerifiedAt) {
          return { status: 'skipped', reason: 'The phone number is not verified.' };
        }
        if (!(await hasConsent(db, notification.userId, 'whatsapp'))) {
          return { status: 'skipped', reason: 'The WhatsApp consent was withdrawn.' };
        }
      }
      const settings = await readNotificationSettings(db);
      const budget =
        settings.whatsappDailyBudget ?? NOTIFICATION_SETTINGS_DEFAULTS.whatsappDailyBudget ?? 0;
      const overBudget = (await sentToday(db, 'whatsapp', now())) >= budget;
      if (overBudget && !row.critical) {
        return { status: 'skipped', reason: `The daily WhatsApp budget (${budget}) is spent.` };
      }
      const text = (value: string | undefined) => ({ type: 'text', text: value ?? '' });
      const button = (index: number, kind: string) => ({
        type: 'button',
        sub_type: 'quick_reply',
        index: String(index),
        parameters: [{ type: 'payload', payload: `${kind}:${row.id}` }],
      });
      const template = row.notificationId
        ? {
            name: config.alertTemplate,
            language: { code: payload.language ?? 'en' },
            components: [
              {
                type: 'body',
                parameters: [
                  text(payload.urgency),
                  text(payload.bloodType),
                  text(payload.units),
                  text(payload.hospital),
                  text(payload.city),
                  text(payload.distance),
                ],
              },
              button(0, WHATSAPP_ACCEPT),
              button(1, WHATSAPP_DECLINE),
            ],
          }
        : {
            name:
              payload.kind === 'donor_coming'
                ? config.donorComingTemplate
                : config.requestReceivedTemplate,
            language: { code: payload.language ?? 'en' },
            components: [{ type: 'body', parameters: [text(payload.code), text(payload.link)] }],
          };
      try {
        const id = await post({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: waNumber(row.destination),
          type: 'template',
          template,
        });
        failingSince = null;
        lastError = null;
        return { status: 'sent', providerMessageId: id, overBudget };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        failingSince ??= new Date(now());
        lastError = reason;
        if (error instanceof WhatsAppError && error.permanent) return { status: 'failed', reason };
        return { status: 'retry', reason };
      }
    },

    async sendText(to, body) {
      return post({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: waNumber(to),
        type: 'text',
        text: { body, preview_url: false },
      });
    },

    async sendCode(to, code, language) {
      // Meta's authentication template: the code is the body's {{1}} and the copy-code
      // button's (a URL button, index 0) parameter.
      return post({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: waNumber(to),
        type: 'template',
        template: {
          name: config.codeTemplate,
          language: { code: mailLanguage(language) },
          components: [
            { type: 'body', parameters: [{ type: 'text', text: code }] },
            {
              type: 'button',
              sub_type: 'url',
              index: '0',
              parameters: [{ type: 'text', text: code }],
            },
          ],
        },
      });
    },

    verifySignature(rawBody, signature) {
      if (!signature?.startsWith('sha256=')) return false;
      const given = Buffer.from(signature.slice('sha256='.length), 'hex');
      const expected = createHmac('sha256', config.appSecret).update(rawBody).digest();
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    health(): ChannelHealth {
      return { configured: true, failingSince, lastError };
    },
  };
}
