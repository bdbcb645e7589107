import { APP_NAME } from '@bdms/shared';
import type { OutgoingMail } from '../notifications/mail/mailer';
import { mailLanguage, renderMailLayout, type MailLayout } from '../notifications/mail/templates';

type Texts = Pick<MailLayout, 'subject' | 'greeting' | 'intro' | 'outro'> & { label: string };

const TEXT: Record<MailLayout['lang'], (name: string, code: string) => Texts> = {
  en: (name, code) => ({
    subject: `Your blood request ${code}: tracking link`,
    greeting: `Hello ${name},`,
    intro:
      'Someone tried to make the same blood request again with your phone number. No new request was made: your request is still open. Follow it here:',
    label: 'Follow the request',
    outro: `Its tracking code is ${code}. If it was not you, nothing changed and you can ignore this e-mail. ${APP_NAME} never asks for money.`,
  }),
  es: (name, code) => ({
    subject: `Tu solicitud de sangre ${code}: enlace de seguimiento`,
    greeting: `Hola, ${name}:`,
    intro:
      'Alguien intentó hacer de nuevo la misma solicitud de sangre con tu número de teléfono. No se creó ninguna nueva: tu solicitud sigue abierta. Síguela aquí:',
    label: 'Seguir la solicitud',
    outro: `Su código de seguimiento es ${code}. Si no fuiste tú, no cambió nada y puedes ignorar este correo. ${APP_NAME} nunca pide dinero.`,
  }),
  hi: (name, code) => ({
    subject: `आपका रक्त अनुरोध ${code}: ट्रैकिंग लिंक`,
    greeting: `नमस्ते ${name},`,
    intro:
      'किसी ने आपके फ़ोन नंबर से यही रक्त अनुरोध फिर से करने की कोशिश की। कोई नया अनुरोध नहीं बना: आपका अनुरोध अभी भी खुला है। इसकी जानकारी यहाँ देखें:',
    label: 'अनुरोध देखें',
    outro: `इसका ट्रैकिंग कोड ${code} है। अगर यह आप नहीं थे, तो कुछ नहीं बदला और आप इस ई-मेल को अनदेखा कर सकते हैं। ${APP_NAME} कभी पैसे नहीं माँगता।`,
  }),
  bn: (name, code) => ({
    subject: `আপনার রক্তের অনুরোধ ${code}: ট্র্যাকিং লিঙ্ক`,
    greeting: `নমস্কার ${name},`,
    intro:
      'কেউ আপনার ফোন নম্বর দিয়ে একই রক্তের অনুরোধ আবার করার চেষ্টা করেছে। নতুন কোনো অনুরোধ তৈরি হয়নি: আপনার অনুরোধ এখনও খোলা আছে। এখানে খোঁজ রাখুন:',
    label: 'অনুরোধের খোঁজ রাখুন',
    outro: `এর ট্র্যাকিং কোড ${code}। এটি আপনি না হলে কিছুই বদলায়নি, এই ই-মেলটি উপেক্ষা করতে পারেন। ${APP_NAME} কখনও টাকা চায় না।`,
  }),
  mr: (name, code) => ({
    subject: `तुमची रक्त विनंती ${code}: ट्रॅकिंग लिंक`,
    greeting: `नमस्कार ${name},`,
    intro:
      'कोणीतरी तुमच्या फोन नंबरने हीच रक्त विनंती पुन्हा करण्याचा प्रयत्न केला. नवीन विनंती तयार झाली नाही: तुमची विनंती अजूनही खुली आहे. तिची माहिती येथे पाहा:',
    label: 'विनंती पाहा',
    outro: `तिचा ट्रॅकिंग कोड ${code} आहे. हे तुम्ही नसाल तर काहीही बदलले नाही आणि तुम्ही या ई-मेलकडे दुर्लक्ष करू शकता. ${APP_NAME} कधीही पैसे मागत नाही.`,
  }),
  te: (name, code) => ({
    subject: `మీ రక్త అభ్యర్థన ${code}: ట్రాకింగ్ లింక్`,
    greeting: `నమస్కారం ${name},`,
    intro:
      'ఎవరో మీ ఫోన్ నంబర్‌తో అదే రక్త అభ్యర్థనను మళ్లీ చేయడానికి ప్రయత్నించారు. కొత్త అభ్యర్థన ఏదీ సృష్టించబడలేదు: మీ అభ్యర్థన ఇంకా తెరిచే ఉంది. దాన్ని ఇక్కడ చూడండి:',
    label: 'అభ్యర్థనను చూడండి',
    outro: `దాని ట్రాకింగ్ కోడ్ ${code}. అది మీరు కాకపోతే ఏమీ మారలేదు, ఈ ఈమెయిల్‌ను పట్టించుకోనవసరం లేదు. ${APP_NAME} ఎప్పుడూ డబ్బు అడగదు.`,
  }),
  ta: (name, code) => ({
    subject: `உங்கள் இரத்தக் கோரிக்கை ${code}: கண்காணிப்பு இணைப்பு`,
    greeting: `வணக்கம் ${name},`,
    intro:
      'யாரோ உங்கள் தொலைபேசி எண்ணைக் கொண்டு அதே இரத்தக் கோரிக்கையை மீண்டும் செய்ய முயன்றனர். புதிய கோரிக்கை எதுவும் உருவாக்கப்படவில்லை: உங்கள் கோரிக்கை இன்னும் திறந்தே உள்ளது. அதை இங்கே பின்தொடருங்கள்:',
    label: 'கோரிக்கையைப் பின்தொடர',
    outro: `அதன் கண்காணிப்புக் குறியீடு ${code}. அது நீங்கள் இல்லை என்றால் எதுவும் மாறவில்லை, இந்த மின்னஞ்சலைப் புறக்கணிக்கலாம். ${APP_NAME} ஒருபோதும் பணம் கேட்பதில்லை.`,
  }),
};

/**
 * The tracking link of an open request, sent to the e-mail address given with it when a
 * duplicate is made by a caller who may not see the request (a guest owner gets their link
 * here, a stranger learns nothing). In the requester's language.
 */
export function renderTrackingLinkMail(input: {
  to: string;
  language: string | null;
  contactName: string;
  trackingCode: string;
  publicUrl: string;
}): OutgoingMail {
  const lang = mailLanguage(input.language);
  const { label, ...texts } = TEXT[lang](input.contactName, input.trackingCode);
  const url = `${input.publicUrl}/emergency?track=${encodeURIComponent(input.trackingCode)}`;
  return {
    to: input.to,
    userId: null,
    kind: 'blood_request_tracking_link',
    ...renderMailLayout({
      lang,
      ...texts,
      highlight: { kind: 'link', url, label },
      publicUrl: input.publicUrl,
    }),
  };
}
