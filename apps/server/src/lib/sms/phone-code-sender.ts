import { OTP_TTL_MINUTES, type MessageLanguage } from '@bdms/shared';
import { mailLanguage } from '../../features/notifications/mail/templates';

/**
 * What a phone channel (SMS over SMPP; else WhatsApp's authentication template when SMS is not
 * configured) must do to deliver a one-time code. The services get one through
 * `createServices({ phoneCodeSender })`; with none, flows that need a code on a phone refuse
 * with 409 SMS_UNAVAILABLE instead of pretending.
 */
export interface PhoneCodeSender {
  /** Hands the message to the provider; rejects when it could not be handed over. */
  send(message: PhoneCodeMessage): Promise<void>;
}

/** What a code is for; each has its own text (and, on WhatsApp, its own template). */
export const PHONE_CODE_PURPOSES = [
  'phone_change',
  'login',
  'phone_verification',
  'request_confirmation',
] as const;
export type PhoneCodePurpose = (typeof PHONE_CODE_PURPOSES)[number];

export interface PhoneCodeMessage {
  /** E.164, e.g. +919876543210. */
  to: string;
  /** The code alone, for channels with their own templates (WhatsApp authentication). */
  code: string;
  purpose: PhoneCodePurpose;
  language: string;
  /** The whole text in the account's (or the request's) language, for plain SMS. */
  text: string;
}

type Text = (code: string, minutes: number) => string;

/**
 * Plain SMS, one part each where it fits: English and Spanish keep to the GSM 7-bit alphabet
 * (160 characters; so no á, í, ó, ú in Spanish), an Indian-language text is Unicode (70
 * characters a part). Tested in phone-code-sender.test.ts.
 */
const TEXTS: Record<MessageLanguage, Record<PhoneCodePurpose, Text>> = {
  en: {
    phone_change: (code, minutes) =>
      `${code} is your code to confirm this phone number for your blood donor account. It works for ${minutes} minutes. Do not share it.`,
    login: (code, minutes) =>
      `${code} is your code to sign in to your blood donor account. It works for ${minutes} minutes. Do not share it with anyone.`,
    phone_verification: (code, minutes) =>
      `${code} is your code to verify this phone number for your blood donor account. It works for ${minutes} minutes. Do not share it.`,
    request_confirmation: (code, minutes) =>
      `${code} is your code to confirm your emergency blood request. Enter it on the tracking page within ${minutes} minutes. Do not share it.`,
  },
  es: {
    phone_change: (code, minutes) =>
      `${code} es tu clave para confirmar tu nuevo teléfono en tu cuenta de donante de sangre. Vale ${minutes} minutos. No la compartas.`,
    login: (code, minutes) =>
      `${code} es tu clave para entrar en tu cuenta de donante de sangre. Vale ${minutes} minutos. No la compartas con nadie.`,
    phone_verification: (code, minutes) =>
      `${code} es tu clave para verificar este teléfono en tu cuenta de donante de sangre. Vale ${minutes} minutos. No la compartas.`,
    request_confirmation: (code, minutes) =>
      `${code} es tu clave para confirmar tu solicitud urgente de sangre. Vale ${minutes} minutos. No la compartas.`,
  },
  hi: {
    phone_change: (code, minutes) =>
      `${code} नए फ़ोन नंबर की पुष्टि का कोड। ${minutes} मिनट मान्य। किसी को न बताएं।`,
    login: (code, minutes) =>
      `${code} रक्तदाता खाते का साइन इन कोड। ${minutes} मिनट मान्य। किसी को न बताएं।`,
    phone_verification: (code, minutes) =>
      `${code} फ़ोन नंबर के सत्यापन का कोड। ${minutes} मिनट मान्य। किसी को न बताएं।`,
    request_confirmation: (code, minutes) =>
      `${code} रक्त अनुरोध की पुष्टि का कोड। ${minutes} मिनट मान्य। किसी को न बताएं।`,
  },
  bn: {
    phone_change: (code, minutes) =>
      `${code} নতুন ফোন নম্বর নিশ্চিত করার কোড। ${minutes} মিনিট বৈধ। কাউকে বলবেন না।`,
    login: (code, minutes) =>
      `${code} রক্তদাতা অ্যাকাউন্টে সাইন ইন কোড। ${minutes} মিনিট বৈধ। কাউকে বলবেন না।`,
    phone_verification: (code, minutes) =>
      `${code} ফোন নম্বর যাচাইয়ের কোড। ${minutes} মিনিট বৈধ। কাউকে বলবেন না।`,
    request_confirmation: (code, minutes) =>
      `${code} রক্তের অনুরোধ নিশ্চিত করার কোড। ${minutes} মিনিট বৈধ। কাউকে বলবেন না।`,
  },
  mr: {
    phone_change: (code, minutes) =>
      `${code} नवीन फोन नंबर पडताळणी कोड. ${minutes} मिनिटे वैध. कोणालाही सांगू नका.`,
    login: (code, minutes) =>
      `${code} रक्तदाता खाते साइन इन कोड. ${minutes} मिनिटे वैध. कोणालाही सांगू नका.`,
    phone_verification: (code, minutes) =>
      `${code} फोन नंबरच्या पडताळणीचा कोड. ${minutes} मिनिटे वैध. कोणालाही सांगू नका.`,
    request_confirmation: (code, minutes) =>
      `${code} रक्त विनंती पुष्टी कोड. ${minutes} मिनिटे वैध. कोणालाही सांगू नका.`,
  },
  te: {
    phone_change: (code, minutes) => `${code} ఫోన్ మార్పు కోడ్. ${minutes} నిమిషాల్లో వాడండి. ఎవరికీ చెప్పకండి.`,
    login: (code, minutes) => `${code} ఖాతా సైన్ ఇన్ కోడ్. ${minutes} నిమిషాల్లో వాడండి. ఎవరికీ చెప్పకండి.`,
    phone_verification: (code, minutes) =>
      `${code} ఫోన్ ధృవీకరణ కోడ్. ${minutes} నిమిషాల్లో వాడండి. ఎవరికీ చెప్పకండి.`,
    request_confirmation: (code, minutes) =>
      `${code} అభ్యర్థన నిర్ధారణ కోడ్. ${minutes} నిమిషాల్లో వాడండి. ఎవరికీ చెప్పకండి.`,
  },
  ta: {
    phone_change: (code, minutes) =>
      `${code} புதிய எண் உறுதிக் குறியீடு. ${minutes} நிமிடம் செல்லும். பகிர வேண்டாம்.`,
    login: (code, minutes) => `${code} உள்நுழைவுக் குறியீடு. ${minutes} நிமிடம் செல்லும். பகிர வேண்டாம்.`,
    phone_verification: (code, minutes) =>
      `${code} எண் சரிபார்ப்புக் குறியீடு. ${minutes} நிமிடம் செல்லும். பகிர வேண்டாம்.`,
    request_confirmation: (code, minutes) =>
      `${code} கோரிக்கை உறுதிக் குறியீடு. ${minutes} நிமிடம் செல்லும். பகிர வேண்டாம்.`,
  },
};

/** The SMS text of a code for `purpose` in `language` (English when unknown). */
export function renderPhoneCodeText(
  purpose: PhoneCodePurpose,
  language: string | null,
  code: string,
): string {
  return TEXTS[mailLanguage(language)][purpose](code, OTP_TTL_MINUTES);
}
