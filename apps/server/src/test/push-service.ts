import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface FakePushService {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** Trusts the fake service's self-signed certificate; pass it to createServices. */
  agent: https.Agent;
  received: ReceivedPush[];
  /** The status to answer for a path (default 201). */
  statusFor: Map<string, number>;
  /** A browser-like subscription for `/<name>` with real P-256 keys. */
  subscription(name: string): {
    endpoint: string;
    expirationTime: null;
    keys: { p256dh: string; auth: string };
  };
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A local stand-in for a browser push service (FCM, Mozilla autopush…). web-push always uses
 * HTTPS, so it listens with TLS on 127.0.0.1 using the test-only certificate in fixtures/.
 */
export async function startFakePushService(): Promise<FakePushService> {
  const cert = fs.readFileSync(path.join(FIXTURES, 'push-service.cert.pem'));
  const key = fs.readFileSync(path.join(FIXTURES, 'push-service.key.pem'));
  const received: ReceivedPush[] = [];
  const statusFor = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const server = https.createServer({ cert, key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.statusCode = statusFor.get(request.url ?? '') ?? 201;
      response.end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `https://127.0.0.1:${port}`;
  const agent = new https.Agent({ ca: cert, keepAlive: false });
  return {
    origin,
    agent,
    received,
    statusFor,
    subscription(name) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return {
        endpoint: `${origin}/${name}`,
        expirationTime: null,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      };
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} pushes, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
