import { z } from 'zod';
import { MESSAGE_LANGUAGES, type MessageLanguage } from './constants';

/** The phone channels a person opts in to, each on its own. */
export const PHONE_CHANNELS = ['sms', 'whatsapp'] as const;
export type PhoneChannel = (typeof PHONE_CHANNELS)[number];

/**
 * The exact consent wording shown beside each switch; the server records the text of the
 * language the person saw with the time (TRAI TCCCPR 2018: a recorded, revocable consent).
 */
export const CHANNEL_CONSENT_WORDING: Record<PhoneChannel, Record<MessageLanguage, string>> = {
  sms: {
    en: 'Send me blood request alerts by SMS to my phone number. I can reply YES to accept and STOP to end them at any time.',
    es: 'Envíame avisos de solicitudes de sangre por SMS a mi número de teléfono. Puedo responder YES para aceptar y STOP para dejar de recibirlos en cualquier momento.',
    hi: 'मेरे फ़ोन नंबर पर SMS से रक्त अनुरोध के अलर्ट भेजें। मैं स्वीकार करने के लिए YES और इन्हें कभी भी बंद करने के लिए STOP भेज सकता/सकती हूँ।',
    bn: 'আমার ফোন নম্বরে SMS-এ রক্তের অনুরোধের সতর্কবার্তা পাঠান। গ্রহণ করতে YES এবং যেকোনো সময় বন্ধ করতে STOP উত্তর দিতে পারি।',
    mr: 'माझ्या फोन नंबरवर SMS ने रक्त विनंतीच्या सूचना पाठवा. स्वीकारण्यासाठी YES आणि कधीही थांबवण्यासाठी STOP पाठवू शकतो/शकते.',
    te: 'నా ఫోన్ నంబర్‌కు SMS ద్వారా రక్త అభ్యర్థన హెచ్చరికలు పంపండి. అంగీకరించడానికి YES, ఎప్పుడైనా ఆపడానికి STOP పంపవచ్చు.',
    ta: 'என் தொலைபேசி எண்ணுக்கு SMS மூலம் இரத்தக் கோரிக்கை எச்சரிக்கைகளை அனுப்புங்கள். ஏற்க YES, எப்போது வேண்டுமானாலும் நிறுத்த STOP அனுப்பலாம்.',
  },
  whatsapp: {
    en: 'Send me blood request alerts on WhatsApp to my phone number. I can press "I can donate" to accept and reply STOP to end them at any time.',
    es: 'Envíame avisos de solicitudes de sangre por WhatsApp a mi número de teléfono. Puedo pulsar "Puedo donar" para aceptar y responder STOP para dejar de recibirlos en cualquier momento.',
    hi: 'मेरे फ़ोन नंबर पर WhatsApp से रक्त अनुरोध के अलर्ट भेजें। मैं स्वीकार करने के लिए "मैं दान कर सकता/सकती हूँ" दबा सकता/सकती हूँ और इन्हें कभी भी बंद करने के लिए STOP भेज सकता/सकती हूँ।',
    bn: 'আমার ফোন নম্বরে WhatsApp-এ রক্তের অনুরোধের সতর্কবার্তা পাঠান। গ্রহণ করতে "আমি দান করতে পারি" চাপতে এবং যেকোনো সময় বন্ধ করতে STOP উত্তর দিতে পারি।',
    mr: 'माझ्या फोन नंबरवर WhatsApp वर रक्त विनंतीच्या सूचना पाठवा. स्वीकारण्यासाठी "मी दान करू शकतो/शकते" दाबू शकतो/शकते आणि कधीही थांबवण्यासाठी STOP पाठवू शकतो/शकते.',
    te: 'నా ఫోన్ నంబర్‌కు WhatsApp ద్వారా రక్త అభ్యర్థన హెచ్చరికలు పంపండి. అంగీకరించడానికి "నేను దానం చేయగలను" నొక్కవచ్చు, ఎప్పుడైనా ఆపడానికి STOP పంపవచ్చు.',
    ta: 'என் தொலைபேசி எண்ணுக்கு WhatsApp மூலம் இரத்தக் கோரிக்கை எச்சரிக்கைகளை அனுப்புங்கள். ஏற்க "என்னால் தானம் செய்ய முடியும்" அழுத்தலாம், எப்போது வேண்டுமானாலும் நிறுத்த STOP அனுப்பலாம்.',
  },
};

export const channelConsentSchema = z.object({
  channel: z.enum(PHONE_CHANNELS),
  /** The flag is on and the server has the provider configured. */
  available: z.boolean(),
  consented: z.boolean(),
  grantedAt: z.string().nullable(),
  /** The wording the person agreed to, as recorded. */
  wording: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
  withdrawnVia: z.enum(['settings', 'reply']).nullable(),
});
export type ChannelConsent = z.infer<typeof channelConsentSchema>;
export const channelConsentsSchema = z.object({ channels: z.array(channelConsentSchema) });

export const updateChannelConsentSchema = z.object({
  consent: z.boolean(),
  /** The language of the wording the person saw (its text is recorded, not sent). */
  language: z.enum(MESSAGE_LANGUAGES),
});
export type UpdateChannelConsent = z.infer<typeof updateChannelConsentSchema>;

export const channelStatusSchema = z.object({
  channel: z.enum(['push', 'email', ...PHONE_CHANNELS]),
  configured: z.boolean(),
  /** Its feature flag / administrators' switch is on. */
  enabled: z.boolean(),
  failingSince: z.string().nullable(),
  lastError: z.string().nullable(),
  /** Since 00:00 India time. */
  sentToday: z.number().int(),
  failedToday: z.number().int(),
  queued: z.number().int(),
  /** Messages a day; null for channels without a budget. */
  dailyBudget: z.number().int().nullable(),
  /** Critical messages sent today beyond the budget. */
  overBudgetToday: z.number().int(),
});
export type ChannelStatus = z.infer<typeof channelStatusSchema>;
/** Today's figure of a budget of messages sent outside the outbox, and the budget. */
export const directBudgetSchema = z.object({
  /** Since 00:00 India time. */
  sentToday: z.number().int(),
  dailyBudget: z.number().int(),
});
export type DirectBudget = z.infer<typeof directBudgetSchema>;
export const channelStatusesSchema = z.object({
  channels: z.array(channelStatusSchema),
  /**
   * Extension (issue #32 item 8): the budgets of what phones are sent outside the alerts: one-time
   * codes (`phoneCodeDailyBudget`) and answers to SMS/WhatsApp replies (`replyAnswerDailyBudget`).
   */
  directBudgets: z.object({ codes: directBudgetSchema, answers: directBudgetSchema }),
});
export type ChannelStatuses = z.infer<typeof channelStatusesSchema>;
export type ChannelConsents = z.infer<typeof channelConsentsSchema>;

/** The language a consent wording is shown (and recorded) in for an interface language. */
export function consentLanguage(language: string): MessageLanguage {
  const base = language.split('-')[0] ?? 'en';
  return (MESSAGE_LANGUAGES as readonly string[]).includes(base) ? (base as MessageLanguage) : 'en';
}
