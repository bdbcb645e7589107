import { mailLanguage, type MailLanguage } from '../mail/templates';
import type { NotificationParams, NotificationType } from '../templates';
import type { RequesterMessageKind } from './channel';
import { smsLength } from './smpp-client';

/**
 * Texts for the phone channels (SMS, WhatsApp replies). A donor alert must fit ONE SMS: 160
 * GSM-7 characters, or 70 UCS-2 when the text holds any other character (every Indian script;
 * 3GPP TS 23.038). Each language lists variants from the fullest to the shortest; the first
 * that fits with the link is sent, so a long hospital name costs detail, never a second part.
 */

type Fill = Record<string, string>;
type Variant = (p: Fill) => string;

const ALERT_VARIANTS: Record<MailLanguage, Variant[]> = {
  en: [
    (p) =>
      `${p.urgency}: ${p.bloodType} blood, ${p.units} unit(s) at ${p.hospital}, ${p.city}, ${p.distance} km from you. Reply YES to donate or open ${p.link}`,
    (p) =>
      `${p.urgency}: ${p.bloodType} blood needed at ${p.hospital}, ${p.distance} km. Reply YES to donate: ${p.link}`,
    (p) =>
      `${p.urgency}: ${p.bloodType} blood needed ${p.distance} km from you. Reply YES: ${p.link}`,
    (p) => `${p.bloodType} blood needed. Reply YES: ${p.link}`,
  ],
  es: [
    (p) =>
      `${p.urgency}: sangre ${p.bloodType}, ${p.units} unidad(es) en ${p.hospital}, ${p.city}, a ${p.distance} km. Responde YES para donar o abre ${p.link}`,
    (p) => `Sangre ${p.bloodType} a ${p.distance} km. Responde YES para donar: ${p.link}`,
    (p) => `Sangre ${p.bloodType}. Responde YES: ${p.link}`,
  ],
  hi: [
    (p) => `${p.urgency}: ${p.bloodType} रक्त, ${p.hospital}, ${p.distance} km. YES भेजें ${p.link}`,
    (p) => `${p.urgency}: ${p.bloodType} रक्त, ${p.distance} km. YES भेजें ${p.link}`,
    (p) => `${p.bloodType} रक्त चाहिए। YES भेजें ${p.link}`,
    (p) => `${p.bloodType} रक्त: ${p.link}`,
  ],
  bn: [
    (p) => `${p.urgency}: ${p.bloodType} রক্ত, ${p.distance} km। YES পাঠান ${p.link}`,
    (p) => `${p.bloodType} রক্ত দরকার। YES পাঠান ${p.link}`,
    (p) => `${p.bloodType} রক্ত: ${p.link}`,
  ],
  mr: [
    (p) => `${p.urgency}: ${p.bloodType} रक्त, ${p.distance} km. YES पाठवा ${p.link}`,
    (p) => `${p.bloodType} रक्त हवे. YES पाठवा ${p.link}`,
    (p) => `${p.bloodType} रक्त: ${p.link}`,
  ],
  te: [
    (p) => `${p.urgency}: ${p.bloodType} రక్తం, ${p.distance} km. YES పంపండి ${p.link}`,
    (p) => `${p.bloodType} రక్తం కావాలి. YES పంపండి ${p.link}`,
    (p) => `${p.bloodType} రక్తం: ${p.link}`,
  ],
  ta: [
    (p) => `${p.urgency}: ${p.bloodType} இரத்தம், ${p.distance} km. YES அனுப்புக ${p.link}`,
    (p) => `${p.bloodType} இரத்தம் தேவை. YES அனுப்புக ${p.link}`,
    (p) => `${p.bloodType} இரத்தம்: ${p.link}`,
  ],
};

function resolveParams(params: NotificationParams, language: MailLanguage): Fill {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [
      key,
      typeof value === 'function' ? value(language) : value,
    ]),
  );
}

/** Whether `text` is one SMS. */
export function fitsOneSms(text: string): boolean {
  const { used, limit } = smsLength(text);
  return used <= limit;
}

/**
 * The one-SMS text of a notification a phone channel carries, or null for the types that stay
 * in the app and e-mail. `link` is the short link that opens the notification's page.
 */
