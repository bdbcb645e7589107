import type { PhoneCodeSender } from '../../../lib/sms/phone-code-sender';
import type { WhatsAppChannel } from './whatsapp';

/**
 * One-time codes by WhatsApp, used when SMS is not configured (issue #32 item 7: without it a
 * WhatsApp-only deployment could never verify a number, so never send a WhatsApp alert). The
 * code goes as Meta's AUTHENTICATION template (`WHATSAPP_CODE_TEMPLATE`, copy-code button) in
 * the account's language, directly rather than through the outbox, for the same reasons as by
 * SMS (sms-phone-code-sender.ts): a code lives minutes and the flow must know at once whether
 * it was handed over (a failure rejects). Like the SMS sender it needs no flag
 * (`whatsappIntegration` governs alerts and consent, not codes), and it is wrapped by the same
 * budgets (lib/sms/phone-codes.ts). No delivery row is recorded: WhatsApp's status webhooks
 * are not matched to codes.
 */
export function createWhatsAppPhoneCodeSender(
  whatsapp: Pick<WhatsAppChannel, 'sendCode'>,
): PhoneCodeSender {
  return {
    async send(message) {
      await whatsapp.sendCode(message.to, message.code, message.language);
    },
  };
}
