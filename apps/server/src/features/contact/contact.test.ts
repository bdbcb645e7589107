import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, contactMessages, mailOutbox } from '../../db/schema';
import { loggerOptions } from '../../plugins/logger';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { CONTACT_RATE_LIMIT } from './contact.routes';
import { CONTACT_RETENTION_MS, hashAddress } from './contact.service';

const SUPPORT_EMAIL = 'help@blood.example.in';
const SENDER = 'asha.verma@example.org';

let testDb: TestDatabase;
let smtp: TestSmtpServer;
let subject: TestApp;
let lines: string[];

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startTestSmtpServer();
});

beforeEach(async () => {
  lines = [];
  const logger = pino(loggerOptions({ logLevel: 'trace' }), {
    write: (line: string) => void lines.push(line),
  });
  subject = await createTestApp({
    database: testDb.database,
    env: {
      SMTP_URL: smtp.url,
      SUPPORT_EMAIL,
      PUBLIC_URL: 'https://blood.example.in',
      MAIL_FROM: 'BDMS <no-reply@bdms.example>',
    },
    logger,
    services: { backgroundJobs: false },
  });
});

afterEach(async () => {
  await subject.close();
  smtp.messages.length = 0;
  await testDb.truncate();
});

afterAll(async () => {
  await smtp?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;

const MESSAGE = {
  name: 'Asha Verma',
  email: SENDER,
  subject: 'Question about <camps> & donors',
  message: 'Hello!\nCan our college host a camp? <script>alert(1)</script>\nThanks.',
};

function send(payload: unknown, options: { address?: string; requestId?: string } = {}) {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/contact',
    payload: payload as never,
    remoteAddress: options.address ?? '203.0.113.5',
    headers: options.requestId ? { 'x-request-id': options.requestId } : {},
  });
}

describe('POST /api/v1/contact', () => {
  it('stores the message and e-mails it to the support address, replying to the sender', async () => {
    const res = await send(MESSAGE);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({ received: true, id: expect.any(String) });

    const [row] = await db().select().from(contactMessages);
    expect(row).toMatchObject({
      id: data.id,
      name: 'Asha Verma',
      email: SENDER,
      subject: MESSAGE.subject,
      message: MESSAGE.message,
      handledAt: null,
    });
    expect(row!.ipHash).toBe(hashAddress('203.0.113.5', subject.config.jwtSecret));
    expect(row!.ipHash).not.toContain('203.0.113.5');

    const mail = await smtp.waitFor((received) => received.to.includes(SUPPORT_EMAIL));
    expect(mail.to).toEqual([SUPPORT_EMAIL]);
    expect(mail.subject).toBe('Contact form: Question about <camps> & donors');
    expect(mail.raw).toMatch(new RegExp(`^Reply-To: ${SENDER.replace('.', '\\.')}\\r?$`, 'mi'));
    expect(mail.text).toContain(`From: Asha Verma <${SENDER}>`);
    expect(mail.text).toContain(`Reference: ${data.id}`);
    expect(mail.text).toContain('Can our college host a camp? <script>alert(1)</script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('Question about &lt;camps&gt; &amp; donors');
    expect(mail.html).not.toContain('<script>');

    // Sent: the outbox keeps no body and no reply address.
    await expect
      .poll(async () => (await db().select().from(mailOutbox))[0]?.status, { timeout: 5000 })
      .toBe('sent');
    const [outbox] = await db().select().from(mailOutbox);
    expect(outbox).toMatchObject({
      kind: 'contact_message',
      toAddress: SUPPORT_EMAIL,
      textBody: null,
      replyTo: null,
    });

    const [entry] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'contact.received'));
    expect(entry).toMatchObject({ targetType: 'contact_message', targetId: data.id, details: {} });

    // The sender's address is personal data: nowhere in the logs.
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(SENDER);
    expect(lines.join('\n')).not.toContain('asha.verma');
  });

  it('refuses invalid messages with 400 and the fields, storing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ ...MESSAGE, name: 'A' }, 'body.name'],
      [{ ...MESSAGE, name: 'x'.repeat(101) }, 'body.name'],
      [{ ...MESSAGE, email: 'not-an-address' }, 'body.email'],
      [{ ...MESSAGE, subject: 'Hi' }, 'body.subject'],
      [{ ...MESSAGE, subject: 'Two\r\nBcc: someone@example.org' }, 'body.subject'],
      [{ ...MESSAGE, message: 'Too short' }, 'body.message'],
      [{ ...MESSAGE, message: 'x'.repeat(5001) }, 'body.message'],
      [{ ...MESSAGE, message: 'Hello there,\u0000 friend' }, 'body.message'],
      [{ ...MESSAGE, name: 'Asha\u0007 Verma' }, 'body.name'],
      [{ name: 'Asha Verma' }, 'body.email'],
    ];
    // Invalid requests count against the rate limit too: one address per case.
    for (const [index, [payload, field]] of cases.entries()) {
      const res = await send(payload, { address: `198.51.100.${index + 10}` });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.details.map((detail: { path: string }) => detail.path)).toContain(
        field,
      );
    }
    const text = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
      remoteAddress: '198.51.100.2',
    });
    expect(text.statusCode).toBe(415);
    const malformed = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
      remoteAddress: '198.51.100.2',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await db().select().from(contactMessages)).toHaveLength(0);
    expect(await db().select().from(mailOutbox)).toHaveLength(0);
  });

  it(`allows ${CONTACT_RATE_LIMIT.max} messages an hour per address, then 429 with Retry-After`, async () => {
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i += 1) {
      expect((await send(MESSAGE, { address: '192.0.2.77' })).statusCode).toBe(201);
    }
    const over = await send(MESSAGE, { address: '192.0.2.77' });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(MESSAGE, { address: '192.0.2.78' })).statusCode).toBe(201);
  });

  it('is idempotent by X-Request-ID: a retry returns the first receipt and sends nothing again', async () => {
    const first = await send(MESSAGE, { requestId: 'contact-retry-1' });
    const again = await send(MESSAGE, { requestId: 'contact-retry-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(first.json().data);
    expect(await db().select().from(contactMessages)).toHaveLength(1);
    expect(await db().select().from(mailOutbox)).toHaveLength(1);
    const other = await send(
      { ...MESSAGE, subject: 'A different subject' },
      { requestId: 'contact-retry-1' },
    );
    expect(other.statusCode).toBe(409);
  });

  it('deletes messages a year after they were dealt with', async () => {
    const old = new Date(Date.now() - CONTACT_RETENTION_MS - 60_000);
    const recent = new Date(Date.now() - 24 * 60 * 60 * 1000);
    const base = {
      name: 'Old',
      email: 'old@example.org',
      subject: 'Old one',
      message: 'An old message.',
      ipHash: 'x',
    };
    await db()
      .insert(contactMessages)
      .values([
        { ...base, createdAt: old, handledAt: old },
        { ...base, subject: 'Old, handled lately', createdAt: old, handledAt: recent },
      ]);
    expect((await send(MESSAGE)).statusCode).toBe(201);
    const subjects = (await db().select().from(contactMessages)).map((row) => row.subject).sort();
    expect(subjects).toEqual(['Old, handled lately', MESSAGE.subject].sort());
  });
});
