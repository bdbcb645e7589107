import { BLOOD_REQUEST_LIMITS, OTP_MAX_ATTEMPTS } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bloodRequestHistory,
  bloodRequests,
  dailyCounters,
  notifications,
  oneTimeCodes,
  users,
} from '../../db/schema';
import { DAILY_LIMITS } from '../../lib/auth-limits';
import { indiaDay } from '../../lib/daily-counters';
import { phoneCodeBudgetKey } from '../../lib/sms/phone-codes';
import { requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import {
  createRecordingPhoneCodeSender,
  type RecordingPhoneCodeSender,
} from '../../test/phone-code-recorder';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

let testDb: TestDatabase;
let subject: TestApp;
let sms: RecordingPhoneCodeSender;
let clock: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

async function startApp(options: { flags?: string; sender?: boolean } = {}) {
  return createTestApp({
    database: testDb.database,
    env: { FEATURE_FLAGS: options.flags ?? 'bloodRequests,phoneVerification' },
    services: {
      backgroundJobs: false,
      now: () => clock,
      ...(options.sender === false ? {} : { phoneCodeSender: sms }),
    },
  });
}

beforeEach(async () => {
  clock = Date.now();
  sms = createRecordingPhoneCodeSender();
  subject = await startApp();
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
let addressSequence = 0;
const nextAddress = () => `198.51.100.${(addressSequence += 1) % 250}`;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

function create(app: TestApp['app'], body: object, user?: SignedInUser) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: body,
    headers: { ...(user?.headers ?? {}) },
    remoteAddress: nextAddress(),
  });
}
const track = (code: string) =>
  subject.app.inject({ method: 'GET', url: `/api/v1/blood-requests/track/${code}` });
const confirm = (code: string, smsCode: string, remoteAddress = nextAddress()) =>
  subject.app.inject({
    method: 'POST',
    url: `/api/v1/blood-requests/track/${code}/confirm`,
    payload: { code: smsCode },
    remoteAddress,
  });
const resend = (code: string) =>
  subject.app.inject({
    method: 'POST',
    url: `/api/v1/blood-requests/track/${code}/confirm/resend`,
    remoteAddress: nextAddress(),
  });

