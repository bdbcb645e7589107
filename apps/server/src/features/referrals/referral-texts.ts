import { MESSAGE_LANGUAGES, type MessageLanguage } from '@bdms/shared';

/**
 * The invitation a donor shares (WhatsApp or anywhere): the link and the code, nothing about
 * the donor (no name, number or blood type), in the donor's interface language.
 */
const SHARE_TEXT: Record<MessageLanguage, (link: string, code: string) => string> = {
  en: (link, code) =>
    `I give blood with the Blood Donation Management System. Join me as a donor: ${link} (invitation code ${code})`,
  es: (link, code) =>
    `Dono sangre con Blood Donation Management System. Únete como donante: ${link} (código de invitación ${code})`,
  hi: (link, code) =>
    `मैं Blood Donation Management System के साथ रक्तदान करता/करती हूँ। दाता के रूप में जुड़ें: ${link} (आमंत्रण कोड ${code})`,
  bn: (link, code) =>
    `আমি Blood Donation Management System-এর মাধ্যমে রক্ত দিই। দাতা হিসেবে যোগ দিন: ${link} (আমন্ত্রণ কোড ${code})`,
  mr: (link, code) =>
    `मी Blood Donation Management System सोबत रक्तदान करतो/करते. दाता म्हणून सामील व्हा: ${link} (आमंत्रण कोड ${code})`,
  te: (link, code) =>
    `నేను Blood Donation Management System ద్వారా రక్తదానం చేస్తాను. దాతగా చేరండి: ${link} (ఆహ్వాన కోడ్ ${code})`,
  ta: (link, code) =>
    `நான் Blood Donation Management System மூலம் இரத்த தானம் செய்கிறேன். கொடையாளராகச் சேருங்கள்: ${link} (அழைப்புக் குறியீடு ${code})`,
};

export function referralShareText(language: string | undefined, link: string, code: string) {
  const lang = (MESSAGE_LANGUAGES as readonly string[]).includes(language ?? '')
    ? (language as MessageLanguage)
    : 'en';
  return SHARE_TEXT[lang](link, code);
}
