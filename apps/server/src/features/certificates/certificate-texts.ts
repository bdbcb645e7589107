/**
 * The fixed texts of a donation certificate, in the donor's language. en, es and hi are the
 * interface's languages; bn, mr, te and ta are ready for when it adds them (a donor whose stored
 * language is one of those gets the certificate in it). Any other language falls back to English.
 */
export const CERTIFICATE_LANGUAGES = ['en', 'es', 'hi', 'bn', 'mr', 'te', 'ta'] as const;
export type CertificateLanguage = (typeof CERTIFICATE_LANGUAGES)[number];

export interface CertificateTexts {
  /** BCP 47 tag for Intl dates and numbers (Indian region, native digits where usual). */
  locale: string;
  /** The document's language (PDF /Lang). */
  lang: string;
  appName: string;
  title: string;
  /** Above the donor's name. */
  presentedTo: string;
  /** Printed when the donor's account was erased. */
  anonymousDonor: string;
  /** The two lines under the name: what was donated, when and where. */
  donation(units: string, count: number, date: string, place: string): [string, string];
  bloodType(type: string): string;
  closing: string;
  number(certificateNumber: string): string;
  verify(url: string): string;
}

const en: CertificateTexts = {
  locale: 'en-IN',
  lang: 'en-IN',
  appName: 'Blood Donation Management System',
  title: 'Certificate of Blood Donation',
  presentedTo: 'This certificate is presented to',
  anonymousDonor: 'Blood donor',
  donation: (units, count, date, place) => [
    `in gratitude for voluntarily donating ${count === 1 ? 'one unit' : `${units} units`} of blood on ${date}`,
    `at ${place}.`,
  ],
  bloodType: (type) => `Blood type: ${type}`,
  closing: 'Every donation can help save up to three lives. Thank you.',
  number: (certificateNumber) => `Certificate number: ${certificateNumber}`,
  verify: (url) => `Verify at ${url}`,
};

const es: CertificateTexts = {
  locale: 'es-IN',
  lang: 'es',
  appName: 'Sistema de Gestión de Donación de Sangre',
  title: 'Certificado de Donación de Sangre',
  presentedTo: 'Este certificado se otorga a',
  anonymousDonor: 'Donante de sangre',
  donation: (units, count, date, place) => [
    `en agradecimiento por donar voluntariamente ${count === 1 ? 'una unidad' : `${units} unidades`} de sangre el ${date}`,
    `en ${place}.`,
  ],
  bloodType: (type) => `Grupo sanguíneo: ${type}`,
  closing: 'Cada donación puede ayudar a salvar hasta tres vidas. Gracias.',
  number: (certificateNumber) => `Número de certificado: ${certificateNumber}`,
  verify: (url) => `Verifíquelo en ${url}`,
};

// Indian certificates in Hindi, Marathi and Bengali open with "it is certified that", the
// name, then what the person did; Tamil and Telugu name the recipient. Where a postposition
// would be glued to the place's name (Bengali, Tamil, Telugu), the place is given as "Place: …".
const hi: CertificateTexts = {
  locale: 'hi-IN-u-nu-deva',
  lang: 'hi-IN',
  appName: 'रक्तदान प्रबंधन प्रणाली',
  title: 'रक्तदान प्रमाणपत्र',
  presentedTo: 'प्रमाणित किया जाता है कि',
  anonymousDonor: 'रक्तदाता',
  donation: (units, count, date, place) => [
    `ने दिनांक ${date} को ${place} में`,
    `स्वेच्छा से ${count === 1 ? 'एक' : units} यूनिट रक्त का दान किया।`,
  ],
  bloodType: (type) => `रक्त समूह: ${type}`,
  closing: 'हर रक्तदान तीन लोगों तक की जान बचाने में मदद कर सकता है। धन्यवाद।',
  number: (certificateNumber) => `प्रमाणपत्र संख्या: ${certificateNumber}`,
  verify: (url) => `सत्यापन के लिए: ${url}`,
};

