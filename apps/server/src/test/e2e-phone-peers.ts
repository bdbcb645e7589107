// The phone providers of the browser tests (issue #16), run by Playwright as a web server with
// `tsx`: the same SMPP v3.4 peer and WhatsApp Cloud API peer the API tests use, on fixed ports,
// and a small HTTP side through which the tests read what was sent, reply as a person would,
// and stop or restart a provider.
//
//   GET  /health
//   GET  /sms?to=+91…              every SMS the SMSC acknowledged (across restarts), oldest first
//   GET  /whatsapp?to=+91…         every message the Cloud API accepted
//   POST /sms/inbound {from, text} a person's SMS reply, delivered to the app as deliver_sm
//   POST /whatsapp/press {from, payload, text}  a quick-reply press, as Meta's signed webhook
//   POST /smpp/stop, /smpp/start, /whatsapp/stop, /whatsapp/start
import http from 'node:http';
import { startTestSmppServer, type ReceivedSms, type TestSmppServer } from './smpp-server';
import {
  startWhatsAppCloudServer,
  type CloudMessage,
  type WhatsAppCloudServer,
} from './whatsapp-cloud-server';

// The harness's own configuration (never the app's): ports and credentials from Playwright.
const env = process.env;
const SMPP_PORT = Number(env.E2E_SMPP_PORT);
const WHATSAPP_PORT = Number(env.E2E_WHATSAPP_PORT);
const HTTP_PORT = Number(env.E2E_PHONE_HTTP_PORT);
const APP_URL = env.E2E_APP_URL ?? '';
const WHATSAPP = {
  token: env.E2E_WHATSAPP_TOKEN ?? '',
  appSecret: env.E2E_WHATSAPP_APP_SECRET ?? '',
  phoneNumberId: env.E2E_WHATSAPP_PHONE_NUMBER_ID ?? '',
};

let smpp: TestSmppServer | null = null;
let whatsapp: WhatsAppCloudServer | null = null;
/** What earlier runs of a restarted peer received. */
const pastSms: ReceivedSms[] = [];
const pastWhatsApp: CloudMessage[] = [];

async function startSmpp() {
  smpp ??= await startTestSmppServer({ port: SMPP_PORT });
}
async function stopSmpp() {
  if (!smpp) return;
  pastSms.push(...smpp.received);
  await smpp.close();
  smpp = null;
}
async function startWhatsApp() {
  whatsapp ??= await startWhatsAppCloudServer({ ...WHATSAPP, port: WHATSAPP_PORT });
}
async function stopWhatsApp() {
  if (!whatsapp) return;
  pastWhatsApp.push(...whatsapp.messages);
  await whatsapp.close();
  whatsapp = null;
}

const digits = (value: string | null) => (value ?? '').replace(/\D/g, '');
const samePhone = (a: string, b: string | null) => !b || digits(a).endsWith(digits(b).slice(-10));

function readBody(request: http.IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve(text ? (JSON.parse(text) as Record<string, string>) : {});
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

const routes: Record<string, (url: URL, body: Record<string, string>) => Promise<unknown>> = {
  'GET /health': async () => ({ smpp: smpp !== null, whatsapp: whatsapp !== null }),
  'GET /sms': async (url) =>
    [...pastSms, ...(smpp?.received ?? [])].filter((sms) =>
      samePhone(sms.destinationAddr, url.searchParams.get('to')),
    ),
  'GET /whatsapp': async (url) =>
    [...pastWhatsApp, ...(whatsapp?.messages ?? [])].filter((message) =>
      samePhone(message.body.to, url.searchParams.get('to')),
    ),
  'POST /sms/inbound': async (_url, body) => {
    if (!smpp) throw new Error('the SMPP peer is stopped');
    return { commandStatus: await smpp.inbound(digits(body.from ?? ''), body.text ?? '') };
  },
  'POST /whatsapp/press': async (_url, body) => {
    if (!whatsapp) throw new Error('the WhatsApp peer is stopped');
    const hook = whatsapp.buttonWebhook(
      digits(body.from ?? ''),
      body.payload ?? '',
      body.text ?? '',
    );
    const res = await fetch(`${APP_URL}/api/v1/webhooks/whatsapp`, {
      method: 'POST',
      headers: hook.headers,
      body: hook.payload,
    });
    return { status: res.status };
  },
  'POST /smpp/stop': async () => stopSmpp(),
  'POST /smpp/start': async () => startSmpp(),
  'POST /whatsapp/stop': async () => stopWhatsApp(),
  'POST /whatsapp/start': async () => startWhatsApp(),
};

await startSmpp();
await startWhatsApp();

http
  .createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const route = routes[`${request.method} ${url.pathname}`];
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body ?? { ok: true }));
    };
    if (!route) return send(404, { error: 'no such route' });
    readBody(request)
      .then((body) => route(url, body))
      .then((result) => send(200, result))
      .catch((error: unknown) => send(409, { error: String(error) }));
  })
  .listen(HTTP_PORT, '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([stopSmpp(), stopWhatsApp()]).finally(() => process.exit(0));
  });
}