export function renderPhoneAlert(
  type: NotificationType,
  language: string | null | undefined,
  params: NotificationParams,
  link: string,
): string | null {
  if (type !== 'blood_request.match') return null;
  const lang = mailLanguage(language);
  const fill = { ...resolveParams(params, lang), link };
  const variants = ALERT_VARIANTS[lang];
  for (const variant of variants) {
    const text = variant(fill);
    if (fitsOneSms(text)) return text;
  }
  // The link alone always goes out, even when the public URL is too long for one part.
  return variants[variants.length - 1]!(fill);
}

/**
 * A guest requester's messages (features/notifications/requester-messages.ts): the tracking
 * code and the short link to the tracking page, never a phone number or the patient's name.
 * ONE part like the alerts (the SMPP client sends one submit_sm): English and Spanish in GSM-7
 * (160; the Spanish is written without accents, which would make it Unicode and 70), the
 * Indian scripts in Unicode (70). Fullest first; the last variant is the code and the link.
 */
const REQUESTER_VARIANTS: Record<MailLanguage, Record<RequesterMessageKind, Variant[]>> = {
  en: {
    request_received: [
      (p) =>
        `Your blood request is received. Tracking code ${p.code}. Follow it here: ${p.link} We never ask for money.`,
      (p) => `Blood request received, code ${p.code}: ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
    donor_coming: [
      (p) =>
        `Good news: a donor accepted your blood request ${p.code} and is coming to donate. Follow it here: ${p.link}`,
      (p) => `A donor is coming for request ${p.code}: ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
  },
  es: {
    request_received: [
      (p) =>
        `Recibimos tu solicitud de sangre. Codigo de seguimiento ${p.code}. Siguela aqui: ${p.link} Nunca pedimos dinero.`,
      (p) => `Solicitud de sangre recibida, codigo ${p.code}: ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
    donor_coming: [
      (p) =>
        `Buenas noticias: un donante acepto tu solicitud de sangre ${p.code} y va a donar. Siguela aqui: ${p.link}`,
      (p) => `Un donante va a donar, solicitud ${p.code}: ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
  },
  hi: {
    request_received: [
      (p) => `रक्त अनुरोध ${p.code} मिला। देखें: ${p.link}`,
      (p) => `अनुरोध ${p.code} मिला ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
    donor_coming: [
      (p) => `अनुरोध ${p.code}: रक्तदाता आ रहा है ${p.link}`,
      (p) => `${p.code}: रक्तदाता आ रहा है ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
  },
  bn: {
    request_received: [
      (p) => `রক্তের অনুরোধ ${p.code} পেয়েছি। ${p.link}`,
      (p) => `অনুরোধ ${p.code} পেয়েছি ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
    donor_coming: [
      (p) => `অনুরোধ ${p.code}: রক্তদাতা আসছেন ${p.link}`,
      (p) => `${p.code}: রক্তদাতা আসছেন ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
  },
  mr: {
    request_received: [
      (p) => `रक्त विनंती ${p.code} मिळाली. पाहा: ${p.link}`,
      (p) => `विनंती ${p.code} मिळाली ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
    donor_coming: [
      (p) => `विनंती ${p.code}: रक्तदाता येत आहे ${p.link}`,
      (p) => `${p.code}: रक्तदाता येत आहे ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
  },
  te: {
    request_received: [
      (p) => `రక్త అభ్యర్థన ${p.code} అందింది ${p.link}`,
      (p) => `అభ్యర్థన ${p.code} అందింది ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
    donor_coming: [
      (p) => `అభ్యర్థన ${p.code}: దాత వస్తున్నారు ${p.link}`,
      (p) => `${p.code}: దాత వస్తున్నారు ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
  },
  ta: {
    request_received: [
      (p) => `இரத்தக் கோரிக்கை ${p.code} பெறப்பட்டது ${p.link}`,
      (p) => `கோரிக்கை ${p.code} பெறப்பட்டது ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
    donor_coming: [
      (p) => `கோரிக்கை ${p.code}: கொடையாளர் வருகிறார் ${p.link}`,
      (p) => `${p.code}: கொடையாளர் வருகிறார் ${p.link}`,
      (p) => `${p.code} ${p.link}`,
    ],
  },
};

/**
 * The one-SMS text of a guest requester's message in `language`: the tracking `code` and the
 * `link` to the tracking page. Like the alerts, the last variant goes out even if too long.
 */
export function renderRequesterText(
  kind: RequesterMessageKind,
  language: string | null | undefined,
  fill: { code: string; link: string },
): string {
  const variants = REQUESTER_VARIANTS[mailLanguage(language)][kind];
  for (const variant of variants) {
    const text = variant(fill);
    if (fitsOneSms(text)) return text;
  }
  return variants[variants.length - 1]!(fill);
}

/**
 * `not_eligible` (issue #32 item 2): an accept refused because the donor may not give blood at
 * that moment (the matcher's own checks, NBTC 2017 / Schedule F XII-B); `until` is the date they
 * may give again in their language, when one is known.
 */
export const REPLY_KINDS = [
  'accepted',
  'declined',
  'late',
  'unknown',
  'stopped',
  'not_eligible',
] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

const REPLIES: Record<MailLanguage, Record<ReplyKind, (p: Fill) => string>> = {
  en: {
    not_eligible: (p) =>
      p.until
        ? `Thank you, but you cannot give blood now, so this acceptance was not recorded. Please do not go. You can give again from ${p.until}.`
        : `Thank you, but you cannot give blood now, so this acceptance was not recorded. Please do not go. Your account shows why.`,
    accepted: (p) =>
      `Thank you! Please contact ${p.contactName} on ${p.contactPhone} and go to ${p.hospital}, ${p.address}. Details: ${p.link}`,
    declined: () => 'Thank you for telling us. We will not ask you about this request again.',
    late: () =>
      'Thank you for replying. This request no longer needs an answer from you: it was answered already or is closed.',
    unknown: () =>
      'Sorry, we did not understand. Reply YES to accept the latest blood request we sent you, NO to decline, or STOP to end these messages.',
    stopped: () =>
      'You will get no more alerts on this channel. You can turn them on again in your account settings.',
  },
  es: {
    not_eligible: (p) =>
      p.until
        ? `Gracias, pero ahora no puedes donar: no registramos tu aceptación. No acudas. Podrás donar desde el ${p.until}.`
        : `Gracias, pero ahora no puedes donar: no registramos tu aceptación. No acudas. Tu cuenta muestra el motivo.`,
    accepted: (p) =>
      `¡Gracias! Contacta con ${p.contactName} en el ${p.contactPhone} y ve a ${p.hospital}, ${p.address}. Detalles: ${p.link}`,
    declined: () => 'Gracias por avisarnos. No te volveremos a preguntar por esta solicitud.',
    late: () =>
      'Gracias por responder. Esta solicitud ya no necesita tu respuesta: ya fue respondida o está cerrada.',
    unknown: () =>
      'Lo sentimos, no lo entendimos. Responde YES para aceptar la última solicitud de sangre que te enviamos, NO para rechazarla o STOP para dejar de recibir estos mensajes.',
    stopped: () =>
      'No recibirás más avisos por este canal. Puedes volver a activarlos en la configuración de tu cuenta.',
  },
  hi: {
    not_eligible: (p) =>
      p.until
        ? `धन्यवाद, पर आप अभी रक्तदान नहीं कर सकते: स्वीकृति दर्ज नहीं हुई, कृपया न जाएँ। ${p.until} से फिर दे सकते हैं।`
        : `धन्यवाद, पर आप अभी रक्तदान नहीं कर सकते: स्वीकृति दर्ज नहीं हुई, कृपया न जाएँ। कारण खाते में देखें।`,
    accepted: (p) =>
      `धन्यवाद! कृपया ${p.contactName} से ${p.contactPhone} पर संपर्क करें और ${p.hospital}, ${p.address} पहुँचें। विवरण: ${p.link}`,
    declined: () => 'बताने के लिए धन्यवाद। इस अनुरोध के बारे में हम आपसे दोबारा नहीं पूछेंगे।',
    late: () =>
      'उत्तर के लिए धन्यवाद। इस अनुरोध को अब आपके उत्तर की ज़रूरत नहीं है: इसका उत्तर पहले ही मिल चुका है या यह बंद हो चुका है।',
    unknown: () =>
      'क्षमा करें, हम समझ नहीं पाए। हमारे भेजे सबसे हाल के रक्त अनुरोध को स्वीकार करने के लिए YES, मना करने के लिए NO, या ये संदेश बंद करने के लिए STOP भेजें।',
    stopped: () =>
      'इस माध्यम पर अब आपको अलर्ट नहीं मिलेंगे। आप इन्हें अपने खाते की सेटिंग में फिर से चालू कर सकते हैं।',
  },
  bn: {
    not_eligible: (p) =>
      p.until
        ? `ধন্যবাদ, কিন্তু আপনি এখন রক্ত দিতে পারবেন না: সম্মতি নথিভুক্ত হয়নি, যাবেন না। ${p.until} থেকে আবার দিতে পারবেন।`
        : `ধন্যবাদ, কিন্তু আপনি এখন রক্ত দিতে পারবেন না: সম্মতি নথিভুক্ত হয়নি, যাবেন না। কারণ অ্যাকাউন্টে দেখুন।`,
    accepted: (p) =>
      `ধন্যবাদ! অনুগ্রহ করে ${p.contactName}-এর সঙ্গে ${p.contactPhone} নম্বরে যোগাযোগ করুন এবং ${p.hospital}, ${p.address}-এ যান। বিস্তারিত: ${p.link}`,
    declined: () => 'জানানোর জন্য ধন্যবাদ। এই অনুরোধ নিয়ে আমরা আপনাকে আর জিজ্ঞেস করব না।',
    late: () =>
      'উত্তর দেওয়ার জন্য ধন্যবাদ। এই অনুরোধে আপনার উত্তর আর দরকার নেই: এর উত্তর আগেই এসেছে বা এটি বন্ধ হয়ে গেছে।',
    unknown: () =>
      'দুঃখিত, আমরা বুঝতে পারিনি। আমাদের পাঠানো সাম্প্রতিকতম রক্তের অনুরোধ গ্রহণ করতে YES, না বলতে NO, অথবা এই বার্তা বন্ধ করতে STOP পাঠান।',
    stopped: () => 'এই মাধ্যমে আপনি আর সতর্কবার্তা পাবেন না। অ্যাকাউন্টের সেটিংসে আবার চালু করতে পারবেন।',
  },
  mr: {
    not_eligible: (p) =>
      p.until
        ? `धन्यवाद, पण तुम्ही आत्ता रक्तदान करू शकत नाही: स्वीकृती नोंदवली नाही, जाऊ नका. ${p.until} पासून पुन्हा देता येईल.`
        : `धन्यवाद, पण तुम्ही आत्ता रक्तदान करू शकत नाही: स्वीकृती नोंदवली नाही, जाऊ नका. कारण खात्यात पाहा.`,
    accepted: (p) =>
      `धन्यवाद! कृपया ${p.contactName} यांच्याशी ${p.contactPhone} वर संपर्क करा आणि ${p.hospital}, ${p.address} येथे जा. तपशील: ${p.link}`,
    declined: () => 'कळवल्याबद्दल धन्यवाद. या विनंतीबद्दल आम्ही तुम्हाला पुन्हा विचारणार नाही.',
    late: () =>
      'उत्तराबद्दल धन्यवाद. या विनंतीला आता तुमच्या उत्तराची गरज नाही: तिला आधीच उत्तर मिळाले आहे किंवा ती बंद झाली आहे.',
    unknown: () =>
      'क्षमस्व, आम्हाला समजले नाही. आम्ही पाठवलेली सर्वात अलीकडची रक्त विनंती स्वीकारण्यासाठी YES, नाकारण्यासाठी NO, किंवा हे संदेश थांबवण्यासाठी STOP पाठवा.',
    stopped: () =>
      'या माध्यमावर तुम्हाला आता सूचना मिळणार नाहीत. खात्याच्या सेटिंग्जमध्ये त्या पुन्हा सुरू करता येतील.',
  },
  te: {
    not_eligible: (p) =>
      p.until
        ? `ధన్యవాదాలు, కానీ మీరు ఇప్పుడు రక్తదానం చేయలేరు: అంగీకారం నమోదు కాలేదు, వెళ్లకండి. ${p.until} నుంచి మళ్లీ ఇవ్వవచ్చు.`
        : `ధన్యవాదాలు, కానీ మీరు ఇప్పుడు రక్తదానం చేయలేరు: అంగీకారం నమోదు కాలేదు, వెళ్లకండి. కారణం ఖాతాలో చూడండి.`,
    accepted: (p) =>
      `ధన్యవాదాలు! దయచేసి ${p.contactName}‌ను ${p.contactPhone}లో సంప్రదించి ${p.hospital}, ${p.address}కు వెళ్లండి. వివరాలు: ${p.link}`,
    declined: () => 'తెలియజేసినందుకు ధన్యవాదాలు. ఈ అభ్యర్థన గురించి మిమ్మల్ని మళ్లీ అడగము.',
    late: () =>
      'స్పందించినందుకు ధన్యవాదాలు. ఈ అభ్యర్థనకు ఇక మీ సమాధానం అవసరం లేదు: దీనికి ఇప్పటికే సమాధానం వచ్చింది లేదా ఇది ముగిసింది.',
    unknown: () =>
      'క్షమించండి, మాకు అర్థం కాలేదు. మేము పంపిన తాజా రక్త అభ్యర్థనను అంగీకరించడానికి YES, తిరస్కరించడానికి NO, లేదా ఈ సందేశాలు ఆపడానికి STOP పంపండి.',
    stopped: () => 'ఈ మాధ్యమంలో మీకు ఇక హెచ్చరికలు రావు. మీ ఖాతా సెట్టింగ్‌లలో వాటిని మళ్లీ ప్రారంభించవచ్చు.',
  },
  ta: {
    not_eligible: (p) =>
      p.until
        ? `நன்றி, நீங்கள் இப்போது இரத்த தானம் செய்ய முடியாது: ஒப்புதல் பதிவாகவில்லை, செல்ல வேண்டாம். ${p.until} முதல் தரலாம்.`
        : `நன்றி, நீங்கள் இப்போது இரத்த தானம் செய்ய முடியாது: ஒப்புதல் பதிவாகவில்லை, செல்ல வேண்டாம். காரணம் கணக்கில் உள்ளது.`,
    accepted: (p) =>
      `நன்றி! ${p.contactName} அவர்களை ${p.contactPhone} எண்ணில் தொடர்புகொண்டு ${p.hospital}, ${p.address} செல்லுங்கள். விவரங்கள்: ${p.link}`,
    declined: () => 'தெரிவித்ததற்கு நன்றி. இந்தக் கோரிக்கை பற்றி உங்களிடம் மீண்டும் கேட்கமாட்டோம்.',
    late: () =>
      'பதிலளித்ததற்கு நன்றி. இந்தக் கோரிக்கைக்கு இனி உங்கள் பதில் தேவையில்லை: ஏற்கெனவே பதில் கிடைத்துவிட்டது அல்லது அது முடிந்துவிட்டது.',
    unknown: () =>
      'மன்னிக்கவும், எங்களுக்குப் புரியவில்லை. நாங்கள் அனுப்பிய சமீபத்திய இரத்தக் கோரிக்கையை ஏற்க YES, மறுக்க NO, இந்தச் செய்திகளை நிறுத்த STOP அனுப்புங்கள்.',
    stopped: () => 'இந்த வழியில் இனி உங்களுக்கு எச்சரிக்கைகள் வராது. கணக்கு அமைப்புகளில் மீண்டும் இயக்கலாம்.',
  },
};

/** The answer to a reply by SMS or WhatsApp, in the person's language. */
export function renderReplyAnswer(
  kind: ReplyKind,
  language: string | null | undefined,
  params: Fill = {},
): string {
  return REPLIES[mailLanguage(language)][kind](params);
}

export type ReplyIntent = 'accept' | 'decline' | 'stop' | 'unknown';

/**
 * What a typed reply means. YES/Y/1 (and "haan"/"हाँ") accept, NO/N/2 decline, STOP (any case,
 * also "STOP ALL", "UNSUBSCRIBE") withdraws the consent; anything else is not understood.
 */
export function replyIntent(text: string): ReplyIntent {
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[.!।\s]+$/u, '');
  if (/^(stop|stop all|stopall|unsubscribe|end|quit|रोकें|बंद)$/u.test(word)) return 'stop';
  if (/^(yes|y|1|haan|han|ha|हाँ|हां|हा)$/u.test(word)) return 'accept';
  if (/^(no|n|2|nahi|नहीं|नाही)$/u.test(word)) return 'decline';
  return 'unknown';
}
