import type { DocumentType } from '@bdms/shared';
import { mailLanguage, type MailLanguage } from './mail/templates';
import { INDIC_NOTIFICATION_TEXT, INDIC_DOCUMENT_TYPE_NAMES } from './templates.indic';

/**
 * Notification texts, written in the recipient's language when the notification is created
 * (MESSAGE_LANGUAGES: en, es, hi, bn, mr, te, ta; English otherwise). `{name}` placeholders are
 * filled from `params`. The Bengali, Marathi, Telugu and Tamil texts are in templates.indic.ts.
 */
export const NOTIFICATION_TYPES = [
  'document.verified',
  'document.rejected',
  'donor.resubmitted',
  'donor.awaiting_verification',
  'questionnaire.review_reopened',
  'questionnaire.permanent_deferral_removed',
  'donor.approved',
  'donor.rejected',
  'donor.suspended',
  'donor.reactivated',
  'donation.recorded',
  'availability.expiring',
  'donor.eligible_again',
  'blood_request.critical',
  'blood_request.awaiting_verification',
  'blood_request.match',
  'blood_request.donor_accepted',
  'blood_request.donor_withdrew',
  'blood_request.status_changed',
  'blood_request.closed',
  'blood_request.back_to_review',
  'blood_request.on_hold',
  'blood_request.verified_again',
  'stock.reminder',
  'budget.phone_codes_near',
  'budget.reply_answers_near',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

type Text = { title: string; message: string };

type BaseLanguage = 'en' | 'es' | 'hi';

const BASE_NOTIFICATION_TEXT: Record<NotificationType, Record<BaseLanguage, Text>> = {
  'document.verified': {
    en: { title: 'Document verified', message: 'Your {document} has been verified.' },
    es: { title: 'Documento verificado', message: 'Tu {document} ha sido verificado.' },
    hi: { title: 'दस्तावेज़ सत्यापित', message: 'आपका {document} सत्यापित हो गया है।' },
  },
  'document.rejected': {
    en: {
      title: 'Document not accepted',
      message: 'Your {document} was not accepted: {reason}. Please upload it again.',
    },
    es: {
      title: 'Documento no aceptado',
      message: 'Tu {document} no fue aceptado: {reason}. Vuelve a subirlo, por favor.',
    },
    hi: {
      title: 'दस्तावेज़ स्वीकार नहीं हुआ',
      message: 'आपका {document} स्वीकार नहीं हुआ: {reason}। कृपया इसे फिर से अपलोड करें।',
    },
  },
  'donor.resubmitted': {
    en: {
      title: 'Sent for review again',
      message: 'Thank you. Your registration is waiting for review again.',
    },
    es: {
      title: 'Enviado de nuevo a revisión',
      message: 'Gracias. Tu registro está de nuevo pendiente de revisión.',
    },
    hi: {
      title: 'फिर से समीक्षा के लिए भेजा गया',
      message: 'धन्यवाद। आपका पंजीकरण फिर से समीक्षा की प्रतीक्षा में है।',
    },
  },
  'donor.awaiting_verification': {
    en: {
      title: 'Donor awaiting verification',
      message: 'A donor has completed onboarding and is waiting for verification.',
    },
    es: {
      title: 'Donante pendiente de verificación',
      message: 'Un donante ha completado el registro y espera verificación.',
    },
    hi: {
      title: 'दाता सत्यापन की प्रतीक्षा में',
      message: 'एक दाता ने पंजीकरण पूरा कर लिया है और सत्यापन की प्रतीक्षा कर रहा है।',
    },
  },
  'questionnaire.review_reopened': {
    en: {
      title: 'Health answers to review again',
      message:
        'A donor changed health answers that an administrator had rejected. They are not matched to requests until you review them.',
    },
    es: {
      title: 'Respuestas de salud para revisar de nuevo',
      message:
        'Un donante cambió respuestas de salud que un administrador había rechazado. No se le asignan solicitudes hasta que las revises.',
    },
    hi: {
      title: 'स्वास्थ्य उत्तरों की फिर से समीक्षा करें',
      message:
        'एक दाता ने वे स्वास्थ्य उत्तर बदल दिए हैं जिन्हें किसी प्रशासक ने अस्वीकार किया था। जब तक आप इनकी समीक्षा नहीं कर लेते, उन्हें किसी अनुरोध के लिए नहीं चुना जाएगा।',
    },
  },
  'questionnaire.permanent_deferral_removed': {
    en: {
      title: 'Permanent deferral removed',
      message:
        'An approved donor removed a condition that rules out giving blood for good. They are not matched to requests until you review their answers.',
    },
    es: {
      title: 'Exclusión permanente retirada',
      message:
        'Un donante aprobado retiró una condición que impide donar sangre para siempre. No se le asignan solicitudes hasta que revises sus respuestas.',
    },
    hi: {
      title: 'स्थायी रोक हटाई गई',
      message:
        'एक स्वीकृत दाता ने अपने उत्तरों से ऐसी स्वास्थ्य स्थिति हटा दी है जिसके रहते कभी रक्तदान नहीं किया जा सकता। जब तक आप उनके उत्तरों की समीक्षा नहीं कर लेते, उन्हें किसी अनुरोध के लिए नहीं चुना जाएगा।',
    },
  },
  'donor.approved': {
    en: { title: 'You are approved', message: 'Your donor account has been approved. Thank you!' },
    es: { title: 'Cuenta aprobada', message: 'Tu cuenta de donante ha sido aprobada. ¡Gracias!' },
    hi: { title: 'आप स्वीकृत हैं', message: 'आपका दाता खाता स्वीकृत हो गया है। धन्यवाद!' },
  },
  'donor.rejected': {
    en: {
      title: 'Registration not approved',
      message: 'Your registration was not approved: {reason}. You can update it and try again.',
    },
    es: {
      title: 'Registro no aprobado',
      message: 'Tu registro no fue aprobado: {reason}. Puedes corregirlo e intentarlo de nuevo.',
    },
    hi: {
      title: 'पंजीकरण स्वीकृत नहीं हुआ',
      message: 'आपका पंजीकरण स्वीकृत नहीं हुआ: {reason}। आप इसे सुधार कर फिर से भेज सकते हैं।',
    },
  },
  'donor.suspended': {
    en: { title: 'Account suspended', message: 'Your donor account is suspended: {reason}.' },
    es: { title: 'Cuenta suspendida', message: 'Tu cuenta de donante está suspendida: {reason}.' },
    hi: { title: 'खाता निलंबित', message: 'आपका दाता खाता निलंबित है: {reason}।' },
  },
  'donor.reactivated': {
    en: { title: 'Account reactivated', message: 'Your donor account is active again.' },
    es: { title: 'Cuenta reactivada', message: 'Tu cuenta de donante vuelve a estar activa.' },
    hi: { title: 'खाता फिर से सक्रिय', message: 'आपका दाता खाता फिर से सक्रिय है।' },
  },
  'donation.recorded': {
    en: {
      title: 'Donation recorded',
      message: 'Thank you for giving blood on {date} at {place}. Your certificate is ready.',
    },
    es: {
      title: 'Donación registrada',
      message: 'Gracias por donar sangre el {date} en {place}. Tu certificado está listo.',
    },
    hi: {
      title: 'रक्तदान दर्ज हुआ',
      message: '{date} को {place} में रक्तदान करने के लिए धन्यवाद। आपका प्रमाणपत्र तैयार है।',
    },
  },
  'stock.reminder': {
    en: {
      title: 'Please update your blood stock',
      message:
        'The stock of {centre} was last updated on {date}. Figures older than 24 hours are shown as stale and not counted as available: update them, or tap "Nothing changed".',
    },
    es: {
      title: 'Actualice sus existencias de sangre',
      message:
        'Las existencias de {centre} se actualizaron por última vez el {date}. Las cifras de más de 24 horas se muestran como desactualizadas y no cuentan como disponibles: actualícelas o pulse «Nada ha cambiado».',
    },
    hi: {
      title: 'कृपया अपना रक्त स्टॉक अपडेट करें',
      message:
        '{centre} का स्टॉक आखिरी बार {date} को अपडेट हुआ था। 24 घंटे से पुराने आंकड़े पुराने दिखाए जाते हैं और उपलब्ध नहीं गिने जाते: उन्हें अपडेट करें, या "कुछ नहीं बदला" दबाएँ।',
    },
  },
  // Issue #32 item 8: administrators are warned at 80 % of a daily budget of phone messages.
  'budget.phone_codes_near': {
    en: {
      title: 'Phone codes: daily budget nearly spent',
      message:
        '{sent} of today’s {budget} one-time codes by phone are sent. Past the budget, codes are refused until midnight (India time). Raise it on the channels panel if this is real use.',
    },
    es: {
      title: 'Códigos por teléfono: presupuesto diario casi agotado',
      message:
        'Se han enviado {sent} de los {budget} códigos de un solo uso por teléfono de hoy. Superado el presupuesto, los códigos se rechazan hasta la medianoche (hora de India). Auméntelo en el panel de canales si es un uso real.',
    },
    hi: {
      title: 'फ़ोन कोड: दैनिक बजट लगभग खत्म',
      message:
        'आज के {budget} में से {sent} एक-बार वाले फ़ोन कोड भेजे जा चुके हैं। बजट पार होने पर आधी रात (भारतीय समय) तक कोड नहीं भेजे जाएँगे। अगर यह असली उपयोग है तो चैनल पैनल पर बजट बढ़ाएँ।',
    },
  },
  'budget.reply_answers_near': {
    en: {
      title: 'Answers to replies: daily budget nearly spent',
      message:
        '{sent} of today’s {budget} answers to SMS and WhatsApp replies are sent. Past the budget, replies are still acted on but not answered until midnight (India time). Raise it on the channels panel if this is real use.',
    },
    es: {
      title: 'Respuestas a mensajes: presupuesto diario casi agotado',
      message:
        'Se han enviado {sent} de las {budget} respuestas de hoy a mensajes SMS y WhatsApp. Superado el presupuesto, los mensajes se siguen atendiendo pero no se responden hasta la medianoche (hora de India). Auméntelo en el panel de canales si es un uso real.',
    },
    hi: {
      title: 'जवाबों के उत्तर: दैनिक बजट लगभग खत्म',
      message:
        'SMS और WhatsApp जवाबों के आज के {budget} उत्तरों में से {sent} भेजे जा चुके हैं। बजट पार होने पर जवाबों पर कार्रवाई होती रहेगी, पर आधी रात (भारतीय समय) तक उत्तर नहीं भेजे जाएँगे। अगर यह असली उपयोग है तो चैनल पैनल पर बजट बढ़ाएँ।',
    },
  },
  'availability.expiring': {
    en: {
      title: 'Are you still available?',
      message: 'Your availability to donate ends on {date}. Confirm it to keep receiving requests.',
    },
    es: {
      title: '¿Sigues disponible?',
      message:
        'Tu disponibilidad para donar termina el {date}. Confírmala para seguir recibiendo solicitudes.',
    },
    hi: {
      title: 'क्या आप अब भी उपलब्ध हैं?',
      message:
        'रक्तदान के लिए आपकी उपलब्धता {date} को समाप्त हो रही है। अनुरोध मिलते रहें, इसके लिए इसकी पुष्टि करें।',
    },
  },
  // Blood requests. Never the requester's or a donor's phone: these texts reach lock screens.
  'blood_request.critical': {
    en: {
      title: 'Critical blood request',
      message:
        'Critical: {units} unit(s) of {bloodType} needed at {hospital}, {city}. Please review it now.',
    },
    es: {
      title: 'Solicitud de sangre crítica',
      message:
        'Crítico: se necesitan {units} unidad(es) de {bloodType} en {hospital}, {city}. Revísala ahora.',
    },
    hi: {
      title: 'गंभीर रक्त अनुरोध',
      message:
        'गंभीर: {hospital}, {city} में {bloodType} की {units} यूनिट चाहिए। कृपया अभी इसकी समीक्षा करें।',
    },
  },
  'blood_request.awaiting_verification': {
    en: {
      title: 'Blood request to verify',
      message:
        '{units} unit(s) of {bloodType} requested at {hospital}, {city}. Verify it so donors are told.',
    },
    es: {
      title: 'Solicitud de sangre por verificar',
      message:
        'Se piden {units} unidad(es) de {bloodType} en {hospital}, {city}. Verifícala para avisar a los donantes.',
    },
    hi: {
      title: 'सत्यापन हेतु रक्त अनुरोध',
      message:
        '{hospital}, {city} में {bloodType} की {units} यूनिट का अनुरोध है। इसे सत्यापित करें ताकि दाताओं को बताया जा सके।',
    },
  },
  'blood_request.match': {
    en: {
      title: '{urgency}: {bloodType} blood needed near you',
      message:
        '{units} unit(s) of {bloodType} needed at {hospital}, {city}, about {distance} km from you. Open the app to accept or decline.',
    },
    es: {
      title: '{urgency}: se necesita sangre {bloodType} cerca de ti',
      message:
        'Se necesitan {units} unidad(es) de {bloodType} en {hospital}, {city}, a unos {distance} km. Abre la app para aceptar o rechazar.',
    },
    hi: {
      title: '{urgency}: आपके पास {bloodType} रक्त की ज़रूरत',
      message:
        '{hospital}, {city} में {bloodType} की {units} यूनिट चाहिए, आपसे लगभग {distance} किमी दूर। स्वीकार या अस्वीकार करने के लिए ऐप खोलें।',
    },
  },
  'blood_request.donor_accepted': {
    en: {
      title: 'Donors on their way',
      message: '{count} donor(s) on their way for your request {code} at {hospital}.',
    },
    es: {
      title: 'Donantes en camino',
      message: '{count} donante(s) en camino para tu solicitud {code} en {hospital}.',
    },
    hi: {
      title: 'दाता रास्ते में हैं',
      message: '{hospital} में आपके अनुरोध {code} के लिए {count} दाता रास्ते में हैं।',
    },
  },
  'blood_request.donor_withdrew': {
    en: {
      title: 'A donor can no longer come',
      message:
        'A donor who accepted your request {code} at {hospital} can no longer come. Donors still on their way: {count}.',
    },
    es: {
      title: 'Un donante ya no puede venir',
      message:
        'Un donante que aceptó tu solicitud {code} en {hospital} ya no puede venir. Donantes aún en camino: {count}.',
    },
    hi: {
      title: 'एक दाता अब नहीं आ सकते',
      message:
        '{hospital} में आपके अनुरोध {code} को स्वीकार करने वाले एक दाता अब नहीं आ सकते। अब भी रास्ते में दाता: {count}।',
    },
  },
  'donor.eligible_again': {
    en: {
      title: 'You can give blood again',
      message: 'From {date} you can donate blood again. Thank you for helping save lives.',
    },
    es: {
      title: 'Ya puedes volver a donar sangre',
      message: 'Desde el {date} puedes volver a donar sangre. Gracias por ayudar a salvar vidas.',
    },
    hi: {
      title: 'आप फिर से रक्तदान कर सकते हैं',
      message: '{date} से आप फिर से रक्तदान कर सकते हैं। जीवन बचाने में मदद के लिए धन्यवाद।',
    },
  },
  'blood_request.back_to_review': {
    en: {
      title: 'Verified request changed',
      message:
        'The request {code} for {bloodType} blood at {hospital}, {city} was changed by its requester after it was verified ({fields}). It is waiting for verification again; donors are not told until it is checked.',
    },
    es: {
      title: 'Solicitud verificada modificada',
      message:
        'La solicitud {code} de sangre {bloodType} en {hospital}, {city} fue modificada por quien la hizo después de verificarse ({fields}). Espera de nuevo la verificación; no se avisa a donantes hasta revisarla.',
    },
    hi: {
      title: 'सत्यापित अनुरोध बदला गया',
      message:
        '{hospital}, {city} में {bloodType} रक्त के अनुरोध {code} को सत्यापन के बाद अनुरोधकर्ता ने बदला ({fields})। यह फिर से सत्यापन की प्रतीक्षा में है; जाँच होने तक दाताओं को नहीं बताया जाएगा।',
    },
  },
  'blood_request.on_hold': {
    en: {
      title: 'Please wait before travelling',
      message:
        'The details of the request for {bloodType} blood at {hospital}, {city} were changed and are being checked again. Please do not travel or pay anyone until it is verified; we will tell you.',
    },
    es: {
      title: 'Espera antes de ir',
      message:
        'Los datos de la solicitud de sangre {bloodType} en {hospital}, {city} cambiaron y se están revisando de nuevo. No vayas ni pagues a nadie hasta que se verifique; te avisaremos.',
    },
    hi: {
      title: 'कृपया अभी यात्रा न करें',
      message:
        '{hospital}, {city} में {bloodType} रक्त के अनुरोध का विवरण बदला गया है और उसकी फिर से जाँच हो रही है। सत्यापन होने तक कृपया यात्रा न करें और किसी को कोई पैसा न दें; हम आपको बताएँगे।',
    },
  },
  'blood_request.verified_again': {
    en: {
      title: 'Request verified again',
      message:
        'The request for {bloodType} blood at {hospital}, {city} was checked and verified again. Its contact details may have changed: open it to see them before you go.',
    },
    es: {
      title: 'Solicitud verificada de nuevo',
      message:
        'La solicitud de sangre {bloodType} en {hospital}, {city} se revisó y verificó de nuevo. Sus datos de contacto pueden haber cambiado: ábrela para verlos antes de ir.',
    },
    hi: {
      title: 'अनुरोध फिर से सत्यापित',
      message:
        '{hospital}, {city} में {bloodType} रक्त के अनुरोध की फिर से जाँच हुई और यह सत्यापित है। इसका संपर्क विवरण बदल सकता है: जाने से पहले इसे खोलकर देखें।',
    },
  },
  'blood_request.closed': {
    en: {
      title: 'Blood no longer needed',
      message:
        'The request for {bloodType} blood at {hospital}, {city} is {status}. Please do not travel for it. Thank you for offering!',
    },
    es: {
      title: 'Ya no se necesita sangre',
      message:
        'La solicitud de sangre {bloodType} en {hospital}, {city} está {status}. No hace falta que vayas. ¡Gracias por ofrecerte!',
    },
    hi: {
      title: 'अब रक्त की आवश्यकता नहीं',
      message:
        '{hospital}, {city} में {bloodType} रक्त का अनुरोध {status} है। कृपया इसके लिए यात्रा न करें। आगे आने के लिए धन्यवाद!',
    },
  },
  'blood_request.status_changed': {
    en: { title: 'Blood request {code}', message: 'Your blood request {code} is now {status}.' },
    es: {
      title: 'Solicitud de sangre {code}',
      message: 'Tu solicitud de sangre {code} ahora está {status}.',
    },
    hi: { title: 'रक्त अनुरोध {code}', message: 'आपका रक्त अनुरोध {code} अब {status} है।' },
  },
};

export const NOTIFICATION_TEXT = Object.fromEntries(
  NOTIFICATION_TYPES.map((type) => [
    type,
    { ...BASE_NOTIFICATION_TEXT[type], ...INDIC_NOTIFICATION_TEXT[type] },
  ]),
) as Record<NotificationType, Record<MailLanguage, Text>>;

const BASE_DOCUMENT_TYPE_NAMES: Record<DocumentType, Record<BaseLanguage, string>> = {
  id_proof: { en: 'ID proof', es: 'documento de identidad', hi: 'पहचान प्रमाण' },
  address_proof: { en: 'address proof', es: 'comprobante de domicilio', hi: 'पते का प्रमाण' },
  medical_certificate: {
    en: 'medical certificate',
    es: 'certificado médico',
    hi: 'चिकित्सा प्रमाणपत्र',
  },
  photo: { en: 'photo', es: 'foto', hi: 'फ़ोटो' },
};

export const DOCUMENT_TYPE_NAMES = Object.fromEntries(
  (Object.keys(BASE_DOCUMENT_TYPE_NAMES) as DocumentType[]).map((type) => [
    type,
    { ...BASE_DOCUMENT_TYPE_NAMES[type], ...INDIC_DOCUMENT_TYPE_NAMES[type] },
  ]),
) as Record<DocumentType, Record<MailLanguage, string>>;

/** A value, or one that depends on the recipient's language (a document type's name, a date). */
export type NotificationParams = Record<string, string | ((language: MailLanguage) => string)>;

export function renderNotification(
  type: NotificationType,
  language: string | null | undefined,
  params: NotificationParams = {},
): Text & { language: MailLanguage } {
  const lang = mailLanguage(language);
  const text = NOTIFICATION_TEXT[type][lang];
  const fill = (value: string) =>
    value.replace(/\{(\w+)\}/g, (whole, key: string) => {
      const param = params[key];
      if (param === undefined) return whole;
      return typeof param === 'function' ? param(lang) : param;
    });
  return { title: fill(text.title), message: fill(text.message), language: lang };
}

/** `{document}`: a document type's name in the recipient's language. */
export function documentTypeName(type: DocumentType) {
  return (language: MailLanguage) => DOCUMENT_TYPE_NAMES[type][language];
}

/**
 * Latin digits throughout (bn-IN and mr-IN default to their own digits): the other numbers in a
 * message ({units}, {distance}, codes) are in Latin digits too.
 */
const DATE_LOCALES: Record<MailLanguage, string> = {
  en: 'en-IN',
  es: 'es-ES',
  hi: 'hi-IN',
  bn: 'bn-IN-u-nu-latn',
  mr: 'mr-IN-u-nu-latn',
  te: 'te-IN',
  ta: 'ta-IN',
};

/** `{date}`: a calendar date in the recipient's language, as it is in India. */
export function localDate(value: Date | string) {
  return (language: MailLanguage) =>
    new Intl.DateTimeFormat(DATE_LOCALES[language], {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Asia/Kolkata',
    }).format(new Date(value));
}
