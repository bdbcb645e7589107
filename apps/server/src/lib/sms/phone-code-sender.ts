import { OTP_TTL_MINUTES, type MessageLanguage } from '@bdms/shared';
import { mailLanguage } from '../../features/notifications/mail/templates';

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

/**
 * Plain SMS: English fits 160 characters, an Indian-language text is Unicode (70 characters a
 * part, 67 when split), so those stay within two parts (134 characters with a 6-digit code).
 */
const TEXTS: Record<MessageLanguage, (code: string, minutes: number) => string> = {
  en: (code, minutes) =>
    `${code} is your code to confirm this phone number for your blood donor account. It works for ${minutes} minutes. Do not share it.`,
  es: (code, minutes) =>
    `${code} es tu código para confirmar este número de teléfono en tu cuenta de donante de sangre. Sirve durante ${minutes} minutos. No lo compartas.`,
  hi: (code, minutes) =>
    `${code} आपके रक्तदाता खाते में इस फ़ोन नंबर की पुष्टि का कोड है। यह ${minutes} मिनट तक मान्य है। इसे किसी से साझा न करें।`,
  bn: (code, minutes) =>
    `${code} আপনার রক্তদাতা অ্যাকাউন্টে এই ফোন নম্বর নিশ্চিত করার কোড। ${minutes} মিনিট বৈধ। কাউকে বলবেন না।`,
  mr: (code, minutes) =>
    `${code} हा तुमच्या रक्तदाता खात्यासाठी या फोन नंबरच्या पडताळणीचा कोड आहे. ${minutes} मिनिटे वैध. कोणालाही सांगू नका.`,
  te: (code, minutes) =>
    `${code} మీ రక్తదాత ఖాతాలో ఈ ఫోన్ నంబర్ నిర్ధారణ కోడ్. ${minutes} నిమిషాలు చెల్లుతుంది. ఎవరికీ చెప్పకండి.`,
  ta: (code, minutes) =>
    `${code} உங்கள் கொடையாளர் கணக்கில் இந்தத் தொலைபேசி எண்ணை உறுதிசெய்யும் குறியீடு. ${minutes} நிமிடம் செல்லும். யாரிடமும் பகிர வேண்டாம்.`,
};

/** The SMS text of a phone-change code in the account's language (English when unknown). */
export function renderPhoneCodeText(language: string, code: string): string {
  return TEXTS[mailLanguage(language)](code, OTP_TTL_MINUTES);
}
