import type { PhoneCodeSender } from '../../../lib/sms/phone-code-sender';
import type { SmsChannel } from './sms';

/**
 * One-time codes by SMS, sent directly over the SMPP link rather than through the outbox: a
 * code lives minutes, so a retry hours later is useless, and the flow must know at once whether
 * the message was handed over (it rejects, and the caller answers SMS_UNAVAILABLE) — the same
 * contract as the mail of login codes. Codes are not counted against the alert budget: they
 * have their own, per phone, per purpose and for the whole platform per day, taken where they
 * are issued (lib/sms/phone-codes.ts, lib/direct-budgets.ts); each one sent is recorded so its
 * delivery receipt matches (sms.ts, issue #32 item 11).
 */
export function createSmsPhoneCodeSender(sms: Pick<SmsChannel, 'sendCode'>): PhoneCodeSender {
  return {
    async send(message) {
      await sms.sendCode(message.to, message.text);
    },
  };
}
