import net from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentChunks, documents } from '../../db/schema';
import { requestBody } from '../blood-request-helpers';
import { multipart, signIn, SAMPLE_FILES, type SignedInUser } from '../donor-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { createTestDatabase, type TestDatabase } from '../test-database';
import { expectSafeReply } from './hostile';
import { nextAddress } from './world';

/**
 * Issue #9, "Hostile input", the parts a fuzzer does not reach: hostile uploads, rate limits
 * under spoofed headers, and request lines only a raw socket can send.
 */
let testDb: TestDatabase;
let subject: TestApp;
let donor: SignedInUser;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp({ database: testDb.database, services: { backgroundJobs: false } });
  donor = await signIn(subject.app, testDb.database.db, { status: 'approved' });
});

afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;

/** Every stored chunk of the donor's documents (the bytes live in PostgreSQL since issue #19). */
async function storedFiles(): Promise<string[]> {
  const rows = await db()
    .select({ documentId: documentChunks.documentId, seq: documentChunks.seq })
    .from(documentChunks)
    .innerJoin(documents, eq(documents.id, documentChunks.documentId))
    .where(eq(documents.userId, donor.row.id));
  return rows.map((row) => `${row.documentId}:${row.seq}`).sort();
}

async function storedRows(): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(documents)
    .where(eq(documents.userId, donor.row.id));
  return Number(row!.n);
}

function upload(body: { payload: Buffer; headers: Record<string, string> }) {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/documents',
    payload: body.payload,
    headers: { ...donor.headers, ...body.headers },
    remoteAddress: nextAddress(),
  });
}

const file = (filename: string, contentType: string, data: Buffer) =>
  multipart({ type: 'id_proof' }, [{ filename, contentType, data }]);

const JPEG = SAMPLE_FILES.jpeg;
const PDF_HEADER = Buffer.from('%PDF-1.7\n');

describe('hostile uploads', () => {
  const refused: [string, { payload: Buffer; headers: Record<string, string> }, number][] = [
    ['an empty file', file('id.pdf', 'application/pdf', Buffer.alloc(0)), 400],
    [
      'an HTML page named .pdf and sent as application/pdf',
      file('id.pdf', 'application/pdf', SAMPLE_FILES.html),
      415,
    ],
    [
      'a PHP script named .jpg and sent as image/jpeg',
      file('photo.jpg', 'image/jpeg', Buffer.from('<?php system($_GET["c"]); ?>')),
      415,
    ],
    [
      'an SVG with a script, sent as image/png',
      file(
        'photo.png',
        'image/png',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      ),
      415,
    ],
    [
      'a PDF header with an HTML page and script inside (polyglot)',
      file(
        'id.pdf',
        'application/pdf',
        Buffer.concat([
          PDF_HEADER,
          Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>\n%%EOF'),
        ]),
      ),
      415,
    ],
    [
      'a PDF that runs JavaScript when opened',
      file(
        'id.pdf',
        'application/pdf',
        Buffer.concat([
          PDF_HEADER,
          Buffer.from(
            '1 0 obj << /Type /Catalog /OpenAction 2 0 R >> endobj\n' +
              '2 0 obj << /S /JavaScript /JS (app.alert(1)) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF',
          ),
        ]),
      ),
      415,
    ],
    [
      'a JPEG with a PHP payload (polyglot)',
      file(
        'shell.php.jpg',
        'image/jpeg',
        Buffer.concat([JPEG, Buffer.from('<?php echo shell_exec($_GET["c"]); ?>')]),
      ),
      415,
    ],
    [
      'a JPEG with an HTML page appended (polyglot)',
      file(
        'photo.jpg',
        'image/jpeg',
        Buffer.concat([JPEG, Buffer.from('<!DOCTYPE html><script>alert(1)</script>')]),
      ),
      415,
    ],
    [
      'an unknown binary sent as application/octet-stream',
      file('id.bin', 'application/octet-stream', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 3, 0, 0])),
      415,
    ],
    [
      'a JPEG in the wrong field',
      multipart({ type: 'id_proof' }, [
        { field: 'upload', filename: 'a.jpg', contentType: 'image/jpeg', data: JPEG },
      ]),
      400,
    ],
    [
      'two files',
      multipart({ type: 'id_proof' }, [
        { filename: 'a.jpg', contentType: 'image/jpeg', data: JPEG },
        { filename: 'b.jpg', contentType: 'image/jpeg', data: JPEG },
      ]),
      400,
    ],
    [
      'an unknown document type',
      multipart({ type: '<script>' }, [
        { filename: 'a.jpg', contentType: 'image/jpeg', data: JPEG },
      ]),
      400,
    ],
    ['no file at all', multipart({ type: 'id_proof' }), 400],
    [
      'a body cut short',
      {
        payload: file('id.pdf', 'application/pdf', SAMPLE_FILES.pdf).payload.subarray(0, 120),
        headers: file('x', 'x', Buffer.alloc(1)).headers,
      },
      400,
    ],
    [
      'a multipart body without a boundary',
      { payload: Buffer.from('--x\r\n\r\n'), headers: { 'content-type': 'multipart/form-data' } },
      400,
    ],
    [
      'a file over 5 MB',
      file(
        'big.pdf',
        'application/pdf',
        Buffer.concat([PDF_HEADER, Buffer.alloc(5 * 1024 * 1024)]),
      ),
      413,
    ],
  ];

  it.each(refused)('refuses %s cleanly and stores nothing', async (_name, body, status) => {
    const filesBefore = await storedFiles();
    const rowsBefore = await storedRows();
    const res = await upload(body);
    expectSafeReply(res, _name);
    expect(res.statusCode, res.body).toBe(status);
    expect(await storedFiles()).toEqual(filesBefore);
    expect(await storedRows()).toBe(rowsBefore);
  });

  it('decides by content, not by name or declared type: a real PDF named .exe, sent as text/html', async () => {
    const res = await upload(file('../../etc/<script>id.exe', 'text/html', SAMPLE_FILES.pdf));
    expect(res.statusCode, res.body).toBe(201);
    const { document } = res.json().data;
    expect(document).toMatchObject({ mimeType: 'application/pdf' });
    expect(document.fileName).toBe('scriptid.exe.pdf');
    const download = await subject.app.inject({
      url: `/api/v1/documents/${document.id}/file`,
      headers: donor.headers,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment;/);
  });
});

