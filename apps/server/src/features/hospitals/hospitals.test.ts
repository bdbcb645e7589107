import { randomUUID } from 'node:crypto';
import { hospitalAccountSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  hospitals,
  mailOutbox,
  passwordResetTokens,
  refreshTokens,
  users,
} from '../../db/schema';
import { bearer, expectUserShape, seedUser } from '../../test/auth-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
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
let admin: SignedInUser;

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startTestSmtpServer();
});

beforeEach(async () => {
  subject = await createTestApp({
    database: testDb.database,
    env: { SMTP_URL: smtp.url, PUBLIC_URL },
    services: { backgroundJobs: false },
  });
  admin = await signIn(subject.app, db(), { role: 'admin' });
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

const CITY_HOSPITAL = {
  name: 'City General Hospital',
  email: 'Blood.Bank@CityGeneral.example',
  phone: '98765 43210',
  city: 'Pune',
  state: 'Maharashtra',
  facilityId: 'bb-1234',
};

function post(url: string, payload?: object, headers: Record<string, string> = admin.headers) {
  return subject.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
}

function createHospital(payload: object = CITY_HOSPITAL, headers: Record<string, string> = {}) {
  return post('/api/v1/admin/hospitals', payload, { ...admin.headers, ...headers });
}

function login(email: string, password: string, role?: string) {
  return post('/api/v1/auth/login', { email, password, ...(role ? { role } : {}) }, {});
}

function tokenIn(mail: ReceivedMail): string {
  const match = /https:\/\/blood\.example\.in\/reset-password\?token=([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  return match[1]!;
}

/** Creates a hospital, reads the invitation from the SMTP server and sets the password. */
async function acceptedHospital(password = 'hospital password 1') {
  const created = await createHospital();
  expect(created.statusCode, created.body).toBe(201);
  const { hospital } = created.json().data;
  await subject.app.services.mail.deliverDue();
  const mail = await smtp.waitFor((message) =>
    message.to.includes('blood.bank@citygeneral.example'),
  );
  const set = await post('/api/v1/auth/reset-password', { token: tokenIn(mail), password }, {});
  expect(set.statusCode, set.body).toBe(200);
  return { hospital, mail, password };
}

describe('POST /api/v1/admin/hospitals', () => {
  it('creates the account, e-mails a 72-hour invitation, and the hospital signs in with its own password', async () => {
    const res = await createHospital();
    expect(res.statusCode, res.body).toBe(201);
    const hospital = hospitalAccountSchema.strict().parse(res.json().data.hospital);
    expect(hospital).toMatchObject({
      name: 'City General Hospital',
      email: 'blood.bank@citygeneral.example',
      phone: '+919876543210',
      city: 'Pune',
      state: 'Maharashtra',
      facilityId: 'bb-1234',
      disabled: false,
    });
    const [account] = await db().select().from(users).where(eq(users.id, hospital.userId));
    expect(account).toMatchObject({
      role: 'hospital',
      status: 'approved',
      hospitalId: hospital.id,
      fullName: 'City General Hospital',
    });
    // Nobody knows the first password: nothing signs in before the invitation is used.
    expect((await login(hospital.email, account!.passwordHash)).statusCode).toBe(401);

    const [link] = await db().select().from(passwordResetTokens);
    expect(link!.purpose).toBe('invitation');
    expect(link!.expiresAt.getTime() - link!.createdAt.getTime()).toBe(72 * 3_600_000);

    // An account e-mail: sent although emailNotifications is off.
    await subject.app.services.mail.deliverDue();
    const mail = await smtp.waitFor((message) => message.to.includes(hospital.email));
    expect(mail.subject).toBe('Your hospital account at Blood Donation Management System');
    expect(mail.text).toContain('City General Hospital');
    expect(mail.text).toContain('72 hours');
    const token = tokenIn(mail);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/reset-password?token=${token}"`);

    const set = await post(
      '/api/v1/auth/reset-password',
      { token, password: 'our own password' },
      {},
    );
    expect(set.statusCode, set.body).toBe(200);
    // Issue #32 item 13: setting the first password signs the hospital in, as a sign-in does.
    expect(set.json().data).toMatchObject({
      reset: true,
      role: 'hospital',
      user: { id: hospital.userId, role: 'hospital' },
      tokens: { accessToken: expect.any(String) },
    });
    const signedIn = await login(hospital.email, 'our own password', 'hospital');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const user = expectUserShape(signedIn.json().data.user);
    expect(user).toMatchObject({
      role: 'hospital',
      status: 'approved',
      hospital: { id: hospital.id, name: 'City General Hospital' },
    });
    const me = await subject.app.inject({
      url: '/api/v1/auth/me',
      headers: bearer(signedIn.json().data.tokens.accessToken),
    });
    expect(me.json().data.user.hospital).toEqual({
      id: hospital.id,
      name: 'City General Hospital',
      verificationStatus: 'verified',
      rejectionReason: null,
      disabled: false,
    });

    // The link works once.
    expect(
      (await post('/api/v1/auth/reset-password', { token, password: 'another one 123' }, {}))
        .statusCode,
    ).toBe(400);
    const actions = (await db().select().from(activityLog)).map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['hospital.created', 'user.invitation_accepted']),
    );
    const [created] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'hospital.created'));
    expect(created).toMatchObject({
      actorId: admin.row.id,
      targetType: 'hospital',
      targetId: hospital.id,
    });
  });

  it('writes the invitation in the chosen language', async () => {
    const res = await createHospital({ ...CITY_HOSPITAL, language: 'hi' });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await db().select().from(mailOutbox);
    expect(row!.subject).toBe('Blood Donation Management System पर आपके अस्पताल का खाता');
    expect(row!.kind).toBe('hospital_invitation');
  });

  it("accepts the blood bank's landline with its STD code and stores it in E.164", async () => {
    const res = await createHospital({ ...CITY_HOSPITAL, phone: '020-2612 8000' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.hospital.phone).toBe('+912026128000');
    const [row] = await db().select().from(hospitals);
    expect(row!.phone).toBe('+912026128000');
    // A landline without its STD code cannot be dialled from elsewhere: refused.
    const local = await createHospital({
      ...CITY_HOSPITAL,
      email: 'other@example.org',
      phone: '2612 8000',
    });
    expect(local.statusCode).toBe(400);
    expect(local.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('accepts a Tamil-speaking hospital and writes its e-mails in Tamil', async () => {
    const res = await createHospital({ ...CITY_HOSPITAL, language: 'ta' });
    expect(res.statusCode, res.body).toBe(201);
    const [user] = await db().select().from(users).where(eq(users.role, 'hospital'));
    expect(user!.language).toBe('ta');
    const [row] = await db().select().from(mailOutbox);
    expect(row!.subject).toMatch(/மருத்துவமனைக் கணக்கு/u);
    expect(row!.subject).not.toMatch(/hospital/i);
  });

  it('refuses a taken e-mail or phone with 409, and invalid fields with 400', async () => {
    const donor = await seedUser(db(), { email: 'taken@example.org', phone: '+919811111111' });
    const email = await createHospital({ ...CITY_HOSPITAL, email: 'TAKEN@example.org' });
    expect(email.statusCode).toBe(409);
    expect(email.json().error.code).toBe('EMAIL_TAKEN');
    const phone = await createHospital({ ...CITY_HOSPITAL, phone: '09811111111' });
    expect(phone.statusCode).toBe(409);
    expect(phone.json().error.code).toBe('PHONE_TAKEN');
    for (const payload of [
      { ...CITY_HOSPITAL, email: 'nope' },
      { ...CITY_HOSPITAL, phone: '12345' },
      { ...CITY_HOSPITAL, name: 'X' },
      { name: 'Only a name' },
    ]) {
      expect((await createHospital(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await db().select().from(hospitals)).toHaveLength(0);
    expect(donor.row.role).toBe('donor');
  });

  it('is idempotent by X-Request-ID: a retry returns the first reply and mails nothing again', async () => {
    const first = await createHospital(CITY_HOSPITAL, { 'x-request-id': 'create-hospital-1' });
    const again = await createHospital(CITY_HOSPITAL, { 'x-request-id': 'create-hospital-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(first.json().data);
    expect(await db().select().from(hospitals)).toHaveLength(1);
    expect(await db().select().from(mailOutbox)).toHaveLength(1);
  });
});

describe('GET /api/v1/admin/hospitals', () => {
  it('lists hospital accounts, newest first, paginated', async () => {
    await createHospital();
    await createHospital({
      ...CITY_HOSPITAL,
      name: 'Ruby Clinic',
      email: 'ruby@example.org',
      phone: '9876500001',
    });
    const res = await subject.app.inject({
      url: '/api/v1/admin/hospitals',
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data;
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(page.items.map((item: { name: string }) => item.name)).toEqual([
      'Ruby Clinic',
      'City General Hospital',
    ]);
    const second = await subject.app.inject({
      url: '/api/v1/admin/hospitals?page=2&pageSize=1',
      headers: admin.headers,
    });
    expect(second.json().data.items.map((item: { name: string }) => item.name)).toEqual([
      'City General Hospital',
    ]);
    expect(
      (
        await subject.app.inject({
          url: '/api/v1/admin/hospitals?pageSize=500',
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('POST /api/v1/admin/hospitals/{id}/disable and /enable', () => {
  it('signs the hospital out, refuses its sign-in with 403 ACCOUNT_DISABLED, and lets it back in when enabled', async () => {
    const { hospital, password } = await acceptedHospital();
    const session = (await login(hospital.email, password, 'hospital')).json().data;

    const res = await post(`/api/v1/admin/hospitals/${hospital.id}/disable`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.hospital).toMatchObject({ id: hospital.id, disabled: true });

    const refreshed = await post(
      '/api/v1/auth/refresh',
      { refreshToken: session.tokens.refreshToken },
      {},
    );
    expect(refreshed.statusCode).toBe(401);
    const me = await subject.app.inject({
      url: '/api/v1/auth/me',
      headers: bearer(session.tokens.accessToken),
    });
    expect(me.statusCode).toBe(401);
    const tokens = await db()
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, hospital.userId));
    expect(tokens.every((row) => row.revokedAt !== null)).toBe(true);

    const refused = await login(hospital.email, password, 'hospital');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('ACCOUNT_DISABLED');
    // A wrong password learns nothing about the state.
    const wrong = await login(hospital.email, 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('INVALID_CREDENTIALS');
    // No codes or links are mailed to a disabled account.
    const before = (await db().select().from(mailOutbox)).length;
    expect((await post('/api/v1/auth/login-otp', { email: hospital.email }, {})).statusCode).toBe(
      200,
    );
    expect(
      (await post('/api/v1/auth/reset-password', { email: hospital.email }, {})).statusCode,
    ).toBe(200);
    expect(await db().select().from(mailOutbox)).toHaveLength(before);

    // Idempotent: disabling again changes and logs nothing more.
    expect((await post(`/api/v1/admin/hospitals/${hospital.id}/disable`)).statusCode).toBe(200);
    const enabled = await post(`/api/v1/admin/hospitals/${hospital.id}/enable`);
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().data.hospital.disabled).toBe(false);
    expect((await login(hospital.email, password, 'hospital')).statusCode).toBe(200);

    const actions = (await db().select().from(activityLog))
      .map((entry) => entry.action)
      .filter((action) => action.startsWith('hospital.'));
    expect(actions.sort()).toEqual(['hospital.created', 'hospital.disabled', 'hospital.enabled']);
  });

  it('answers 404 for an unknown hospital and 400 for a bad id', async () => {
    expect((await post(`/api/v1/admin/hospitals/${randomUUID()}/disable`)).statusCode).toBe(404);
    expect((await post(`/api/v1/admin/hospitals/${randomUUID()}/enable`)).statusCode).toBe(404);
    expect((await post('/api/v1/admin/hospitals/xyz/disable')).statusCode).toBe(400);
  });
});