const mr: CertificateTexts = {
  locale: 'mr-IN',
  lang: 'mr-IN',
  appName: 'रक्तदान व्यवस्थापन प्रणाली',
  title: 'रक्तदान प्रमाणपत्र',
  presentedTo: 'प्रमाणित करण्यात येते की',
  anonymousDonor: 'रक्तदाता',
  donation: (units, count, date, place) => [
    `यांनी दिनांक ${date} रोजी ${place} येथे`,
    `स्वेच्छेने ${count === 1 ? 'एक' : units} युनिट रक्तदान केले.`,
  ],
  bloodType: (type) => `रक्तगट: ${type}`,
  closing: 'प्रत्येक रक्तदान तीन जणांपर्यंतचे प्राण वाचवण्यास मदत करू शकते. धन्यवाद.',
  number: (certificateNumber) => `प्रमाणपत्र क्रमांक: ${certificateNumber}`,
  verify: (url) => `पडताळणीसाठी: ${url}`,
};

const bn: CertificateTexts = {
  locale: 'bn-IN',
  lang: 'bn-IN',
  appName: 'রক্তদান ব্যবস্থাপনা সিস্টেম',
  title: 'রক্তদানের শংসাপত্র',
  presentedTo: 'এই মর্মে প্রত্যয়ন করা হচ্ছে যে',
  anonymousDonor: 'রক্তদাতা',
  donation: (units, count, date, place) => [
    `${date} তারিখে স্বেচ্ছায় ${count === 1 ? 'এক' : units} ইউনিট রক্তদান করেছেন।`,
    `স্থান: ${place}`,
  ],
  bloodType: (type) => `রক্তের গ্রুপ: ${type}`,
  closing: 'প্রতিটি রক্তদান তিনটি পর্যন্ত জীবন বাঁচাতে সাহায্য করতে পারে। ধন্যবাদ।',
  number: (certificateNumber) => `শংসাপত্র নম্বর: ${certificateNumber}`,
  verify: (url) => `যাচাই করুন: ${url}`,
};

const ta: CertificateTexts = {
  locale: 'ta-IN',
  lang: 'ta-IN',
  appName: 'இரத்த தான மேலாண்மை அமைப்பு',
  title: 'இரத்த தானச் சான்றிதழ்',
  presentedTo: 'இந்தச் சான்றிதழைப் பெறுபவர்',
  anonymousDonor: 'இரத்தக் கொடையாளர்',
  donation: (units, count, date, place) => [
    `${date} அன்று தன்னார்வமாக ${count === 1 ? 'ஒரு' : units} யூனிட் இரத்த தானம் செய்ததற்கு நன்றியுடன்`,
    `இடம்: ${place}`,
  ],
  bloodType: (type) => `இரத்த வகை: ${type}`,
  closing: 'ஒவ்வொரு இரத்த தானமும் மூன்று உயிர்கள் வரை காப்பாற்ற உதவும். நன்றி.',
  number: (certificateNumber) => `சான்றிதழ் எண்: ${certificateNumber}`,
  verify: (url) => `சரிபார்க்க: ${url}`,
};

const te: CertificateTexts = {
  locale: 'te-IN',
  lang: 'te-IN',
  appName: 'రక్తదాన నిర్వహణ వ్యవస్థ',
  title: 'రక్తదాన ధృవీకరణ పత్రం',
  presentedTo: 'ఈ ధృవీకరణ పత్రం అందుకునేవారు',
  anonymousDonor: 'రక్తదాత',
  donation: (units, count, date, place) => [
    `${date} న స్వచ్ఛందంగా ${count === 1 ? 'ఒక యూనిట్' : `${units} యూనిట్లు`} రక్తదానం చేసినందుకు కృతజ్ఞతలతో`,
    `స్థలం: ${place}`,
  ],
  bloodType: (type) => `రక్త వర్గం: ${type}`,
  closing: 'ప్రతి రక్తదానం మూడు ప్రాణాల వరకు కాపాడటానికి సహాయపడుతుంది. ధన్యవాదాలు.',
  number: (certificateNumber) => `ధృవీకరణ పత్రం సంఖ్య: ${certificateNumber}`,
  verify: (url) => `ధృవీకరించుకోండి: ${url}`,
};

const TEXTS: Record<CertificateLanguage, CertificateTexts> = { en, es, hi, bn, mr, te, ta };

export function certificateLanguage(language: string | null | undefined): CertificateLanguage {
  const base = (language ?? '').toLowerCase().split('-')[0];
  return (CERTIFICATE_LANGUAGES as readonly string[]).includes(base ?? '')
    ? (base as CertificateLanguage)
    : 'en';
}

export function certificateTexts(language: string | null | undefined): CertificateTexts {
  return TEXTS[certificateLanguage(language)];
}
