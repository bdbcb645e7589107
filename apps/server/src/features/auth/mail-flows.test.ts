import { OTP_MAX_ATTEMPTS } from '@bdms/shared';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  mailOutbox,
  oneTimeCodes,
  passwordResetTokens,
  refreshTokens,
} from '../../db/schema';
import { ACCOUNT_LIMITS } from '../../lib/auth-limits';
import { AUTH_RATE_LIMITS } from './auth.routes';
import { loggerOptions } from '../../plugins/logger';
import { bearer, expectUserShape, loginAs, seedUser } from '../../test/auth-helpers';
import {
  startTestSmtpServer,
  type ReceivedMail,
  type TestSmtpServer,
} from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

const PUBLIC_URL = 'https://blood.example.in';

let testDb: TestDatabase;
let smtp: TestSmtpServer;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startTestSmtpServer();
});

beforeEach(async () => {
  subject = await createTestApp({
    database: testDb.database,
    env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'BDMS <no-reply@bdms.example>' },
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

function post(url: string, payload: object, remoteAddress = '203.0.113.10') {
  return subject.app.inject({ method: 'POST', url, payload, remoteAddress });
}

const requestCode = (email: string) => post('/api/v1/auth/login-otp', { email });
const signInWithCode = (email: string, code: string) =>
  post('/api/v1/auth/login-otp', { email, code });

function codeIn(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in: ${mail.text}`);
  return match[1]!;
}

async function nextMailTo(address: string, count = 1): Promise<ReceivedMail> {
  await expect
    .poll(() => smtp.messages.filter((mail) => mail.to.includes(address)).length, { timeout: 5000 })
    .toBeGreaterThanOrEqual(count);
  return smtp.messages.filter((mail) => mail.to.includes(address))[count - 1]!;
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /api/v1/auth/login-otp', () => {
  it('mails a 6-digit code over SMTP and signs in with it, once', async () => {
    const donor = await seedUser(db());
    const asked = await requestCode(donor.row.email.toUpperCase());
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ success: true, data: { sent: true } });

    const mail = await nextMailTo(donor.row.email);
    expect(mail.from).toBe('no-reply@bdms.example');
    expect(mail.subject).toBe('Your sign-in code for Blood Donation Management System');
    expect(mail.text).toContain(PUBLIC_URL);
    const code = codeIn(mail);
    expect(mail.html).toContain(code);

    const res = await signInWithCode(donor.row.email, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(expectUserShape(res.json().data.user).id).toBe(donor.row.id);
    const me = await subject.app.inject({
      url: '/api/v1/auth/me',
      headers: bearer(res.json().data.tokens.accessToken),
    });
    expect(me.statusCode).toBe(200);

    // Used up.
    const again = await signInWithCode(donor.row.email, code);
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('INVALID_OTP');

    // The code is stored only as a keyed hash; the sent mail keeps no body.
    const [stored] = await db().select().from(oneTimeCodes);
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.consumedAt).toBeInstanceOf(Date);
    await subject.app.services.mail.idle();
    const [outbox] = await db().select().from(mailOutbox);
    expect(outbox).toMatchObject({ status: 'sent', kind: 'login_otp', textBody: null });
    const actions = (await db().select().from(activityLog)).map((entry) => entry.details);
    expect(actions).toContainEqual({ method: 'otp' });
  });

  it('answers the same for an address with no account, and mails nothing', async () => {
    const res = await requestCode('nobody@example.org');
    expect(res.json()).toEqual({ success: true, data: { sent: true } });
    const wrong = await signInWithCode('nobody@example.org', '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('INVALID_OTP');
    expect(await db().select().from(mailOutbox)).toHaveLength(0);
  });

  it('voids the previous code when a new one is asked for', async () => {
    const donor = await seedUser(db());
    await requestCode(donor.row.email);
    const first = codeIn(await nextMailTo(donor.row.email, 1));
    await requestCode(donor.row.email);
    const second = codeIn(await nextMailTo(donor.row.email, 2));
    if (first !== second) {
      expect((await signInWithCode(donor.row.email, first)).statusCode).toBe(401);
    }
    expect((await signInWithCode(donor.row.email, second)).statusCode).toBe(200);
  });

  it(`voids a code after ${OTP_MAX_ATTEMPTS} wrong tries, even for the right code`, async () => {
    const donor = await seedUser(db());
    await requestCode(donor.row.email);
    const code = codeIn(await nextMailTo(donor.row.email));
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i += 1) {
      const res = await signInWithCode(donor.row.email, wrongCode(code));
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual({
        code: 'INVALID_OTP',
        message: expect.stringContaining('not correct'),
      });
    }
    const right = await signInWithCode(donor.row.email, code);
    expect(right.statusCode).toBe(401);
    expect(right.json().error.code).toBe('INVALID_OTP');
    const [stored] = await db().select().from(oneTimeCodes);
    expect(stored!.attempts).toBe(OTP_MAX_ATTEMPTS);
    expect(stored!.consumedAt).toBeNull();
    expect(await db().select().from(refreshTokens)).toHaveLength(0);
  });

  it('refuses an expired code', async () => {
    const donor = await seedUser(db());
    await requestCode(donor.row.email);
    const code = codeIn(await nextMailTo(donor.row.email));
    await db()
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1) });
    expect((await signInWithCode(donor.row.email, code)).json().error.code).toBe('INVALID_OTP');
  });

  it(`sends at most ${ACCOUNT_LIMITS.otpRequests.max} codes per address in 15 minutes, registered or not`, async () => {
    const donor = await seedUser(db());
    for (const email of [donor.row.email, 'ghost@example.org']) {
      for (let i = 0; i < ACCOUNT_LIMITS.otpRequests.max; i += 1) {
        expect((await requestCode(email)).statusCode).toBe(200);
      }
      const over = await requestCode(email);
      expect(over.statusCode).toBe(429);
      expect(over.json().error.code).toBe('RATE_LIMITED');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it(`refuses further codes after ${ACCOUNT_LIMITS.otpFailures.max} wrong ones`, async () => {
    const donor = await seedUser(db());
    for (let i = 0; i < ACCOUNT_LIMITS.otpFailures.max; i += 1) {
      const res = await signInWithCode(donor.row.email, '000000');
      expect(res.statusCode).toBe(401);
    }
    const locked = await signInWithCode(donor.row.email, '000000');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it("writes in the account's language", async () => {
    const donor = await seedUser(db(), { language: 'hi' });
    await requestCode(donor.row.email);
    const mail = await nextMailTo(donor.row.email);
    expect(mail.subject).toBe('Blood Donation Management System में साइन इन करने के लिए आपका कोड');
    expect(mail.text).toContain('नमस्ते');
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
  });

  it('validates the code format', async () => {
    const res = await signInWithCode('someone@example.org', '12ab');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { path: 'body.code', message: 'The code has 6 digits.' },
    ]);
  });
});

describe('POST /api/v1/auth/reset-password', () => {
  const requestReset = (email: string) => post('/api/v1/auth/reset-password', { email });
  const setPassword = (token: string, password: string) =>
    post('/api/v1/auth/reset-password', { token, password });

  function tokenIn(mail: ReceivedMail): string {
    const match = /https:\/\/blood\.example\.in\/reset-password\?token=([\w-]+)/.exec(mail.text);
    if (!match) throw new Error(`no link in: ${mail.text}`);
    return match[1]!;
  }

  it('mails a link, sets the new password, and signs out every session', async () => {
    const donor = await seedUser(db());
    const phone = await loginAs(subject.app, donor);
    const laptop = await loginAs(subject.app, donor);

    const asked = await requestReset(donor.row.email);
    expect(asked.json()).toEqual({ success: true, data: { sent: true } });
    const mail = await nextMailTo(donor.row.email);
    expect(mail.subject).toBe('Reset your Blood Donation Management System password');
    const token = tokenIn(mail);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/reset-password?token=${token}"`);

    const res = await setPassword(token, 'a brand new password');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { reset: true } });

    for (const session of [phone, laptop]) {
      const refreshed = await post('/api/v1/auth/refresh', {
        refreshToken: session.tokens.refreshToken,
      });
      expect(refreshed.statusCode).toBe(401);
      const me = await subject.app.inject({
        url: '/api/v1/auth/me',
        headers: bearer(session.tokens.accessToken),
      });
      expect(me.statusCode).toBe(401);
    }
    const sessions = await db().select().from(refreshTokens);
    expect(sessions.map((row) => row.revokedReason)).toEqual(['password_reset', 'password_reset']);

    const old = await post('/api/v1/auth/login', {
      email: donor.row.email,
      password: donor.password,
    });
    expect(old.statusCode).toBe(401);
    const fresh = await post('/api/v1/auth/login', {
      email: donor.row.email,
      password: 'a brand new password',
    });
    expect(fresh.statusCode).toBe(200);

    // Single use.
    const reused = await setPassword(token, 'yet another password');
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toEqual({
      code: 'INVALID_RESET_TOKEN',
      message: 'This password reset link is not valid any more. Please ask for a new one.',
    });
    const [stored] = await db().select().from(passwordResetTokens);
    expect(stored!.tokenHash).not.toBe(token);
    const actions = (await db().select().from(activityLog)).map((entry) => entry.action);
    expect(actions).toContain('user.password_reset');
  });

  it('answers the same for an address with no account, and mails nothing', async () => {
    const res = await requestReset('nobody@example.org');
    expect(res.json()).toEqual({ success: true, data: { sent: true } });
    expect(await db().select().from(mailOutbox)).toHaveLength(0);
  });

  it('refuses unknown and expired links, and only the newest link works', async () => {
    const donor = await seedUser(db());
    const unknown = await setPassword('x'.repeat(43), 'a brand new password');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('INVALID_RESET_TOKEN');

    await requestReset(donor.row.email);
    const first = tokenIn(await nextMailTo(donor.row.email, 1));
    await requestReset(donor.row.email);
    const second = tokenIn(await nextMailTo(donor.row.email, 2));
    expect((await setPassword(first, 'a brand new password')).statusCode).toBe(400);

    await db()
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1) });
    expect((await setPassword(second, 'a brand new password')).statusCode).toBe(400);
  });

  it('validates the body: a token needs a password of 8 or more characters', async () => {
    const noPassword = await post('/api/v1/auth/reset-password', { token: 'x'.repeat(43) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error.details).toEqual([
      { path: 'body.password', message: 'Enter a new password.' },
    ]);
    const short = await setPassword('x'.repeat(43), 'short');
    expect(short.json().error.details[0].path).toBe('body.password');
    const empty = await post('/api/v1/auth/reset-password', {});
    expect(empty.json().error.details[0].path).toBe('body.email');
  });

  it(`sends at most ${ACCOUNT_LIMITS.resetRequests.max} links per address in an hour`, async () => {
    const donor = await seedUser(db());
    for (let i = 0; i < ACCOUNT_LIMITS.resetRequests.max; i += 1) {
      expect((await requestReset(donor.row.email)).statusCode).toBe(200);
    }
    const over = await requestReset(donor.row.email);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3000);
  });
});

