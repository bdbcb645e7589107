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
import { ACCOUNT_LIMITS, DAILY_LIMITS } from '../../lib/auth-limits';
import { accountKey } from '../../lib/backoff-limiter';
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

const OWNER = '203.0.113.10';
const STRANGER = '198.51.100.66';
const requestCode = (email: string, from = OWNER) =>
  post('/api/v1/auth/login-otp', { email }, from);
const signInWithCode = (email: string, code: string, from = OWNER) =>
  post('/api/v1/auth/login-otp', { email, code }, from);

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

  it("mails a Bengali-speaking donor's sign-in code in Bengali, and the code works", async () => {
    const donor = await seedUser(db(), { status: 'approved', language: 'bn' });
    expect((await requestCode(donor.row.email)).statusCode).toBe(200);
    const mail = await nextMailTo(donor.row.email);
    expect(mail.subject).toBe('Blood Donation Management System-এ সাইন ইন করার জন্য আপনার কোড');
    expect(mail.text).toContain(`নমস্কার ${donor.row.fullName},`);
    expect(mail.text).toContain('10 মিনিট বৈধ');
    expect(mail.html).toContain('<html lang="bn">');
    const [row] = await db().select().from(mailOutbox);
    expect(row!.subject).toBe(mail.subject);
    const res = await signInWithCode(donor.row.email, codeIn(mail));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers the same for an address with no account, and mails nothing', async () => {
    const res = await requestCode('nobody@example.org');
    expect(res.json()).toEqual({ success: true, data: { sent: true } });
    const wrong = await signInWithCode('nobody@example.org', '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('INVALID_OTP');
    expect(await db().select().from(mailOutbox)).toHaveLength(0);
  });

  it('keeps the code mailed just before working when someone asks for another; using one voids the rest', async () => {
    const donor = await seedUser(db());
    await requestCode(donor.row.email, OWNER);
    const first = codeIn(await nextMailTo(donor.row.email, 1));
    // Someone elsewhere who knows the address asks for a code.
    expect((await requestCode(donor.row.email, STRANGER)).statusCode).toBe(200);
    const second = codeIn(await nextMailTo(donor.row.email, 2));
    const res = await signInWithCode(donor.row.email, first, OWNER);
    expect(res.statusCode, res.body).toBe(200);
    if (first !== second) {
      expect((await signInWithCode(donor.row.email, second)).statusCode).toBe(401);
    }
    const codes = await db().select().from(oneTimeCodes);
    expect(codes).toHaveLength(2);
    expect(codes.every((code) => code.consumedAt !== null)).toBe(true);
  });

  it("a stranger's wrong tries from elsewhere neither void the owner's code nor lock the owner out", async () => {
    const donor = await seedUser(db());
    await requestCode(donor.row.email, OWNER);
    const code = codeIn(await nextMailTo(donor.row.email));
    for (let i = 0; i < 12; i += 1) {
      const res = await signInWithCode(donor.row.email, wrongCode(code), STRANGER);
      expect([401, 429]).toContain(res.statusCode);
    }
    // The stranger is slowed down (exponential backoff on their address and this account)...
    const slowed = await signInWithCode(donor.row.email, code, STRANGER);
    expect(slowed.statusCode).toBe(429);
    // ...and spent only the code's budget for other addresses.
    const [stored] = await db().select().from(oneTimeCodes);
    expect(stored).toMatchObject({ attempts: 0, foreignAttempts: OTP_MAX_ATTEMPTS });
    const owner = await signInWithCode(donor.row.email, code, OWNER);
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().data.user.id).toBe(donor.row.id);
  });

  it(`voids a code after ${OTP_MAX_ATTEMPTS} wrong tries from its own address, even for the right code`, async () => {
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
    // Past the backoff of this address (it would answer 429 for the next 30 s):
    await subject.app.services.limiters.otpFailures.reset(accountKey(OWNER, donor.row.email));
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

  it(`sends ${ACCOUNT_LIMITS.otpRequests.freeAttempts} codes per client address and e-mail address, then backs off; other addresses are unaffected`, async () => {
    const donor = await seedUser(db());
    for (const email of [donor.row.email, 'ghost@example.org']) {
      for (let i = 0; i < ACCOUNT_LIMITS.otpRequests.freeAttempts; i += 1) {
        expect((await requestCode(email, STRANGER)).statusCode).toBe(200);
      }
      const over = await requestCode(email, STRANGER);
      expect(over.statusCode).toBe(429);
      expect(over.json().error.code).toBe('RATE_LIMITED');
      expect(Number(over.headers['retry-after'])).toBe(ACCOUNT_LIMITS.otpRequests.baseMs / 1000);
      // The owner, elsewhere, still gets a code.
      expect((await requestCode(email, OWNER)).statusCode).toBe(200);
    }
    expect(
      smtp.messages.filter((mail) => mail.to.includes(donor.row.email)).length,
    ).toBeLessThanOrEqual(ACCOUNT_LIMITS.otpRequests.freeAttempts + 1);
  });

  it(`backs off after ${ACCOUNT_LIMITS.otpFailures.freeAttempts} wrong codes from one address, doubling the wait`, async () => {
    let clock = Date.parse('2026-11-20T10:00:00Z');
    const local = await createTestApp({
      database: testDb.database,
      services: { now: () => clock, backgroundJobs: false },
    });
    try {
      const donor = await seedUser(db());
      const tryCode = () =>
        local.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login-otp',
          payload: { email: donor.row.email, code: '000000' },
          remoteAddress: STRANGER,
        });
      for (let i = 0; i < ACCOUNT_LIMITS.otpFailures.freeAttempts; i += 1) {
        expect((await tryCode()).statusCode).toBe(401);
      }
      const locked = await tryCode();
      expect(locked.statusCode).toBe(429);
      expect(locked.headers['retry-after']).toBe('30');
      clock += 30_000;
      expect((await tryCode()).statusCode).toBe(401);
      const longer = await tryCode();
      expect(longer.headers['retry-after']).toBe('60');
      // Another address is not slowed down at all.
      const owner = await local.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login-otp',
        payload: { email: donor.row.email, code: '000000' },
        remoteAddress: OWNER,
      });
      expect(owner.statusCode).toBe(401);
    } finally {
      await local.close();
    }
  });

  it(`mails at most ${DAILY_LIMITS.loginCodes} codes per e-mail address per day, even to parallel requests from many addresses`, async () => {
    const donor = await seedUser(db());
    const replies = await Promise.all(
      Array.from({ length: DAILY_LIMITS.loginCodes + 5 }, (_, i) =>
        requestCode(donor.row.email, `198.51.100.${i + 1}`),
      ),
    );
    const statuses = replies.map((res) => res.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(DAILY_LIMITS.loginCodes);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    expect(await db().select().from(oneTimeCodes)).toHaveLength(DAILY_LIMITS.loginCodes);
    // Registered or not, the same answer: the cap reveals nothing.
    for (let i = 0; i < DAILY_LIMITS.loginCodes; i += 1) {
      expect((await requestCode('ghost@example.org', `192.0.2.${i + 1}`)).statusCode).toBe(200);
    }
    expect((await requestCode('ghost@example.org', '192.0.2.200')).statusCode).toBe(429);
  });

  it(`lets a stranger spend only ${DAILY_LIMITS.loginCodesPerAddress} of an account's daily codes; the owner elsewhere still gets one`, async () => {
    // 05:30 IST: the hours below stay on one Indian day.
    let clock = Date.parse('2026-11-20T00:00:00Z');
    const local = await createTestApp({
      database: testDb.database,
      env: { SMTP_URL: smtp.url, PUBLIC_URL },
      services: { now: () => clock, backgroundJobs: false },
    });
    try {
      const donor = await seedUser(db());
      const ask = (from: string) =>
        local.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login-otp',
          payload: { email: donor.row.email },
          remoteAddress: from,
        });
      for (let i = 0; i < DAILY_LIMITS.loginCodesPerAddress; i += 1) {
        expect((await ask(STRANGER)).statusCode).toBe(200);
        clock += 61 * 60_000; // past the backoff of the stranger's address
      }
      const over = await ask(STRANGER);
      expect(over.statusCode).toBe(429);
      expect(over.json().error.code).toBe('RATE_LIMITED');
      const owner = await ask(OWNER);
      expect(owner.statusCode, owner.body).toBe(200);
      expect(await db().select().from(oneTimeCodes)).toHaveLength(
        DAILY_LIMITS.loginCodesPerAddress + 1,
      );
      expect(DAILY_LIMITS.loginCodes).toBeGreaterThan(DAILY_LIMITS.loginCodesPerAddress);
    } finally {
      await local.close();
    }
  });

  it('starts the daily count again at midnight in India (18:30 UTC)', async () => {
    // 23:50 IST on 20 November is 18:20 UTC.
    let clock = Date.parse('2026-11-20T18:20:00Z');
    const local = await createTestApp({
      database: testDb.database,
      services: { now: () => clock, backgroundJobs: false },
    });
    try {
      const ask = (i: number) =>
        local.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login-otp',
          payload: { email: 'night@example.org' },
          remoteAddress: `192.0.2.${i}`,
        });
      for (let i = 1; i <= DAILY_LIMITS.loginCodes; i += 1) {
        expect((await ask(i)).statusCode).toBe(200);
      }
      const over = await ask(100);
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe(String(10 * 60));
      // 00:05 IST on 21 November (18:35 UTC on the 20th): a new day in India.
      clock = Date.parse('2026-11-20T18:35:00Z');
      expect((await ask(101)).statusCode).toBe(200);
    } finally {
      await local.close();
    }
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
    // Issue #32 item 13: the reset ends signed in, as a sign-in answers.
    const data = res.json().data;
    expect(data).toMatchObject({ reset: true, role: 'donor', user: { id: donor.row.id } });
    expect(data.tokens).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
    });
    const signedIn = await subject.app.inject({
      url: '/api/v1/auth/me',
      headers: bearer(data.tokens.accessToken),
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data.user.id).toBe(donor.row.id);

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
    // The two earlier sessions revoked; the reset's own is live.
    expect(sessions.map((row) => row.revokedReason).sort()).toEqual([
      null,
      'password_reset',
      'password_reset',
    ]);

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

  it.each(['admin', 'hospital', 'donor'] as const)(
    'ends the reset of a %s locked out by a distributed guesser signed in, and clears the lock',
    async (role) => {
      const owner = await seedUser(db(), { role });
      const perAddress = ACCOUNT_LIMITS.passwordFailures.max - 1;
      for (let i = 0; i < ACCOUNT_LIMITS.passwordFailuresPerAccount.max; i += 1) {
        const address = `198.18.${Math.floor(i / perAddress)}.${role.length}`;
        const res = await post(
          '/api/v1/auth/login',
          { email: owner.row.email, password: `guess ${i}` },
          address,
        );
        expect(res.statusCode).toBe(401);
      }
      const locked = await post('/api/v1/auth/login', {
        email: owner.row.email,
        password: owner.password,
      });
      expect(locked.statusCode).toBe(429);

      await requestReset(owner.row.email);
      const token = tokenIn(await nextMailTo(owner.row.email));
      const res = await setPassword(token, 'a brand new password');
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ reset: true, role, user: { id: owner.row.id, role } });
      const me = await subject.app.inject({
        url: '/api/v1/auth/me',
        headers: bearer(data.tokens.accessToken),
      });
      expect(me.statusCode, me.body).toBe(200);
      const live = (await db().select().from(refreshTokens)).filter((row) => !row.revokedAt);
      expect(live.map((row) => row.userId)).toEqual([owner.row.id]);
      // The ceiling the stranger filled no longer stands between the owner and the password.
      const again = await post('/api/v1/auth/login', {
        email: owner.row.email,
        password: 'a brand new password',
      });
      expect(again.statusCode, again.body).toBe(200);
    },
  );

  it('answers the same for an address with no account, and mails nothing', async () => {
    const res = await requestReset('nobody@example.org');
    expect(res.json()).toEqual({ success: true, data: { sent: true } });
    expect(await db().select().from(mailOutbox)).toHaveLength(0);
  });

  it('refuses unknown and expired links', async () => {
    const donor = await seedUser(db());
    const unknown = await setPassword('x'.repeat(43), 'a brand new password');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('INVALID_RESET_TOKEN');

    await requestReset(donor.row.email);
    const link = tokenIn(await nextMailTo(donor.row.email, 1));
    await db()
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1) });
    expect((await setPassword(link, 'a brand new password')).statusCode).toBe(400);
  });

  it("keeps the owner's link working when a stranger asks for more; using one voids them all", async () => {
    const donor = await seedUser(db());
    await requestReset(donor.row.email);
    const owners = tokenIn(await nextMailTo(donor.row.email, 1));
    for (let i = 0; i < 3; i += 1) {
      await post('/api/v1/auth/reset-password', { email: donor.row.email }, '198.51.100.66');
    }
    const strangers = tokenIn(await nextMailTo(donor.row.email, 2));
    const res = await setPassword(owners, 'a brand new password');
    expect(res.statusCode, res.body).toBe(200);
    expect((await setPassword(strangers, 'another new passphrase')).statusCode).toBe(400);
    const links = await db().select().from(passwordResetTokens);
    expect(links.every((link) => link.usedAt !== null)).toBe(true);
  });

  it('refuses a weak new password with WEAK_PASSWORD and leaves the link usable', async () => {
    const donor = await seedUser(db());
    await requestReset(donor.row.email);
    const token = tokenIn(await nextMailTo(donor.row.email));
    const weak = await setPassword(token, 'Password@123');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toMatchObject({
      code: 'WEAK_PASSWORD',
      details: [{ path: 'body.password' }],
    });
    expect((await setPassword(token, 'a brand new password')).statusCode).toBe(200);
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

  it(`sends ${ACCOUNT_LIMITS.resetRequests.freeAttempts} links per client address and e-mail address, then backs off`, async () => {
    const donor = await seedUser(db());
    for (let i = 0; i < ACCOUNT_LIMITS.resetRequests.freeAttempts; i += 1) {
      expect((await requestReset(donor.row.email)).statusCode).toBe(200);
    }
    const over = await requestReset(donor.row.email);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBe(ACCOUNT_LIMITS.resetRequests.baseMs / 1000);
    const elsewhere = await post(
      '/api/v1/auth/reset-password',
      { email: donor.row.email },
      '198.51.100.99',
    );
    expect(elsewhere.statusCode).toBe(200);
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
