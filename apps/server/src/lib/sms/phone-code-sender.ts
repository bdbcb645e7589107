import { OTP_TTL_MINUTES } from '@bdms/shared';

/**
 * What a phone channel (SMS over SMPP, WhatsApp: a later issue) must do to deliver a one-time
 * code. The services get one through `createServices({ phoneCodeSender })`; with none, flows
 * that need a code on a phone refuse with 409 SMS_UNAVAILABLE instead of pretending.
 */
export interface PhoneCodeSender {
  /** Hands the message to the provider; rejects when it could not be handed over. */
  send(message: PhoneCodeMessage): Promise<void>;
}

export interface PhoneCodeMessage {
  /** E.164, e.g. +919876543210. */
  to: string;
  /** The code alone, for channels with their own templates (WhatsApp authentication). */
  code: string;
  purpose: 'phone_change';
  language: string;
  /** The whole text in the account's language, for plain SMS. */
  text: string;
}

const TEXTS: Record<string, (code: string, minutes: number) => string> = {
  en: (code, minutes) =>
    `${code} is your code to confirm this phone number for your blood donor account. It works for ${minutes} minutes. Do not share it.`,
  es: (code, minutes) =>
    `${code} es tu código para confirmar este número de teléfono en tu cuenta de donante de sangre. Sirve durante ${minutes} minutos. No lo compartas.`,
  hi: (code, minutes) =>
    `${code} आपके रक्तदाता खाते में इस फ़ोन नंबर की पुष्टि का कोड है। यह ${minutes} मिनट तक मान्य है। इसे किसी से साझा न करें।`,
};

/** The SMS text of a phone-change code in the account's language (English when unknown). */
export function renderPhoneCodeText(language: string, code: string): string {
  return (TEXTS[language] ?? TEXTS.en!)(code, OTP_TTL_MINUTES);
}
