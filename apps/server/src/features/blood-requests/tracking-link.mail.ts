import { APP_NAME } from '@bdms/shared';
import type { OutgoingMail } from '../../lib/mail/mailer';
import { mailLanguage, renderMailLayout, type MailLayout } from '../../lib/mail/templates';

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