describe('rate limits under hostile headers', () => {
  it('answers 429 with Retry-After after the limit, whatever X-Forwarded-For says', async () => {
    const address = '192.0.2.77';
    const check = (i: number) =>
      subject.app.inject({
        method: 'POST',
        url: '/api/v1/auth/check-email',
        payload: { email: `limit-${i}@example.org` },
        // TRUST_PROXY is off: a forged header must not give each call a new identity.
        headers: { 'x-forwarded-for': `198.18.0.${i}`, 'x-real-ip': `198.18.1.${i}` },
        remoteAddress: address,
      });
    for (let i = 0; i < 20; i += 1) expect((await check(i)).statusCode).toBe(200);
    const limited = await check(20);
    expectSafeReply(limited, 'over the limit');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/check-email',
      payload: { email: 'other@example.org' },
      remoteAddress: '192.0.2.78',
    });
    expect(other.statusCode).toBe(200);
  });

  it('limits guest blood requests per address, however the requests vary', async () => {
    const address = '192.0.2.90';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await subject.app.inject({
        method: 'POST',
        url: '/api/v1/blood-requests',
        payload: requestBody(),
        headers: { 'x-request-id': `limit-${i}`, authorization: 'Bearer forged' },
        remoteAddress: address,
      });
      expectSafeReply(res, `guest request ${i}`);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
  });

  it('keeps RATE_LIMIT_ALLOWLIST addresses exempt on the blood request route too', async () => {
    // Regression: the route's own allow list (staff) used to replace the configured one.
    const trusted = await createTestApp({
      database: testDb.database,
      env: { RATE_LIMIT_ALLOWLIST: '192.0.2.200' },
      services: { backgroundJobs: false },
    });
    try {
      const send = (remoteAddress: string) =>
        trusted.app.inject({
          method: 'POST',
          url: '/api/v1/blood-requests',
          payload: requestBody(),
          remoteAddress,
        });
      for (let i = 0; i < 7; i += 1) expect((await send('192.0.2.200')).statusCode).toBe(201);
      const others = [];
      for (let i = 0; i < 6; i += 1) others.push((await send('192.0.2.201')).statusCode);
      expect(others).toEqual([201, 201, 201, 201, 201, 429]);
    } finally {
      await trusted.close();
    }
  });
});

describe('raw request lines', () => {
  let port: number;
  beforeAll(async () => {
    await subject.app.listen({ host: '127.0.0.1', port: 0 });
    port = (subject.app.server.address() as net.AddressInfo).port;
  });

  /** Sends bytes as they are (no client normalises the URL) and reads the reply. */
  function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('latin1');
        const [head = '', ...rest] = text.split('\r\n\r\n');
        resolve({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
          headers: head,
          body: rest.join('\r\n\r\n'),
        });
      });
      // Written, not ended: a half-closed socket makes Node drop replies still being prepared.
      socket.write(request);
    });
  }

  it.each([
    '/api/v1/users/<script>alert(1)</script>',
    '/api/v1/users/<img src=x onerror=alert(1)>',
    '/api/v1/<script>alert(1)</script>',
    '/api/v1/users/%E0%A4%A<script>',
    '/api/v1/blood-requests/track/<svg/onload=alert(1)>',
    `/api/v1/users/${'<script>'.repeat(30)}`,
    '/api/v1/public/facilities/search?q=<script>alert(1)</script>',
    '/api/v1/public/facilities/search?q=%ZZ<script>',
    '/<script>alert(1)</script>',
    '/\\evil.example/',
    '//evil.example/%2e%2e/',
    '/assets/..%2f..%2f..%2fetc%2fpasswd',
    '/api/v1/users/..%2f..%2fconfig',
  ])('GET %s gets a clean answer', async (target) => {
    for (const accept of ['application/json', 'text/html']) {
      const res = await raw(
        `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, res.headers).toBeGreaterThanOrEqual(200);
      expect(res.status, res.body).toBeLessThan(500);
      // No open redirect to another host, no file from outside the web root.
      expect(res.headers).not.toMatch(/^location:\s*(https?:)?\/\/(?!127\.0\.0\.1|localhost)/im);
      expect(res.body).not.toMatch(/root:x:0:0|SECRET=/);
      expect(res.body, 'the request echoed as markup').not.toMatch(
        /<script>alert|<img src=x|<svg\/onload/i,
      );
    }
  });
});
