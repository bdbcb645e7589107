import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CloudMessage {
  id: string;
  phoneNumberId: string;
  body: {
    to: string;
    type: string;
    template?: {
      name: string;
      language: { code: string };
      components: {
        type: string;
        sub_type?: string;
        index?: string;
        parameters: { type: string; text?: string; payload?: string }[];
      }[];
    };
    text?: { body: string };
  };
}

/**
 * A local WhatsApp Business Cloud API for tests: `POST /{version}/{phone-number-id}/messages`
 * with the Bearer token, answering `{messages: [{id: "wamid…"}]}` as the real one does (401
 * without the token, 400 without a recipient), and webhooks signed like Meta's
 * (X-Hub-Signature-256: sha256 HMAC of the raw body with the app secret).
 */
export async function startWhatsAppCloudServer(options: {
  token: string;
  appSecret: string;
  phoneNumberId: string;
  /** A fixed port (the browser tests' harness); default: any free one. */
  port?: number;
  /** Meta's clock, for the webhooks' `timestamp` (the app's `now` in tests); default: Date.now. */
  now?: () => number;
}) {
  const clock = options.now ?? Date.now;
  /** Meta's `timestamp`: Unix seconds as a string. */
  const stamp = (at?: number) => String(Math.floor((at ?? clock()) / 1000));
  const inboundId = () => `wamid.in${randomBytes(6).toString('hex')}`;
  const messages: CloudMessage[] = [];
  let failNext = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, body: object) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const match = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(request.url ?? '');
      if (request.method !== 'POST' || !match) return reply(404, { error: { code: 100 } });
      if (request.headers.authorization !== `Bearer ${options.token}`) {
        return reply(401, { error: { message: 'Invalid OAuth access token', code: 190 } });
      }
      if (match[2] !== options.phoneNumberId) return reply(400, { error: { code: 100 } });
      if (failNext > 0) {
        failNext -= 1;
        return reply(503, { error: { message: 'Service temporarily unavailable', code: 2 } });
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CloudMessage['body'];
      if (!body.to) return reply(400, { error: { message: 'Missing recipient', code: 100 } });
      const id = `wamid.${randomBytes(12).toString('hex')}`;
      messages.push({ id, phoneNumberId: match[2], body });
      reply(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id }],
      });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve()),
  );
  const port = (server.address() as AddressInfo).port;

  /** A webhook body and headers as Meta sends them. */
  function signed(value: object, secret = options.appSecret) {
    const payload = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '100000000000000',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: options.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    });
    const signature = createHmac('sha256', secret).update(payload).digest('hex');
    return {
      payload,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${signature}`,
      },
    };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    /** The next n sends answer 503. */
    failNext(n: number) {
      failNext = n;
    },
    /**
     * A quick-reply button press on a template message. `event.id` / `event.at` fix the
     * message id and Meta's timestamp (ms); default: a new id, now.
     */
    buttonWebhook(
      from: string,
      payload: string,
      text: string,
      secret?: string,
      event: { id?: string; at?: number } = {},
    ) {
      return signed(
        {
          contacts: [{ wa_id: from }],
          messages: [
            {
              from,
              id: event.id ?? inboundId(),
              timestamp: stamp(event.at),
              type: 'button',
              button: { payload, text },
            },
          ],
        },
        secret,
      );
    },
    textWebhook(from: string, body: string, event: { id?: string; at?: number } = {}) {
      return signed({
        contacts: [{ wa_id: from }],
        messages: [
          {
            from,
            id: event.id ?? inboundId(),
            timestamp: stamp(event.at),
            type: 'text',
            text: { body },
          },
        ],
      });
    },
    statusWebhook(id: string, status: string, event: { at?: number } = {}) {
      return signed({
        statuses: [{ id, status, timestamp: stamp(event.at), recipient_id: '919812345678' }],
      });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WhatsAppCloudServer = Awaited<ReturnType<typeof startWhatsAppCloudServer>>;
