// The server the browser tests run against: the built app on a fresh embedded database.
// Codes sent to phones are kept by a recording sender and read by the tests over HTTP
// (GET http://127.0.0.1:<E2E_SMS_HTTP_PORT>/messages?to=<E.164>), like mail at the SMTP capture.
import http from 'node:http';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/build.mjs';

const dataDir = path.resolve(ROOT, process.env.DATA_DIR ?? '.tmp/e2e-data');
rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;

const smsPort = Number(process.env.E2E_SMS_HTTP_PORT ?? 0);
if (!smsPort) {
  await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/main.js')).href);
} else {
  /** What a real channel (SMPP, WhatsApp) would be handed, in order. */
  const sent = [];
  http
    .createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const to = url.searchParams.get('to');
      const body =
        url.pathname === '/messages' ? sent.filter((m) => !to || m.to === to) : { ok: true };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    })
    .listen(smsPort, '127.0.0.1');
  const { startServer } = await import(
    pathToFileURL(path.join(ROOT, 'apps/server/dist/server.js')).href
  );
  const server = await startServer(undefined, {
    phoneCodeSender: {
      async send(message) {
        sent.push({ ...message, receivedAt: new Date().toISOString() });
      },
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      void server.close().finally(() => process.exit(0));
    });
  }
}