async function adminList(admin: SignedInUser) {
  const res = await subject.app.inject({
    method: 'GET',
    url: '/api/v1/blood-requests?pageSize=100',
    headers: admin.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.items as { trackingCode: string }[]).map((item) => item.trackingCode);
}

describe("a guest's request confirmed by a code sent to its contact phone", () => {
  it('stays unconfirmed, unseen and untold until the code comes back; then goes to review', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const res = await create(
      subject.app,
      requestBody({ contactPhone: '98111 22233', language: 'hi' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const request = res.json().data.request;
    expect(request.status).toBe('unconfirmed');
    expect(Date.parse(request.expiresAt) - clock).toBeLessThanOrEqual(
      BLOOD_REQUEST_LIMITS.confirmationWindowMinutes * 60_000,
    );
    const message = await sms.last('+919811122233');
    expect(message).toMatchObject({ purpose: 'request_confirmation', language: 'hi' });
    expect(message!.text).toMatch(/[\u0900-\u097F]/);
    // Hashed in the database, tied to the request, not to any account.
    const [code] = await db().select().from(oneTimeCodes);
    expect(code).toMatchObject({
      userId: null,
      bloodRequestId: request.id,
      phone: '+919811122233',
    });
    expect(code!.codeHash).not.toContain(message!.code);

    // Verifiers neither see it listed nor hear of it.
    expect(await adminList(admin)).not.toContain(request.trackingCode);
    expect(await db().select().from(notifications)).toHaveLength(0);
    const verify = await subject.app.inject({
      method: 'PUT',
      url: `/api/v1/blood-requests/${request.id}/status`,
      payload: { status: 'verified' },
      headers: admin.headers,
    });
    expect(verify.statusCode).toBe(409);

    // The tracking page asks for the code, with the number masked.
    const tracking = (await track(request.trackingCode)).json().data;
    expect(tracking.status).toBe('unconfirmed');
    expect(tracking.confirmation).toEqual({
      phoneHint: expect.stringMatching(/233$/),
      codeExpiresAt: expect.any(String),
    });
    expect(JSON.stringify(tracking)).not.toContain('9811122233');

    const wrong = await confirm(request.trackingCode, wrongCode(message!.code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('INVALID_PHONE_CODE');
    const ok = await confirm(request.trackingCode, message!.code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ status: 'pending', confirmation: null });
    const [row] = await db().select().from(bloodRequests).where(eq(bloodRequests.id, request.id));
    expect(row!.status).toBe('pending');
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(
      BLOOD_REQUEST_LIMITS.defaultLifetimeHours * 3_600_000,
    );
    const history = await db()
      .select()
      .from(bloodRequestHistory)
      .where(eq(bloodRequestHistory.requestId, request.id));
    expect(history.map((item) => item.status)).toEqual(['unconfirmed', 'pending']);
    expect(await adminList(admin)).toContain(request.trackingCode);
    const told = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, admin.row.id));
    expect(told.length).toBeGreaterThan(0);
    // Used once only.
    const again = await confirm(request.trackingCode, message!.code);
    expect(again.statusCode).toBe(409);
  });

  it('needs a mobile to send the code to: a landline is 400 on body.contactPhone', async () => {
    const res = await create(subject.app, requestBody({ contactPhone: '040-2345 6789' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { path: 'body.contactPhone', message: expect.stringContaining('mobile') },
    ]);
    expect(await db().select().from(bloodRequests)).toHaveLength(0);
  });

  it('is skipped with the flag off, without an SMS provider, and for a requester with a verified phone', async () => {
    await subject.close();
    subject = await startApp({ flags: 'bloodRequests' });
    const off = await create(subject.app, requestBody());
    expect(off.json().data.request.status).toBe('pending');
    await subject.close();
    subject = await startApp({ sender: false });
    const bare = await create(subject.app, requestBody({ contactPhone: '040-2345 6789' }));
    expect(bare.json().data.request.status).toBe('pending');
    await subject.close();
    subject = await startApp();
    const donor = await signIn(subject.app, db(), { phone: '+919811100041' });
    const unverified = await create(subject.app, requestBody(), donor);
    expect(unverified.json().data.request.status).toBe('unconfirmed');
    await db().update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, donor.row.id));
    const verified = await create(
      subject.app,
      requestBody({ hospitalName: 'Osmania General Hospital' }),
      donor,
    );
    expect(verified.json().data.request.status).toBe('pending');
    expect(sms.sent).toHaveLength(1);
    // Its owner sees the unconfirmed one in their own list.
    const mine = await subject.app.inject({
      method: 'GET',
      url: '/api/v1/blood-requests',
      headers: donor.headers,
    });
    expect(
      mine
        .json()
        .data.items.map((item: { status: string }) => item.status)
        .sort(),
    ).toEqual(['pending', 'unconfirmed']);
  });

  it(`resends at most ${BLOOD_REQUEST_LIMITS.confirmationCodesMax} codes per request; a new code voids the old`, async () => {
    const res = await create(subject.app, requestBody({ contactPhone: '9811122244' }));
    const { trackingCode } = res.json().data.request;
    const first = (await sms.last('+919811122244'))!.code;
    const statuses = [];
    for (let i = 0; i < BLOOD_REQUEST_LIMITS.confirmationCodesMax; i += 1) {
      statuses.push((await resend(trackingCode)).statusCode);
    }
    expect(statuses).toEqual([
      ...Array(BLOOD_REQUEST_LIMITS.confirmationCodesMax - 1).fill(200),
      429,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sms.sent).toHaveLength(BLOOD_REQUEST_LIMITS.confirmationCodesMax);
    const newest = sms.sent.at(-1)!.code;
    if (newest !== first) {
      expect((await confirm(trackingCode, first)).statusCode).toBe(400);
    }
    expect((await confirm(trackingCode, newest)).json().data.status).toBe('pending');
    expect((await resend(trackingCode)).statusCode).toBe(409);
  });

  it(`counts parallel wrong codes exactly (${OTP_MAX_ATTEMPTS}), then even the right code fails`, async () => {
    const res = await create(subject.app, requestBody({ contactPhone: '9811122255' }));
    const { trackingCode } = res.json().data.request;
    const code = (await sms.last('+919811122255'))!.code;
    const guesses = await Promise.all(
      Array.from({ length: 15 }, () => confirm(trackingCode, wrongCode(code))),
    );
    expect(guesses.map((guess) => guess.statusCode)).toEqual(Array(15).fill(400));
    const [row] = await db().select().from(oneTimeCodes);
    expect(row!.attempts).toBe(OTP_MAX_ATTEMPTS);
    expect((await confirm(trackingCode, code)).statusCode).toBe(400);
    expect((await track(trackingCode)).json().data.status).toBe('unconfirmed');
  });

  it("is never refused when the number's codes for today are spent: it goes to review as before", async () => {
    await db()
      .insert(dailyCounters)
      .values({
        key: phoneCodeBudgetKey(subject.config.jwtSecret, 'request_confirmation', '+919811122277'),
        day: indiaDay(clock),
        count: DAILY_LIMITS.phoneCodesPerPurpose.request_confirmation,
      });
    const res = await create(subject.app, requestBody({ contactPhone: '9811122277' }));
    expect(res.statusCode, res.body).toBe(201);
    const request = res.json().data.request;
    expect(request.status).toBe('pending');
    // Both at the same instant (the test clock): the order of equal times is not defined.
    expect(request.history.map((item: { status: string }) => item.status).sort()).toEqual([
      'pending',
      'unconfirmed',
    ]);
    expect(
      request.history.find((item: { status: string }) => item.status === 'pending').notes,
    ).toMatch(/No confirmation code could be sent/);
    expect(await db().select().from(oneTimeCodes)).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sms.sent).toHaveLength(0);
    // The verifiers see that the contact phone was not confirmed (issue #32 item 9).
    expect(request.contactPhoneConfirmed).toBe(false);
    const [stored] = await db()
      .select()
      .from(bloodRequests)
      .where(eq(bloodRequests.id, request.id));
    expect(stored!.contactPhoneConfirmed).toBe(false);
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const view = await subject.app.inject({
      method: 'GET',
      url: `/api/v1/blood-requests/${request.id}`,
      headers: admin.headers,
    });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data.request.contactPhoneConfirmed).toBe(false);
  });

  it("cannot be skipped by spending the number's sign-in and phone-change codes first (#32 item 9)", async () => {
    // The attacker asks sign-in codes for the guest's number (no account) and for a number
    // that has one, and moves their own account's phone to the guest's number, many times.
    const phone = '+919811122288';
    const owner = await signIn(subject.app, db(), { role: 'donor', status: 'approved' });
    await db()
      .update(users)
      .set({ phone: '+919811122289', phoneVerifiedAt: new Date(clock) })
      .where(eq(users.id, owner.row.id));
    const attacker = await signIn(subject.app, db(), { role: 'donor' });
    const spend = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        subject.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login-otp',
          payload: { phone: '9811122288' },
          remoteAddress: nextAddress(),
        }),
      ),
      ...Array.from({ length: 8 }, () =>
        subject.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login-otp',
          payload: { phone: '9811122289' },
          remoteAddress: nextAddress(),
        }),
      ),
      ...Array.from({ length: 7 }, () =>
        subject.app.inject({
          method: 'PATCH',
          url: `/api/v1/users/${attacker.row.id}`,
          payload: { phone: '9811122288' },
          headers: attacker.headers,
          remoteAddress: nextAddress(),
        }),
      ),
    ]);
    // The unknown number's answers say nothing: 200 `{sent: true}` until its sign-in count is spent.
    const unknown = spend.slice(0, 8).map((res) => res.statusCode);
    expect(unknown.filter((status) => status === 200)).toHaveLength(DAILY_LIMITS.loginCodesByPhone);
    // The number with an account got its sign-in codes; the attacker's phone changes went out.
    expect(spend.slice(8, 16).filter((res) => res.statusCode === 200)).toHaveLength(
      DAILY_LIMITS.loginCodesByPhone,
    );
    expect(spend.slice(16).some((res) => res.statusCode === 200)).toBe(true);
    const res = await create(subject.app, requestBody({ contactPhone: '9811122288' }));
    expect(res.statusCode, res.body).toBe(201);
    const request = res.json().data.request;
    expect(request.status).toBe('unconfirmed');
    expect(request.contactPhoneConfirmed).toBe(false);
    const message = await sms.last(phone, 'request_confirmation');
    expect(message).toBeDefined();
    const [counter] = await db()
      .select()
      .from(dailyCounters)
      .where(
        eq(
          dailyCounters.key,
          phoneCodeBudgetKey(subject.config.jwtSecret, 'request_confirmation', phone),
        ),
      );
    expect(counter!.count).toBe(1);
    // Confirmed with it, the request goes to review marked confirmed.
    const ok = await confirm(request.trackingCode, message!.code);
    expect(ok.statusCode, ok.body).toBe(200);
    const [stored] = await db()
      .select()
      .from(bloodRequests)
      .where(eq(bloodRequests.id, request.id));
    expect(stored).toMatchObject({ status: 'pending', contactPhoneConfirmed: true });
  });

  it('waits for its code with the flags cache cold: the flag is read inside the transaction', async () => {
    // On PGlite (one connection) a flags read outside the open transaction would wait for it
    // forever: the request would never be made.
    subject.app.services.flags.invalidate();
    const res = await create(subject.app, requestBody({ contactPhone: '98111 22299' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.request.status).toBe('unconfirmed');
    expect(await sms.last('+919811122299')).toMatchObject({ purpose: 'request_confirmation' });
  });

  it('expires unconfirmed when the window closes, and the code no longer works', async () => {
    const res = await create(subject.app, requestBody({ contactPhone: '9811122266' }));
    const { trackingCode } = res.json().data.request;
    const code = (await sms.last('+919811122266'))!.code;
    clock += (BLOOD_REQUEST_LIMITS.confirmationWindowMinutes + 1) * 60_000;
    expect(await subject.app.services.bloodRequests.expireDue()).toBe(1);
    const tracking = (await track(trackingCode)).json().data;
    expect(tracking.status).toBe('expired');
    expect((await confirm(trackingCode, code)).statusCode).toBe(409);
  });
});