describe('per-address limits of the mail routes', () => {
  it.each([
    ['/api/v1/auth/login-otp', AUTH_RATE_LIMITS.loginOtp.max],
    ['/api/v1/auth/reset-password', AUTH_RATE_LIMITS.resetPassword.max],
  ])('%s allows %i requests per 15 minutes per client address', async (url, max) => {
    for (let i = 0; i < max; i += 1) {
      // A new e-mail address each time, so the per-account limit never applies.
      const res = await post(url, { email: `person${i}@example.org` }, '198.51.100.77');
      expect(res.statusCode).toBe(200);
    }
    const over = await post(url, { email: 'one-more@example.org' }, '198.51.100.77');
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('RATE_LIMITED');
    expect(over.headers['retry-after']).toBeDefined();
  });
});

describe('without SMTP_URL', () => {
  it('keeps the code in the mail_outbox table for developers, and logs no code or address', async () => {
    const lines: string[] = [];
    const logger = pino(loggerOptions({ logLevel: 'info' }), {
      write: (line: string) => void lines.push(line),
    });
    const local = await createTestApp({ database: testDb.database, env: { PUBLIC_URL }, logger });
    try {
      const donor = await seedUser(db(), { language: 'es' });
      const asked = await local.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login-otp',
        payload: { email: donor.row.email },
      });
      expect(asked.json().data).toEqual({ sent: true });
      const [row] = await db().select().from(mailOutbox);
      expect(row).toMatchObject({
        status: 'logged',
        kind: 'login_otp',
        toAddress: donor.row.email,
        subject: 'Tu código de acceso a Blood Donation Management System',
      });
      const code = /\b(\d{6})\b/.exec(row!.textBody ?? '')![1]!;
      const res = await local.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login-otp',
        payload: { email: donor.row.email, code },
      });
      expect(res.statusCode).toBe(200);
      const log = lines.join('\n');
      expect(log).toContain('mail_outbox');
      expect(log).not.toContain(code);
      expect(log).not.toContain(donor.row.email);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      await local.close();
    }
  });
});
