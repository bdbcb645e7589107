import { APP_NAME, type ContactMessage } from '@bdms/shared';
import type { OutgoingMail } from '../notifications/mail/mailer';
import { escapeHtml } from '../notifications/mail/templates';

/**
 * The e-mail to the support address for one contact form message: plain text plus an HTML copy
 * where every value is escaped. Reply-To is the sender, so support answers with "Reply".
 */
export function renderContactMail(input: {
  to: string;
  message: ContactMessage;
  id: string;
  receivedAt: Date;
  publicUrl: string;
}): OutgoingMail & { replyTo: string } {
  const { message } = input;
  const when = `${input.receivedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const subject = `Contact form: ${message.subject}`;
  const facts: [string, string][] = [
    ['From', `${message.name} <${message.email}>`],
    ['Subject', message.subject],
    ['Received', when],
    ['Reference', input.id],
  ];
  const text = [
    `A message was sent with the contact form of the ${APP_NAME}.`,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    message.message,
    '',
    '-- ',
    `Reply to this e-mail to answer ${message.name}: Reply-To is their address.`,
    input.publicUrl,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5;margin:0;padding:24px">
<p>A message was sent with the contact form of the ${escapeHtml(APP_NAME)}.</p>
<table style="border-collapse:collapse;margin:16px 0">
${facts
  .map(
    ([label, value]) =>
      `<tr><th style="text-align:left;padding:2px 12px 2px 0;color:#555555">${escapeHtml(label)}</th><td style="padding:2px 0">${escapeHtml(value)}</td></tr>`,
  )
  .join('\n')}
</table>
<div style="white-space:pre-wrap;border-left:3px solid #b91c1c;padding:8px 12px;background:#f9fafb">${escapeHtml(message.message)}</div>
<p style="font-size:13px;color:#555555">Reply to this e-mail to answer ${escapeHtml(message.name)}: Reply-To is their address.</p>
</body></html>
`;
  return {
    to: input.to,
    replyTo: message.email,
    userId: null,
    kind: 'contact_message',
    subject,
    text,
    html,
  };
}
