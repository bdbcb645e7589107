import {
  APP_NAME,
  MESSAGE_LANGUAGES,
  OTP_TTL_MINUTES,
  RESET_TOKEN_TTL_MINUTES,
  type MessageLanguage,
} from '@bdms/shared';
import {
  INDIC_DIGEST_TEXT,
  INDIC_INVITATION_TEXT,
  INDIC_NOTIFICATION_MAIL_TEXT,
  INDIC_OTP_TEXT,
  INDIC_RESET_TEXT,
  INDIC_TEST_MAIL_TEXT,
} from './templates.indic';

/**
 * Languages with written e-mail text (product spec section 9; bn, mr, te, ta since issue #15,
 * their texts in templates.indic.ts); anything else gets English.
 */
export const MAIL_LANGUAGES = MESSAGE_LANGUAGES;
export type MailLanguage = MessageLanguage;
/** The languages written in this file; the others come from templates.indic.ts. */
type BaseLanguage = 'en' | 'es' | 'hi';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function mailLanguage(language: string | null | undefined): MailLanguage {
  return (MAIL_LANGUAGES as readonly string[]).includes(language ?? '')
    ? (language as MailLanguage)
    : 'en';
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

interface Layout {
  lang: MailLanguage;
  subject: string;
  greeting: string;
  /** Paragraphs before and after the highlighted part, plain text (escaped for HTML here). */
  intro: string;
  highlight:
    | { kind: 'code'; value: string }
    | { kind: 'link'; url: string; label: string }
    | { kind: 'none' };
  /** A list after the intro (plain text, escaped for HTML here). */
  items?: readonly string[];
  /**
   * Text a stranger typed (a self-registration's names), after the highlighted part: set apart
   * under its heading as quoted data, never in the subject or the first line (#32 item 15).
   */
  quoted?: QuotedData;
  outro: string;
  publicUrl: string;
}

export interface QuotedData {
  heading: string;
  entries: readonly { label: string; value: string }[];
}

/** Longest quoted value kept: the longest name a registration takes (200). */
const QUOTED_MAX = 200;

/** One line, no control or invisible formatting characters, capped, in straight quotes. */
function quote(value: string): string {
  const flat = value
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const capped = flat.length > QUOTED_MAX ? `${flat.slice(0, QUOTED_MAX)}…` : flat;
  return `"${capped}"`;
}

/** Plain text plus a small inline-styled HTML version; every interpolation is escaped. */
function render(layout: Layout): RenderedMail {
  const quotedText = layout.quoted
    ? [
        layout.quoted.heading,
        ...layout.quoted.entries.map((entry) => `  > ${entry.label}: ${quote(entry.value)}`),
        '',
      ]
    : [];
  const quotedHtml = layout.quoted
    ? `<div style="border-left:3px solid #9ca3af;padding:8px 12px;background:#f9fafb;margin:16px 0"><p style="margin:0 0 8px;font-size:13px;color:#555555">${escapeHtml(layout.quoted.heading)}</p>${layout.quoted.entries
        .map(
          (entry) =>
            `<p style="margin:0">${escapeHtml(entry.label)}: <code>${escapeHtml(quote(entry.value))}</code></p>`,
        )
        .join('')}</div>\n`
    : '';
  const highlightText =
    layout.highlight.kind === 'code'
      ? layout.highlight.value
      : layout.highlight.kind === 'link'
        ? layout.highlight.url
        : null;
  const text = [
    layout.greeting,
    '',
    layout.intro,
    '',
    ...(layout.items && layout.items.length > 0
      ? [...layout.items.map((item) => `  - ${item}`), '']
      : []),
    ...(highlightText === null ? [] : [`    ${highlightText}`, '']),
    ...quotedText,
    layout.outro,
    '',
    '-- ',
    APP_NAME,
    layout.publicUrl,
    '',
  ].join('\n');

  const highlightHtml =
    layout.highlight.kind === 'none'
      ? ''
      : layout.highlight.kind === 'code'
        ? `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;margin:24px 0">${escapeHtml(layout.highlight.value)}</p>`
        : `<p style="margin:24px 0"><a href="${escapeHtml(layout.highlight.url)}" style="background:#b91c1c;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(layout.highlight.label)}</a></p>` +
          `<p style="font-size:13px;color:#555555;word-break:break-all">${escapeHtml(layout.highlight.url)}</p>`;
  const html = `<!doctype html>
<html lang="${layout.lang}"><head><meta charset="utf-8"><title>${escapeHtml(layout.subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5;margin:0;padding:24px">
<p>${escapeHtml(layout.greeting)}</p>
<p>${escapeHtml(layout.intro)}</p>
${layout.items && layout.items.length > 0 ? `<ul>${layout.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>\n` : ''}${highlightHtml}
${quotedHtml}<p>${escapeHtml(layout.outro)}</p>
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">
<p style="font-size:13px;color:#555555">${escapeHtml(APP_NAME)}<br><a href="${escapeHtml(layout.publicUrl)}">${escapeHtml(layout.publicUrl)}</a></p>
</body></html>
`;
  return { subject: layout.subject, text, html };
}

export interface OtpMailInput {
  language: string | null | undefined;
  name: string;
  code: string;
  publicUrl: string;
}

export type OtpText = (
  name: string,
  minutes: number,
) => Pick<Layout, 'subject' | 'greeting' | 'intro' | 'outro'>;

const BASE_OTP_TEXT: Record<BaseLanguage, OtpText> = {
  en: (name, minutes) => ({
    subject: `Your sign-in code for ${APP_NAME}`,
    greeting: `Hello ${name},`,
    intro: 'Your one-time sign-in code is:',
    outro: `It is valid for ${minutes} minutes and can be used once. If you did not ask for it, you can ignore this e-mail; nobody can sign in without the code.`,
  }),
  es: (name, minutes) => ({
    subject: `Tu código de acceso a ${APP_NAME}`,
    greeting: `Hola, ${name}:`,
    intro: 'Tu código de acceso de un solo uso es:',
    outro: `Es válido durante ${minutes} minutos y solo se puede usar una vez. Si no lo has solicitado, puedes ignorar este correo; nadie puede iniciar sesión sin el código.`,
  }),
  hi: (name, minutes) => ({
    subject: `${APP_NAME} में साइन इन करने के लिए आपका कोड`,
    greeting: `नमस्ते ${name},`,
    intro: 'साइन इन करने के लिए आपका एक बार इस्तेमाल होने वाला कोड है:',
    outro: `यह कोड ${minutes} मिनट तक मान्य है और सिर्फ़ एक बार इस्तेमाल किया जा सकता है। अगर आपने यह कोड नहीं माँगा था, तो इस ई-मेल को अनदेखा करें; इस कोड के बिना कोई भी साइन इन नहीं कर सकता।`,
  }),
};
const OTP_TEXT: Record<MailLanguage, OtpText> = { ...BASE_OTP_TEXT, ...INDIC_OTP_TEXT };

export function renderOtpMail(input: OtpMailInput): RenderedMail {
  const lang = mailLanguage(input.language);
  return render({
    lang,
    ...OTP_TEXT[lang](input.name, OTP_TTL_MINUTES),
    highlight: { kind: 'code', value: input.code },
    publicUrl: input.publicUrl,
  });
}

export interface ResetMailInput {
  language: string | null | undefined;
  name: string;
  /** The full link, `${PUBLIC_URL}/reset-password?token=…`. */
  link: string;
  publicUrl: string;
}

export type ResetText = (
  name: string,
  hours: number,
) => Pick<Layout, 'subject' | 'greeting' | 'intro' | 'outro'> & { label: string };

const BASE_RESET_TEXT: Record<BaseLanguage, ResetText> = {
  en: (name, hours) => ({
    subject: `Reset your ${APP_NAME} password`,
    greeting: `Hello ${name},`,
    intro: 'We received a request to reset your password. Open this link to choose a new one:',
    label: 'Choose a new password',
    outro: `The link is valid for ${hours} hour${hours === 1 ? '' : 's'} and works once. If you did not ask for a new password, ignore this e-mail; your password stays the same.`,
  }),
  es: (name, hours) => ({
    subject: `Restablece tu contraseña de ${APP_NAME}`,
    greeting: `Hola, ${name}:`,
    intro:
      'Hemos recibido una solicitud para restablecer tu contraseña. Abre este enlace para elegir una nueva:',
    label: 'Elegir una contraseña nueva',
    outro: `El enlace es válido durante ${hours} ${hours === 1 ? 'hora' : 'horas'} y solo funciona una vez. Si no has pedido una contraseña nueva, ignora este correo; tu contraseña no cambiará.`,
  }),
  hi: (name, hours) => ({
    subject: `अपना ${APP_NAME} पासवर्ड रीसेट करें`,
    greeting: `नमस्ते ${name},`,
    intro: 'हमें आपका पासवर्ड रीसेट करने का अनुरोध मिला है। नया पासवर्ड चुनने के लिए यह लिंक खोलें:',
    label: 'नया पासवर्ड चुनें',
    outro: `यह लिंक ${hours} घंटे तक मान्य है और सिर्फ़ एक बार काम करता है। अगर आपने नया पासवर्ड नहीं माँगा था, तो इस ई-मेल को अनदेखा करें; आपका पासवर्ड नहीं बदलेगा।`,
  }),
};
const RESET_TEXT: Record<MailLanguage, ResetText> = { ...BASE_RESET_TEXT, ...INDIC_RESET_TEXT };

export function renderResetMail(input: ResetMailInput): RenderedMail {
  const lang = mailLanguage(input.language);
  const { label, ...text } = RESET_TEXT[lang](input.name, RESET_TOKEN_TTL_MINUTES / 60);
  return render({
    lang,
    ...text,
    highlight: { kind: 'link', url: input.link, label },
    publicUrl: input.publicUrl,
  });
}

export interface NotificationMailInput {
  language: string | null | undefined;
  name: string;
  /** Already in the recipient's language (features/notifications/templates.ts). */
  title: string;
  message: string;
  /** A full URL to open, if any. */
  link: string | null;
  publicUrl: string;
}

export type NotificationMailText = (name: string) => {
  greeting: string;
  label: string;
  outro: string;
};

const BASE_NOTIFICATION_MAIL_TEXT: Record<BaseLanguage, NotificationMailText> = {
  en: (name) => ({
    greeting: `Hello ${name},`,
    label: 'Open',
    outro: `You receive this e-mail because it is important for your donor account. You can also read it under Notifications in ${APP_NAME}.`,
  }),
  es: (name) => ({
    greeting: `Hola, ${name}:`,
    label: 'Abrir',
    outro: `Recibes este correo porque es importante para tu cuenta de donante. También puedes leerlo en Notificaciones de ${APP_NAME}.`,
  }),
  hi: (name) => ({
    greeting: `नमस्ते ${name},`,
    label: 'खोलें',
    outro: `आपको यह ई-मेल इसलिए मिला है क्योंकि यह आपके दाता खाते के लिए महत्वपूर्ण है। आप इसे ${APP_NAME} में सूचनाओं के अंतर्गत भी पढ़ सकते हैं।`,
  }),
};
const NOTIFICATION_MAIL_TEXT: Record<MailLanguage, NotificationMailText> = {
  ...BASE_NOTIFICATION_MAIL_TEXT,
  ...INDIC_NOTIFICATION_MAIL_TEXT,
};

/** A notification a donor must not miss (status change, document verdict), as an e-mail. */
export function renderNotificationMail(input: NotificationMailInput): RenderedMail {
  const lang = mailLanguage(input.language);
  const text = NOTIFICATION_MAIL_TEXT[lang](input.name);
  return render({
    lang,
    subject: `${input.title} – ${APP_NAME}`,
    greeting: text.greeting,
    intro: input.message,
    highlight: input.link ? { kind: 'link', url: input.link, label: text.label } : { kind: 'none' },
    outro: text.outro,
    publicUrl: input.publicUrl,
  });
}

export interface DigestMailInput {
  language: string | null | undefined;
  name: string;
  /** The notifications' title, already in the recipient's language. */
  title: string;
  /** Each notification's message, already in the recipient's language, oldest first. */
  messages: readonly string[];
  /** The length of the window they arrived in. */
  minutes: number;
  /** A full URL to open, if any. */
  link: string | null;
  publicUrl: string;
}

export type DigestText = (
  name: string,
  title: string,
  count: number,
  minutes: number,
) => Pick<Layout, 'subject' | 'greeting' | 'intro' | 'outro'> & { label: string };

const BASE_DIGEST_TEXT: Record<BaseLanguage, DigestText> = {
  en: (name, title, count, minutes) => ({
    subject: `${title}: ${count} more – ${APP_NAME}`,
    greeting: `Hello ${name},`,
    intro: `${count} more notifications like this arrived within ${minutes} minutes. So that your inbox stays readable they are gathered in this one e-mail; each is also under Notifications:`,
    label: 'Open',
    outro: `You receive this e-mail because these notifications are important for your account at ${APP_NAME}.`,
  }),
  es: (name, title, count, minutes) => ({
    subject: `${title}: ${count} más – ${APP_NAME}`,
    greeting: `Hola, ${name}:`,
    intro: `Llegaron ${count} notificaciones más como esta en ${minutes} minutos. Para que tu bandeja siga siendo legible las reunimos en este único correo; cada una está también en Notificaciones:`,
    label: 'Abrir',
    outro: `Recibes este correo porque estas notificaciones son importantes para tu cuenta en ${APP_NAME}.`,
  }),
  hi: (name, title, count, minutes) => ({
    subject: `${title}: ${count} और – ${APP_NAME}`,
    greeting: `नमस्ते ${name},`,
    intro: `${minutes} मिनट में ऐसी ${count} और सूचनाएँ आईं। आपका इनबॉक्स पढ़ने योग्य रहे, इसलिए वे इस एक ई-मेल में एकत्र हैं; हर सूचना सूचनाओं के अंतर्गत भी है:`,
    label: 'खोलें',
    outro: `आपको यह ई-मेल इसलिए मिला है क्योंकि ये सूचनाएँ ${APP_NAME} पर आपके खाते के लिए महत्वपूर्ण हैं।`,
  }),
};
const DIGEST_TEXT: Record<MailLanguage, DigestText> = { ...BASE_DIGEST_TEXT, ...INDIC_DIGEST_TEXT };

/** Several notifications of one kind that arrived in a burst, as one e-mail (features/notifications/email-digest.ts). */
export function renderDigestMail(input: DigestMailInput): RenderedMail {
  const lang = mailLanguage(input.language);
  const text = DIGEST_TEXT[lang](input.name, input.title, input.messages.length, input.minutes);
  return render({
    lang,
    subject: text.subject,
    greeting: text.greeting,
    intro: text.intro,
    items: input.messages,
    highlight: input.link ? { kind: 'link', url: input.link, label: text.label } : { kind: 'none' },
    outro: text.outro,
    publicUrl: input.publicUrl,
  });
}

export interface InvitationMailInput {
  language: string | null | undefined;
  /** The hospital's name, as the administrator entered it. */
  hospitalName: string;
  /** The full link, `${PUBLIC_URL}/reset-password?token=…`. */
  link: string;
  /** Hours the link stays valid. */
  hours: number;
  publicUrl: string;
}

export type InvitationText = (
  hospital: string,
  hours: number,
) => Pick<Layout, 'subject' | 'greeting' | 'intro' | 'outro'> & { label: string };

const BASE_INVITATION_TEXT: Record<BaseLanguage, InvitationText> = {
  en: (hospital, hours) => ({
    subject: `Your hospital account at ${APP_NAME}`,
    greeting: `Hello ${hospital},`,
    intro: `An administrator has created a hospital account for ${hospital}. Open this link to choose your password and sign in:`,
    label: 'Choose your password',
    outro: `The link is valid for ${hours} hours and works once. Sign in afterwards on the hospital sign-in page with this e-mail address. If you did not expect this e-mail, ignore it; nobody can use the account without the link.`,
  }),
  es: (hospital, hours) => ({
    subject: `La cuenta de tu hospital en ${APP_NAME}`,
    greeting: `Hola, ${hospital}:`,
    intro: `Un administrador ha creado una cuenta de hospital para ${hospital}. Abre este enlace para elegir tu contraseña e iniciar sesión:`,
    label: 'Elegir la contraseña',
    outro: `El enlace es válido durante ${hours} horas y solo funciona una vez. Después, inicia sesión en la página de acceso para hospitales con esta dirección de correo. Si no esperabas este correo, ignóralo; nadie puede usar la cuenta sin el enlace.`,
  }),
  hi: (hospital, hours) => ({
    subject: `${APP_NAME} पर आपके अस्पताल का खाता`,
    greeting: `नमस्ते ${hospital},`,
    intro: `एक व्यवस्थापक ने ${hospital} के लिए अस्पताल खाता बनाया है। अपना पासवर्ड चुनने और साइन इन करने के लिए यह लिंक खोलें:`,
    label: 'अपना पासवर्ड चुनें',
    outro: `यह लिंक ${hours} घंटे तक मान्य है और सिर्फ़ एक बार काम करता है। इसके बाद इसी ई-मेल पते से अस्पताल साइन-इन पेज पर साइन इन करें। अगर आपको यह ई-मेल अपेक्षित नहीं था, तो इसे अनदेखा करें; लिंक के बिना कोई भी इस खाते का उपयोग नहीं कर सकता।`,
  }),
};
const INVITATION_TEXT: Record<MailLanguage, InvitationText> = {
  ...BASE_INVITATION_TEXT,
  ...INDIC_INVITATION_TEXT,
};

/** The set-password invitation of a new hospital account (always sent, whatever the flags). */
export function renderInvitationMail(input: InvitationMailInput): RenderedMail {
  const lang = mailLanguage(input.language);
  const { label, ...text } = INVITATION_TEXT[lang](input.hospitalName, input.hours);
  return render({
    lang,
    ...text,
    highlight: { kind: 'link', url: input.link, label },
    publicUrl: input.publicUrl,
  });
}

export interface TestMailInput {
  language: string | null | undefined;
  /** The administrator who asked for it. */
  name: string;
  publicUrl: string;
  /** When it was asked for (ISO), so repeated tests can be told apart. */
  at: string;
}

export type TestMailText = (
  name: string,
  at: string,
) => Pick<Layout, 'subject' | 'greeting' | 'intro' | 'outro'>;

const BASE_TEST_MAIL_TEXT: Record<BaseLanguage, TestMailText> = {
  en: (name, at) => ({
    subject: `Test e-mail from ${APP_NAME}`,
    greeting: `Hello,`,
    intro: `${name} sent this test message from the administrators' console at ${at} (UTC).`,
    outro: 'If you can read it, outgoing e-mail works. There is nothing else to do.',
  }),
  es: (name, at) => ({
    subject: `Correo de prueba de ${APP_NAME}`,
    greeting: `Hola:`,
    intro: `${name} envió este mensaje de prueba desde la consola de administración el ${at} (UTC).`,
    outro: 'Si puedes leerlo, el correo saliente funciona. No hay que hacer nada más.',
  }),
  hi: (name, at) => ({
    subject: `${APP_NAME} से परीक्षण ई-मेल`,
    greeting: `नमस्ते,`,
    intro: `${name} ने यह परीक्षण संदेश ${at} (UTC) पर व्यवस्थापक कंसोल से भेजा।`,
    outro: 'अगर आप इसे पढ़ पा रहे हैं, तो बाहर जाने वाला ई-मेल काम कर रहा है। और कुछ करने की ज़रूरत नहीं है।',
  }),
};
const TEST_MAIL_TEXT: Record<MailLanguage, TestMailText> = {
  ...BASE_TEST_MAIL_TEXT,
  ...INDIC_TEST_MAIL_TEXT,
};

/** `POST /admin/email/test`: proves the SMTP settings, in the administrator's language. */
export function renderTestMail(input: TestMailInput): RenderedMail {
  const lang = mailLanguage(input.language);
  return render({
    lang,
    ...TEST_MAIL_TEXT[lang](input.name, input.at),
    highlight: { kind: 'none' },
    publicUrl: input.publicUrl,
  });
}

/** The shared layout, for features that write their own messages (texts in every MAIL_LANGUAGES). */
export { render as renderMailLayout, type Layout as MailLayout };

/** The self-registration e-mails (issue #17) are written in these; any other language gets English. */
type RegistrationLanguage = 'en' | 'es' | 'hi';
function registrationLanguage(language: string | null | undefined): RegistrationLanguage {
  const lang = mailLanguage(language);
  return lang === 'es' || lang === 'hi' ? lang : 'en';
}

export interface HospitalEmailCodeMailInput {
  language: string | null | undefined;
  /** The contact person. */
  name: string;
  hospitalName: string;
  code: string;
  publicUrl: string;
}

/**
 * The registration's own words, quoted as data (#32 item 15): anyone may register with any
 * e-mail address, so the names are a stranger's text mailed from the platform's sender. They
 * stay out of the subject and the first lines, and are shown as what the registrant typed.
 */
const REGISTRATION_QUOTE_TEXT: Record<
  RegistrationLanguage,
  { heading: string; hospital: string; contact: string }
> = {
  en: {
    heading:
      'What the person who registered typed (not checked by us; an administrator verifies every registration):',
    hospital: 'Blood centre name',
    contact: 'Contact name',
  },
  es: {
    heading:
      'Lo que escribió la persona que hizo el registro (no lo hemos comprobado; un administrador verifica cada registro):',
    hospital: 'Nombre del centro de sangre',
    contact: 'Nombre de contacto',
  },
  hi: {
    heading:
      'पंजीकरण करने वाले व्यक्ति ने जो लिखा (हमने इसकी जाँच नहीं की है; हर पंजीकरण की जाँच एक व्यवस्थापक करता है):',
    hospital: 'ब्लड सेंटर का नाम',
    contact: 'संपर्क व्यक्ति का नाम',
  },
};

function registrationQuote(
  lang: RegistrationLanguage,
  hospitalName: string,
  contactName: string,
): QuotedData {
  const text = REGISTRATION_QUOTE_TEXT[lang];
  return {
    heading: text.heading,
    entries: [
      { label: text.hospital, value: hospitalName },
      { label: text.contact, value: contactName },
    ],
  };
}

const HOSPITAL_EMAIL_CODE_TEXT: Record<
  RegistrationLanguage,
  (minutes: number) => Pick<Layout, 'subject' | 'greeting' | 'intro' | 'outro'>
> = {
  en: (minutes) => ({
    subject: `Confirm your e-mail address at ${APP_NAME}`,
    greeting: 'Hello,',
    intro: `A blood centre was registered at ${APP_NAME} with this e-mail address. To confirm the address, enter this code on the registration page:`,
    outro: `It is valid for ${minutes} minutes and can be used once. If you did not register, ignore this e-mail; the registration stays unconfirmed and an administrator checks every one.`,
  }),
  es: (minutes) => ({
    subject: `Confirma tu dirección de correo en ${APP_NAME}`,
    greeting: 'Hola:',
    intro: `Se ha registrado un centro de sangre en ${APP_NAME} con esta dirección de correo. Para confirmarla, introduce este código en la página de registro:`,
    outro: `Es válido durante ${minutes} minutos y solo se puede usar una vez. Si no te has registrado, ignora este correo; el registro queda sin confirmar y un administrador revisa cada uno.`,
  }),
  hi: (minutes) => ({
    subject: `${APP_NAME} पर अपना ई-मेल पता पुष्टि करें`,
    greeting: 'नमस्ते,',
    intro: `इस ई-मेल पते के साथ ${APP_NAME} पर एक ब्लड सेंटर पंजीकृत किया गया है। पता पुष्टि करने के लिए पंजीकरण पेज पर यह कोड डालें:`,
    outro: `यह कोड ${minutes} मिनट तक मान्य है और सिर्फ़ एक बार इस्तेमाल किया जा सकता है। अगर आपने पंजीकरण नहीं किया है, तो इस ई-मेल को अनदेखा करें; पंजीकरण अपुष्ट रहेगा और हर पंजीकरण की जाँच एक व्यवस्थापक करता है।`,
  }),
};

/**
 * The code confirming a self-registered hospital's official e-mail address. The names the
 * registrant typed are quoted as data below the code, never in the subject or greeting.
 */
export function renderHospitalEmailCodeMail(input: HospitalEmailCodeMailInput): RenderedMail {
  const lang = registrationLanguage(input.language);
  return render({
    lang,
    ...HOSPITAL_EMAIL_CODE_TEXT[lang](OTP_TTL_MINUTES),
    highlight: { kind: 'code', value: input.code },
    quoted: registrationQuote(lang, input.hospitalName, input.name),
    publicUrl: input.publicUrl,
  });
}

export interface HospitalDecisionMailInput {
  language: string | null | undefined;
  name: string;
  hospitalName: string;
  decision: 'verified' | 'rejected';
  /** The administrator's reason (rejected). */
  reason?: string | null;
  /** `${PUBLIC_URL}/hospital/login`. */
  link: string;
  publicUrl: string;
}

type DecisionText = (
  reason: string,
) => Pick<Layout, 'subject' | 'greeting' | 'intro' | 'outro'> & { label: string };

// No registrant-typed name in the subject or the first lines (#32 item 15): it is quoted below.
const HOSPITAL_VERIFIED_TEXT: Record<RegistrationLanguage, DecisionText> = {
  en: () => ({
    subject: `Your blood centre is verified at ${APP_NAME}`,
    greeting: 'Hello,',
    intro: `An administrator has checked the registration of your blood centre against the blood bank directory and its licence, and verified it. You can now sign in and use the hospital dashboard:`,
    label: 'Sign in',
    outro: 'Thank you for joining. Keep your stock and requests up to date: donors rely on them.',
  }),
  es: () => ({
    subject: `Tu centro de sangre está verificado en ${APP_NAME}`,
    greeting: 'Hola:',
    intro: `Un administrador ha comprobado el registro de tu centro de sangre con el directorio de bancos de sangre y su licencia, y lo ha verificado. Ya puedes iniciar sesión y usar el panel del hospital:`,
    label: 'Iniciar sesión',
    outro:
      'Gracias por unirte. Mantén al día las existencias y las solicitudes: los donantes confían en ellas.',
  }),
  hi: () => ({
    subject: `${APP_NAME} पर आपका ब्लड सेंटर सत्यापित हो गया है`,
    greeting: 'नमस्ते,',
    intro: `एक व्यवस्थापक ने आपके ब्लड सेंटर के पंजीकरण को ब्लड बैंक निर्देशिका और उसके लाइसेंस से मिलाकर सत्यापित कर दिया है। अब आप साइन इन करके अस्पताल डैशबोर्ड का उपयोग कर सकते हैं:`,
    label: 'साइन इन करें',
    outro: 'जुड़ने के लिए धन्यवाद। अपना स्टॉक और अनुरोध अद्यतन रखें: रक्तदाता उन पर भरोसा करते हैं।',
  }),
};

const HOSPITAL_REJECTED_TEXT: Record<RegistrationLanguage, DecisionText> = {
  en: (reason) => ({
    subject: `Your blood centre registration at ${APP_NAME} was not verified`,
    greeting: 'Hello,',
    intro: `An administrator could not verify the registration of your blood centre against the blood bank directory and its licence. The reason given: ${reason}`,
    label: 'Sign in',
    outro:
      'If this is a mistake, reply to this e-mail or contact support with a copy of the licence (Form 28-C).',
  }),
  es: (reason) => ({
    subject: `El registro de tu centro de sangre en ${APP_NAME} no se ha verificado`,
    greeting: 'Hola:',
    intro: `Un administrador no ha podido verificar el registro de tu centro de sangre con el directorio de bancos de sangre y su licencia. El motivo indicado: ${reason}`,
    label: 'Iniciar sesión',
    outro:
      'Si se trata de un error, responde a este correo o contacta con soporte con una copia de la licencia (formulario 28-C).',
  }),
  hi: (reason) => ({
    subject: `${APP_NAME} पर आपके ब्लड सेंटर का पंजीकरण सत्यापित नहीं हुआ`,
    greeting: 'नमस्ते,',
    intro: `एक व्यवस्थापक आपके ब्लड सेंटर के पंजीकरण को ब्लड बैंक निर्देशिका और उसके लाइसेंस से सत्यापित नहीं कर सका। बताया गया कारण: ${reason}`,
    label: 'साइन इन करें',
    outro:
      'अगर यह गलती है, तो इस ई-मेल का जवाब दें या लाइसेंस (फ़ॉर्म 28-C) की प्रति के साथ सहायता टीम से संपर्क करें।',
  }),
};

/** The administrator's decision on a self-registered hospital (always sent: an account e-mail). */
export function renderHospitalDecisionMail(input: HospitalDecisionMailInput): RenderedMail {
  const lang = registrationLanguage(input.language);
  const texts = input.decision === 'verified' ? HOSPITAL_VERIFIED_TEXT : HOSPITAL_REJECTED_TEXT;
  const { label, ...text } = texts[lang](input.reason ?? '');
  return render({
    lang,
    ...text,
    highlight: { kind: 'link', url: input.link, label },
    quoted: registrationQuote(lang, input.hospitalName, input.name),
    publicUrl: input.publicUrl,
  });
}
