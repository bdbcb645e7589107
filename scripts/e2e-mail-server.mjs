// A real SMTP server for the browser tests: the app sends mail to it, and the tests read the
// received messages over HTTP (GET /messages?to=<address>).
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 3125);
const HTTP_PORT = Number(process.env.E2E_MAIL_HTTP_PORT ?? 3126);
const messages = [];

/** Enough MIME decoding to read links and codes: quoted-printable soft breaks and escapes. */
function readable(raw) {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      messages.push({
        to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '',
        text: readable(raw),
        receivedAt: new Date().toISOString(),
      });
      callback();
    });
  },
});
smtp.listen(SMTP_PORT, '127.0.0.1');

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const to = url.searchParams.get('to')?.toLowerCase();
    const body =
      url.pathname === '/messages'
        ? messages.filter((m) => !to || m.to.includes(to))
        : { ok: true };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  })
  .listen(HTTP_PORT, '127.0.0.1');
