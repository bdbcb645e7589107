import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '../../../db/schema';
import { startTestSmtpServer, type TestSmtpServer } from '../../../test/smtp-server';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database';
import {
  createMailer,
  MAIL_MAX_ATTEMPTS,
  recipientDomain,
  retryDelayMs,
  type MailTransport,
} from './mailer';

let testDb: TestDatabase;
let smtp: TestSmtpServer;
const stoppers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startTestSmtpServer();
});

afterEach(async () => {
  await Promise.all(stoppers.splice(0).map((stop) => stop()));
  smtp.failing = false;
  smtp.messages.length = 0;
  await testDb.truncate();
});

afterAll(async () => {
  await smtp?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;
const MESSAGE = {
  to: 'asha@example.org',
  kind: 'test',
  subject: 'Hello',
  text: 'Code 123456',
  html: '<p>Code 123456</p>',
};

function fakeClock() {
  let time = Date.UTC(2026, 10, 21, 9, 0, 0);
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

function mailer(options: Partial<Parameters<typeof createMailer>[0]> = {}) {
  const instance = createMailer({
    db: db(),
    config: { smtpUrl: smtp.url, mailFrom: 'BDMS <no-reply@bdms.example>' },
    ...options,
  });
  stoppers.push(() => instance.stop());
  return instance;
}

const rows = () => db().select().from(mailOutbox);

describe('mailer over SMTP', () => {
  it('stores the message, sends it once, and blanks the stored bodies', async () => {
    const sender = mailer();
    const row = await sender.enqueue(MESSAGE);
    expect(row.status).toBe('queued');
    expect(await sender.deliverDue()).toBe(1);
    expect(await sender.deliverDue()).toBe(0);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]).toMatchObject({
      from: 'no-reply@bdms.example',
      to: ['asha@example.org'],
      subject: 'Hello',
    });
    expect(smtp.messages[0]!.text).toContain('Code 123456');
    expect(smtp.messages[0]!.html).toContain('<p>Code 123456</p>');
    const [stored] = await rows();
    expect(stored).toMatchObject({
      status: 'sent',
      attempts: 1,
      textBody: null,
      htmlBody: null,
      lastError: null,
    });
    expect(stored!.messageId).toMatch(/@/);
    expect(stored!.sentAt).toBeInstanceOf(Date);
  });

  it('retries a refused message later with backoff, and delivers it when SMTP recovers', async () => {
    const clock = fakeClock();
    const sender = mailer({ now: clock.now });
    await sender.enqueue(MESSAGE);
    smtp.failing = true;
    await sender.deliverDue();
    let [stored] = await rows();
    expect(stored).toMatchObject({ status: 'queued', attempts: 1 });
    expect(stored!.lastError).toMatch(/451/);
    expect(stored!.nextAttemptAt.getTime()).toBe(clock.now() + 60_000);
    expect(stored!.textBody).toBe(MESSAGE.text);

    smtp.failing = false;
    clock.advance(59_000);
    expect(await sender.deliverDue()).toBe(0);
    clock.advance(1_000);
    expect(await sender.deliverDue()).toBe(1);
    [stored] = await rows();
    expect(stored).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smtp.messages).toHaveLength(1);
  });

  it('is delivered by a later process when the first one stopped before sending', async () => {
    const first = mailer();
    await first.enqueue(MESSAGE);
    await first.stop();
    const second = mailer();
    second.start();
    await smtp.waitFor((mail) => mail.subject === 'Hello');
    await second.idle();
    expect((await rows())[0]!.status).toBe('sent');
  });

  it('sends what is enqueued and kicked without waiting for the timer', async () => {
    const sender = mailer();
    sender.start();
    await sender.send({ ...MESSAGE, subject: 'Kicked' });
    await smtp.waitFor((mail) => mail.subject === 'Kicked');
  });
});

describe('mailer retry schedule', () => {
  it(`waits 1 minute × 2^(n−1) after the n-th failure and gives up after ${MAIL_MAX_ATTEMPTS}`, async () => {
    expect([1, 2, 3, 8].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000, 7_680_000]);
    const clock = fakeClock();
    const transport: MailTransport = {
      sendMail: vi.fn(async () => {
        throw new Error('connection refused');
      }),
      close: vi.fn(),
    };
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const sender = mailer({ now: clock.now, transport, logger });
    await sender.enqueue(MESSAGE);
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
      expect(await sender.deliverDue()).toBe(1);
      const [stored] = await rows();
      expect(stored!.attempts).toBe(attempt);
      if (attempt < MAIL_MAX_ATTEMPTS) {
        expect(stored!.status).toBe('queued');
        expect(stored!.nextAttemptAt.getTime() - clock.now()).toBe(retryDelayMs(attempt));
        clock.advance(retryDelayMs(attempt));
      } else {
        expect(stored!.status).toBe('failed');
      }
    }
    clock.advance(24 * 3600_000);
    expect(await sender.deliverDue()).toBe(0);
    expect(transport.sendMail).toHaveBeenCalledTimes(MAIL_MAX_ATTEMPTS);
    // Failures are logged without the address.
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('asha@example.org');
    await sender.stop();
    expect(transport.close).toHaveBeenCalled();
  });
});

describe('mailer without SMTP_URL', () => {
  it('keeps the message in the outbox (status logged) and logs only its domain and subject', async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const sender = createMailer({
      db: db(),
      config: { smtpUrl: null, mailFrom: 'no-reply@localhost' },
      logger,
    });
    expect(sender.isConfigured).toBe(false);
    const row = await sender.send(MESSAGE);
    expect(row.status).toBe('logged');
    expect(await sender.deliverDue()).toBe(0);
    const [stored] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, row.id));
    expect(stored).toMatchObject({ status: 'logged', textBody: MESSAGE.text, attempts: 0 });
    expect(logger.info).toHaveBeenCalledOnce();
    const [fields, line] = logger.info.mock.calls[0]!;
    expect(fields).toMatchObject({ to: 'example.org', subject: 'Hello', kind: 'test' });
    expect(line).toContain('mail_outbox');
    expect(JSON.stringify(logger.info.mock.calls)).not.toContain('asha@');
    expect(JSON.stringify(logger.info.mock.calls)).not.toContain('123456');
  });

  it('reports only the domain of an address', () => {
    expect(recipientDomain('a.b@Example.org')).toBe('Example.org');
    expect(recipientDomain('nonsense')).toBe('(invalid)');
  });
});
