import { MESSAGE_LANGUAGES, type MessageLanguage, type RequestOutcome } from '@bdms/shared';

/**
 * The monthly report's words for the PDF and the e-mail, in every message language (the
 * administrator's own); the CSV keeps English column names, for spreadsheets and scripts.
 */
export interface ReportTexts {
  /** BCP 47 tag for Intl months and numbers, Indian region. */
  locale: string;
  title: string;
  /** Under the title while the month runs. */
  running: string;
  generated: (date: string) => string;
  totals: string;
  registrations: string;
  approvals: string;
  requests: string;
  donations: string;
  units: string;
  byUrgency: string;
  urgency: Record<'urgent' | 'critical', string>;
  outcome: Record<RequestOutcome, string>;
  total: string;
  firstAcceptance: string;
  accepted: string;
  median: string;
  average: string;
  minutes: (value: string) => string;
  none: string;
  byState: string;
  state: string;
  stateUnknown: string;
  mail: {
    subject: (month: string) => string;
    greeting: string;
    intro: (month: string) => string;
    link: string;
    outro: string;
  };
}

const TEXTS: Record<MessageLanguage, ReportTexts> = {
  en: {
    locale: 'en-IN',
    title: 'Monthly report',
    running: 'The month is not over: figures so far.',
    generated: (date) => `Generated on ${date} (India time)`,
    totals: 'The month in figures',
    registrations: 'Registrations',
    approvals: 'Approvals',
    requests: 'Blood requests',
    donations: 'Donations',
    units: 'Units donated',
    byUrgency: 'Requests by urgency and outcome',
    urgency: { urgent: 'Urgent', critical: 'Critical' },
    outcome: {
      open: 'Still open',
      fulfilled: 'Fulfilled',
      cancelled: 'Cancelled',
      expired: 'Expired',
    },
    total: 'Total',
    firstAcceptance: 'Time to the first accepted donor',
    accepted: 'Requests a donor accepted',
    median: 'Median',
    average: 'Average',
    minutes: (value) => `${value} min`,
    none: '—',
    byState: 'By state',
    state: 'State',
    stateUnknown: 'Not given',
    mail: {
      subject: (month) => `Monthly report: ${month}`,
      greeting: 'Hello,',
      intro: (month) => `The report for ${month} is ready. In brief:`,
      link: 'Open the report',
      outro:
        'The whole report, with charts and figures by state, as CSV or PDF, is in the administrators’ console.',
    },
  },
  es: {
    locale: 'es-IN',
    title: 'Informe mensual',
    running: 'El mes no ha terminado: cifras hasta hoy.',
    generated: (date) => `Generado el ${date} (hora de la India)`,
    totals: 'El mes en cifras',
    registrations: 'Registros',
    approvals: 'Aprobaciones',
    requests: 'Solicitudes de sangre',
    donations: 'Donaciones',
    units: 'Unidades donadas',
    byUrgency: 'Solicitudes por urgencia y resultado',
    urgency: { urgent: 'Urgente', critical: 'Crítica' },
    outcome: {
      open: 'Aún abiertas',
      fulfilled: 'Atendidas',
      cancelled: 'Canceladas',
      expired: 'Caducadas',
    },
    total: 'Total',
    firstAcceptance: 'Tiempo hasta el primer donante que aceptó',
    accepted: 'Solicitudes que un donante aceptó',
    median: 'Mediana',
    average: 'Media',
    minutes: (value) => `${value} min`,
    none: '—',
    byState: 'Por estado',
    state: 'Estado',
    stateUnknown: 'Sin indicar',
    mail: {
      subject: (month) => `Informe mensual: ${month}`,
      greeting: 'Hola:',
      intro: (month) => `El informe de ${month} está listo. En resumen:`,
      link: 'Abrir el informe',
      outro:
        'El informe completo, con gráficos y cifras por estado, en CSV o PDF, está en la consola de administración.',
    },
  },
  hi: {
    locale: 'hi-IN',
    title: 'मासिक रिपोर्ट',
    running: 'महीना अभी पूरा नहीं हुआ है: अब तक के आँकड़े।',
    generated: (date) => `${date} को बनाई गई (भारतीय समय)`,
    totals: 'महीना आँकड़ों में',
    registrations: 'पंजीकरण',
    approvals: 'स्वीकृतियाँ',
    requests: 'रक्त अनुरोध',
    donations: 'रक्तदान',
    units: 'दान की गई यूनिट',
    byUrgency: 'तात्कालिकता और परिणाम के अनुसार अनुरोध',
    urgency: { urgent: 'तत्काल', critical: 'गंभीर' },
    outcome: { open: 'अभी खुले', fulfilled: 'पूरे हुए', cancelled: 'रद्द', expired: 'समय-सीमा समाप्त' },
    total: 'कुल',
    firstAcceptance: 'पहले दाता के स्वीकार करने तक का समय',
    accepted: 'अनुरोध जिन्हें किसी दाता ने स्वीकार किया',
    median: 'माध्यिका',
    average: 'औसत',
    minutes: (value) => `${value} मिनट`,
    none: '—',
    byState: 'राज्य के अनुसार',
    state: 'राज्य',
    stateUnknown: 'नहीं बताया',
    mail: {
      subject: (month) => `मासिक रिपोर्ट: ${month}`,
      greeting: 'नमस्ते,',
      intro: (month) => `${month} की रिपोर्ट तैयार है। संक्षेप में:`,
      link: 'रिपोर्ट खोलें',
      outro: 'पूरी रिपोर्ट, चार्ट और राज्यवार आँकड़ों के साथ, CSV या PDF के रूप में, प्रशासकों के कंसोल में है।',
    },
  },
  bn: {
    locale: 'bn-IN',
    title: 'মাসিক প্রতিবেদন',
    running: 'মাস এখনও শেষ হয়নি: এখন পর্যন্ত হিসাব।',
    generated: (date) => `${date} তারিখে তৈরি (ভারতীয় সময়)`,
    totals: 'সংখ্যায় মাসটি',
    registrations: 'নিবন্ধন',
    approvals: 'অনুমোদন',
    requests: 'রক্তের অনুরোধ',
    donations: 'রক্তদান',
    units: 'দান করা ইউনিট',
    byUrgency: 'জরুরিতা ও ফলাফল অনুযায়ী অনুরোধ',
    urgency: { urgent: 'জরুরি', critical: 'সংকটজনক' },
    outcome: {
      open: 'এখনও খোলা',
      fulfilled: 'পূরণ হয়েছে',
      cancelled: 'বাতিল',
      expired: 'মেয়াদোত্তীর্ণ',
    },
    total: 'মোট',
    firstAcceptance: 'প্রথম দাতার সম্মতি পর্যন্ত সময়',
    accepted: 'যে অনুরোধে কোনো দাতা সম্মতি দিয়েছেন',
    median: 'মধ্যমা',
    average: 'গড়',
    minutes: (value) => `${value} মিনিট`,
    none: '—',
    byState: 'রাজ্য অনুযায়ী',
    state: 'রাজ্য',
    stateUnknown: 'দেওয়া হয়নি',
    mail: {
      subject: (month) => `মাসিক প্রতিবেদন: ${month}`,
      greeting: 'নমস্কার,',
      intro: (month) => `${month}-এর প্রতিবেদন তৈরি। সংক্ষেপে:`,
      link: 'প্রতিবেদন খুলুন',
      outro: 'চার্ট ও রাজ্যভিত্তিক হিসাবসহ পুরো প্রতিবেদন, CSV বা PDF হিসেবে, প্রশাসকদের কনসোলে আছে।',
    },
  },
  mr: {
    locale: 'mr-IN',
    title: 'मासिक अहवाल',
    running: 'महिना अजून संपलेला नाही: आतापर्यंतचे आकडे.',
    generated: (date) => `${date} रोजी तयार केला (भारतीय वेळ)`,
    totals: 'महिना आकड्यांत',
    registrations: 'नोंदणी',
    approvals: 'मंजुरी',
    requests: 'रक्त विनंत्या',
    donations: 'रक्तदान',
    units: 'दान केलेली युनिट',
    byUrgency: 'तातडी आणि निकालानुसार विनंत्या',
    urgency: { urgent: 'तातडीची', critical: 'गंभीर' },
    outcome: { open: 'अजून खुल्या', fulfilled: 'पूर्ण', cancelled: 'रद्द', expired: 'मुदत संपली' },
    total: 'एकूण',
    firstAcceptance: 'पहिल्या दात्याने स्वीकारेपर्यंतचा वेळ',
    accepted: 'ज्या विनंत्या एखाद्या दात्याने स्वीकारल्या',
    median: 'मध्यगा',
    average: 'सरासरी',
    minutes: (value) => `${value} मिनिटे`,
    none: '—',
    byState: 'राज्यानुसार',
    state: 'राज्य',
    stateUnknown: 'दिलेले नाही',
    mail: {
      subject: (month) => `मासिक अहवाल: ${month}`,
      greeting: 'नमस्कार,',
      intro: (month) => `${month} चा अहवाल तयार आहे. थोडक्यात:`,
      link: 'अहवाल उघडा',
      outro: 'तक्ते आणि राज्यनिहाय आकड्यांसह संपूर्ण अहवाल, CSV किंवा PDF स्वरूपात, प्रशासक कन्सोलमध्ये आहे.',
    },
  },
  te: {
    locale: 'te-IN',
    title: 'నెలవారీ నివేదిక',
    running: 'నెల ఇంకా పూర్తి కాలేదు: ఇప్పటివరకు ఉన్న లెక్కలు.',
    generated: (date) => `${date}న తయారైంది (భారత కాలమానం)`,
    totals: 'అంకెల్లో ఈ నెల',
    registrations: 'నమోదులు',
    approvals: 'ఆమోదాలు',
    requests: 'రక్త అభ్యర్థనలు',
    donations: 'రక్తదానాలు',
    units: 'దానం చేసిన యూనిట్లు',
    byUrgency: 'అత్యవసరత, ఫలితం వారీగా అభ్యర్థనలు',
    urgency: { urgent: 'అత్యవసరం', critical: 'తీవ్రం' },
    outcome: {
      open: 'ఇంకా తెరిచి ఉన్నవి',
      fulfilled: 'పూర్తయినవి',
      cancelled: 'రద్దయినవి',
      expired: 'గడువు ముగిసినవి',
    },
    total: 'మొత్తం',
    firstAcceptance: 'మొదటి దాత అంగీకరించే వరకు పట్టిన సమయం',
    accepted: 'ఏదో ఒక దాత అంగీకరించిన అభ్యర్థనలు',
    median: 'మధ్యగతం',
    average: 'సగటు',
    minutes: (value) => `${value} నిమి.`,
    none: '—',
    byState: 'రాష్ట్రాల వారీగా',
    state: 'రాష్ట్రం',
    stateUnknown: 'ఇవ్వలేదు',
    mail: {
      subject: (month) => `నెలవారీ నివేదిక: ${month}`,
      greeting: 'నమస్కారం,',
      intro: (month) => `${month} నివేదిక సిద్ధంగా ఉంది. క్లుప్తంగా:`,
      link: 'నివేదికను తెరవండి',
      outro: 'చార్టులు, రాష్ట్రాల వారీ అంకెలతో పూర్తి నివేదిక, CSV లేదా PDFగా, నిర్వాహకుల కన్సోల్‌లో ఉంది.',
    },
  },
  ta: {
    locale: 'ta-IN',
    title: 'மாதாந்திர அறிக்கை',
    running: 'மாதம் இன்னும் முடியவில்லை: இதுவரையிலான எண்ணிக்கைகள்.',
    generated: (date) => `${date} அன்று உருவாக்கப்பட்டது (இந்திய நேரம்)`,
    totals: 'எண்களில் இந்த மாதம்',
    registrations: 'பதிவுகள்',
    approvals: 'ஒப்புதல்கள்',
    requests: 'இரத்தக் கோரிக்கைகள்',
    donations: 'இரத்த தானங்கள்',
    units: 'தானம் செய்த அலகுகள்',
    byUrgency: 'அவசரநிலை மற்றும் முடிவு வாரியாகக் கோரிக்கைகள்',
    urgency: { urgent: 'அவசரம்', critical: 'மிக அவசரம்' },
    outcome: {
      open: 'இன்னும் திறந்தவை',
      fulfilled: 'நிறைவேறியவை',
      cancelled: 'ரத்தானவை',
      expired: 'காலாவதியானவை',
    },
    total: 'மொத்தம்',
    firstAcceptance: 'முதல் கொடையாளர் ஏற்கும் வரையிலான நேரம்',
    accepted: 'ஏதேனும் ஒரு கொடையாளர் ஏற்ற கோரிக்கைகள்',
    median: 'இடைநிலை',
    average: 'சராசரி',
    minutes: (value) => `${value} நிமி.`,
    none: '—',
    byState: 'மாநில வாரியாக',
    state: 'மாநிலம்',
    stateUnknown: 'குறிப்பிடப்படவில்லை',
    mail: {
      subject: (month) => `மாதாந்திர அறிக்கை: ${month}`,
      greeting: 'வணக்கம்,',
      intro: (month) => `${month} அறிக்கை தயார். சுருக்கமாக:`,
      link: 'அறிக்கையைத் திறக்கவும்',
      outro:
        'வரைபடங்கள், மாநில வாரியான எண்களுடன் முழு அறிக்கை, CSV அல்லது PDF ஆக, நிர்வாகிகள் கன்சோலில் உள்ளது.',
    },
  },
};

export function reportTexts(language: string | null | undefined): ReportTexts {
  return (MESSAGE_LANGUAGES as readonly string[]).includes(language ?? '')
    ? TEXTS[language as MessageLanguage]
    : TEXTS.en;
}

/** "March 2026" in the language, the month read as an Indian month. */
export function monthName(month: string, locale: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, monthNumber - 1, 15)));
}
