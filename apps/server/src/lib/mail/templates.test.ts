import { APP_NAME } from '@bdms/shared';
import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  mailLanguage,
  renderDigestMail,
  renderInvitationMail,
  renderOtpMail,
  renderResetMail,
  renderTestMail,
} from './templates';

const PUBLIC_URL = 'https://blood.example.in';
const LINK = `${PUBLIC_URL}/reset-password?token=abc_DEF-123`;

describe('mail templates', () => {
  it('renders a digest as a list, escaped in HTML, in the three languages', () => {
    const input = {
      name: 'Asha',
      title: 'Critical blood request',
      messages: [
        'Critical: 2 unit(s) of O- needed at <Apollo>, Pune.',
        'Critical: 1 unit(s) of B+',
      ],
      minutes: 10,
      link: `${PUBLIC_URL}/admin/requests`,
      publicUrl: PUBLIC_URL,
    };
    const en = renderDigestMail({ ...input, language: 'en' });
    expect(en.subject).toBe(`Critical blood request: 2 more – ${APP_NAME}`);
    expect(en.text).toContain('  - Critical: 2 unit(s) of O- needed at <Apollo>, Pune.');
    expect(en.text).toContain('within 10 minutes');
    expect(en.html).toContain('<li>Critical: 2 unit(s) of O- needed at &lt;Apollo&gt;, Pune.</li>');
    expect(en.html).not.toContain('<Apollo>');
    expect(renderDigestMail({ ...input, language: 'es' }).text).toContain(
      'Llegaron 2 notificaciones más',
    );
    expect(renderDigestMail({ ...input, language: 'hi' }).text).toContain(
      '10 मिनट में ऐसी 2 और सूचनाएँ',
    );
  });

  it('renders the sign-in code in text and HTML with the app name and address', () => {
    const mail = renderOtpMail({
      language: 'en',
      name: 'Asha',
      code: '042917',
      publicUrl: PUBLIC_URL,
    });
    expect(mail.subject).toBe(`Your sign-in code for ${APP_NAME}`);
    expect(mail.subject).not.toContain('042917');
    expect(mail.text).toContain('Hello Asha,');
    expect(mail.text).toContain('042917');
    expect(mail.text).toContain('10 minutes');
    expect(mail.text).toContain(APP_NAME);
    expect(mail.text).toContain(PUBLIC_URL);
    expect(mail.html).toContain('>042917</p>');
    expect(mail.html).toContain(`href="${PUBLIC_URL}"`);
    expect(mail.html).toContain('<html lang="en">');
  });

  it('translates into Spanish and Hindi by the user language, English otherwise', () => {
    const render = (language: string | null) =>
      renderOtpMail({ language, name: 'Ravi', code: '123456', publicUrl: PUBLIC_URL });
    const en = render('en');
    const es = render('es');
    const hi = render('hi');
    expect(es.subject).toBe(`Tu código de acceso a ${APP_NAME}`);
    expect(es.text).toContain('Hola, Ravi:');
    expect(es.text).toContain('10 minutos');
    expect(hi.subject).toBe(`${APP_NAME} में साइन इन करने के लिए आपका कोड`);
    expect(hi.text).toContain('नमस्ते Ravi,');
    expect(hi.text).toContain('10 मिनट');
    expect(hi.html).toContain('<html lang="hi">');
    expect(new Set([en.subject, es.subject, hi.subject]).size).toBe(3);
    expect(render('fr').subject).toBe(en.subject);
    expect(render(null).subject).toBe(en.subject);
    expect(mailLanguage('ja')).toBe('en');
  });

  it('renders the reset link in every language', () => {
    for (const language of ['en', 'es', 'hi']) {
      const mail = renderResetMail({ language, name: 'Asha', link: LINK, publicUrl: PUBLIC_URL });
      expect(mail.text).toContain(LINK);
      expect(mail.html).toContain(`href="${LINK}"`);
    }
    expect(
      renderResetMail({ language: 'en', name: 'A', link: LINK, publicUrl: PUBLIC_URL }).text,
    ).toContain('valid for 1 hour');
    expect(
      renderResetMail({ language: 'hi', name: 'A', link: LINK, publicUrl: PUBLIC_URL }).subject,
    ).toBe(`अपना ${APP_NAME} पासवर्ड रीसेट करें`);
    expect(
      renderResetMail({ language: 'es', name: 'A', link: LINK, publicUrl: PUBLIC_URL }).subject,
    ).toBe(`Restablece tu contraseña de ${APP_NAME}`);
  });

  it('escapes what it interpolates into HTML', () => {
    const mail = renderResetMail({
      language: 'en',
      name: '<img src=x onerror=alert(1)> & "Co"',
      link: `${PUBLIC_URL}/reset-password?token=a&b="c"`,
      publicUrl: PUBLIC_URL,
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    expect(mail.html).toContain('token=a&amp;b=&quot;c&quot;');
    // The plain text is not HTML and stays as written.
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)> & "Co",');
    expect(escapeHtml(`'`)).toBe('&#39;');
  });
});

describe('hospital invitation and test e-mails', () => {
  it('invites in en, es and hi with the link, its validity and the hospital name escaped', () => {
    const render = (language: string) =>
      renderInvitationMail({
        language,
        hospitalName: 'St. John <Blood> & Co',
        link: LINK,
        hours: 72,
        publicUrl: PUBLIC_URL,
      });
    const en = render('en');
    expect(en.subject).toBe(`Your hospital account at ${APP_NAME}`);
    expect(en.text).toContain('St. John <Blood> & Co');
    expect(en.text).toContain(LINK);
    expect(en.text).toContain('72 hours');
    expect(en.html).toContain('St. John &lt;Blood&gt; &amp; Co');
    expect(en.html).not.toContain('<Blood>');
    expect(en.html).toContain(`href="${LINK}"`);
    expect(render('es').subject).toBe(`La cuenta de tu hospital en ${APP_NAME}`);
    expect(render('es').text).toContain('72 horas');
    expect(render('hi').text).toContain('72 घंटे');
    expect(render('fr').subject).toBe(en.subject);
  });

  it('writes the test message in the administrator’s language', () => {
    const mail = renderTestMail({
      language: 'es',
      name: 'Anita',
      at: '2026-03-15 10:00:00',
      publicUrl: PUBLIC_URL,
    });
    expect(mail.subject).toBe(`Correo de prueba de ${APP_NAME}`);
    expect(mail.text).toContain('Anita');
  });
});
