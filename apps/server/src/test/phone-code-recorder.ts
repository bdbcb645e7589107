import type { PhoneCodeMessage, PhoneCodeSender } from '../lib/sms/phone-code-sender';

/**
 * A PhoneCodeSender for tests: keeps every message exactly as a real channel (SMPP, WhatsApp)
 * would be handed it, so a test reads the code a person would receive.
 */
export interface RecordingPhoneCodeSender extends PhoneCodeSender {
  sent: PhoneCodeMessage[];
  /** The newest message to `phone`, waiting a little for the hand-over (it is not awaited). */
  last(phone: string, purpose?: PhoneCodeMessage['purpose']): Promise<PhoneCodeMessage | undefined>;
  clear(): void;
}

export function createRecordingPhoneCodeSender(): RecordingPhoneCodeSender {
  const sent: PhoneCodeMessage[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
    },
    async last(phone, purpose) {
      // Hand-overs run after the reply: give them a few turns of the event loop.
      for (let turn = 0; turn < 20; turn += 1) {
        const found = sent.findLast(
          (message) =>
            message.to === phone && (purpose === undefined || message.purpose === purpose),
        );
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return undefined;
    },
    clear() {
      sent.length = 0;
    },
  };
}
