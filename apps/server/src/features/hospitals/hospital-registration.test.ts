import { hospitalAccountSchema, registerHospitalResultSchema } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  activityLog,
  bloodRequests,
  bloodStock,
  facilities,
  hospitals,
  mailOutbox,
  notifications,
  users,
} from '../../db/schema';
import { bearer } from '../../test/auth-helpers';
import { makeDonor, makeHospital, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import {
  createRecordingPhoneCodeSender,
  type RecordingPhoneCodeSender,
} from '../../test/phone-code-recorder';
import { seedFacility } from '../../test/stock-helpers';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import {
  REGISTRATIONS_BUSY_MESSAGE,
  REGISTRATIONS_PER_HOUR,
} from './hospital-registration.service';

/**
 * Issue #17, "Blood centres and hospitals join": a centre registers itself (flag
 * `hospitalRegistration`), confirms its e-mail and phone, and can do nothing until an
 * administrator verifies it against the directory entry it chose and its licence.
 */
const PUBLIC_URL = 'https://blood.example.in';

let testDb: TestDatabase;
let smtp: TestSmtpServer;
let subject: TestApp;
let admin: SignedInUser;
let facilityId: string;
let address = 0;
let recorder: RecordingPhoneCodeSender | null = null;

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startTestSmtpServer();
});

async function start(options: { sms?: boolean; flag?: boolean } = {}) {
  recorder = options.sms ? createRecordingPhoneCodeSender() : null;
  subject = await createTestApp({
    database: testDb.database,
    env: {
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      FEATURE_FLAGS: options.flag === false ? '-hospitalRegistration' : 'hospitalRegistration',
    },
    services: {
      backgroundJobs: false,
      phoneCodeSender: recorder,
    },
  });
  admin = await signIn(subject.app, db(), { role: 'admin' });
  facilityId = await seedFacility(db(), {
    name: 'Osmania General Hospital Blood Bank',
    state: 'Telangana',
    latitude: 17.37,
    longitude: 78.47,
  });
  await db()
    .update(facilities)
    .set({ licenceNumber: 'AP/28C/123/1996', address: 'Afzal Gunj, Hyderabad' })
    .where(eq(facilities.id, facilityId));
}

beforeEach(async () => {
  await start();
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

function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string> = {},
  payload?: object,
) {
  address += 1;
  return subject.app.inject({
    method,
    url,
    headers,
    remoteAddress: `198.51.100.${address % 250}`,
    ...(payload ? { payload } : {}),
  });
}

const registration = (overrides: Record<string, unknown> = {}) => ({
  name: 'Osmania Blood Centre',
  licenceNumber: 'AP/28C/123/1996',
  facilityId,
  contactName: 'Dr. Kavitha Rao',
  email: 'Blood.Centre@Osmania.example',
  phone: '98480 12345',
  password: 'saffron lantern quietly 42',
  ...overrides,
});

async function register(overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/hospital-registrations', {}, registration(overrides));
  expect(res.statusCode, res.body).toBe(201);
  const data = registerHospitalResultSchema.parse(res.json().data);
  return { ...data, headers: bearer(data.tokens.accessToken) };
}

/** The code of the newest confirmation e-mail to `to`. */
async function mailedCode(to: string): Promise<string> {
  await subject.app.services.mail.deliverDue();
  const mail = await smtp.waitFor(
    (message) => message.to.includes(to) && /\b\d{6}\b/.test(message.text),
  );
  return /\b(\d{6})\b/.exec(mail.text)![1]!;
}

async function confirmEmail(headers: Record<string, string>) {
  const code = await mailedCode('blood.centre@osmania.example');
  const res = await call('POST', '/api/v1/hospital-registrations/me/email/confirm', headers, {
    code,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const verify = (id: string, headers = admin.headers) =>
  call('POST', `/api/v1/admin/hospitals/${id}/verify`, headers);
const reject = (id: string, reason: string, headers = admin.headers) =>
  call('POST', `/api/v1/admin/hospitals/${id}/reject`, headers, { reason });

describe('POST /api/v1/hospital-registrations', () => {
  it('answers 404 on every registration route while hospitalRegistration is off, and creates nothing', async () => {
    await subject.close();
    await testDb.truncate();
    await start({ flag: false });
    const res = await call('POST', '/api/v1/hospital-registrations', {}, registration());
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect(await db().select().from(hospitals)).toEqual([]);
    expect(await db().select().from(users).where(eq(users.role, 'hospital'))).toEqual([]);
    // The account routes too, for a hospital account made by an administrator.
    const hospital = await signIn(subject.app, db(), { role: 'hospital' });
    for (const url of ['/api/v1/hospital-registrations/me']) {
      expect((await call('GET', url, hospital.headers)).statusCode).toBe(404);
    }
    for (const url of [
      '/api/v1/hospital-registrations/me/email/code',
      '/api/v1/hospital-registrations/me/phone/code',
    ]) {
      expect((await call('POST', url, hospital.headers)).statusCode).toBe(404);
    }
    const config = await call('GET', '/api/v1/config');
    expect(config.json().data.flags.hospitalRegistration).toBe(false);
  });

  it('creates a pending hospital and its signed-in account, and mails a code that confirms the e-mail', async () => {
    const { user, registration: status, headers } = await register();
    expect(user).toMatchObject({
      role: 'hospital',
      email: 'blood.centre@osmania.example',
      phone: '+919848012345',
      fullName: 'Dr. Kavitha Rao',
      hospital: { name: 'Osmania Blood Centre', verificationStatus: 'pending' },
    });
    expect(status).toMatchObject({
      verificationStatus: 'pending',
      emailConfirmed: false,
      phoneConfirmed: false,
      smsAvailable: false,
    });
    const [hospital] = await db()
      .select()
      .from(hospitals)
      .where(eq(hospitals.id, status.hospitalId));
    expect(hospital).toMatchObject({
      verificationStatus: 'pending',
      registeredVia: 'self',
      licenceNumber: 'AP/28C/123/1996',
      contactName: 'Dr. Kavitha Rao',
      facilityId,
      state: 'Telangana',
      emailConfirmedAt: null,
    });

    // A wrong code is refused on its field and changes nothing.
    const wrong = await call('POST', '/api/v1/hospital-registrations/me/email/confirm', headers, {
      code: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'INVALID_EMAIL_CODE',
      details: [{ path: 'body.code' }],
    });

    const confirmed = await confirmEmail(headers);
    expect(confirmed.json().data.registration).toMatchObject({
      emailConfirmed: true,
      verificationStatus: 'pending',
    });
    const [after] = await db().select().from(hospitals).where(eq(hospitals.id, status.hospitalId));
    expect(after!.emailConfirmedAt).toBeInstanceOf(Date);

    // Sign-in works, and shows the wait.
    const login = await call(
      'POST',
      '/api/v1/auth/login',
      {},
      {
        email: 'blood.centre@osmania.example',
        password: 'saffron lantern quietly 42',
        role: 'hospital',
      },
    );
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().data.user.hospital.verificationStatus).toBe('pending');
    const me = await call('GET', '/api/v1/hospital-registrations/me', headers);
    expect(me.json().data.registration.emailConfirmed).toBe(true);
  });

  it('answers 409 SMS_UNAVAILABLE for the phone code without SMS, and the phone stays unconfirmed', async () => {
    const { headers, registration: status } = await register();
    const res = await call('POST', '/api/v1/hospital-registrations/me/phone/code', headers);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('SMS_UNAVAILABLE');
    const listed = await call('GET', '/api/v1/admin/hospitals?status=pending', admin.headers);
    const item = listed
      .json()
      .data.items.find((row: { id: string }) => row.id === status.hospitalId);
    expect(item).toMatchObject({ phoneConfirmed: false, emailConfirmed: false });
  });

  it('confirms the phone with the SMS code when a provider is configured', async () => {
    await subject.close();
    await testDb.truncate();
    await start({ sms: true });
    const { headers, registration: status } = await register();
    const sent = await call('POST', '/api/v1/hospital-registrations/me/phone/code', headers);
    expect(sent.statusCode, sent.body).toBe(200);
    const [before] = await db().select().from(hospitals).where(eq(hospitals.id, status.hospitalId));
    expect(before!.phoneConfirmedAt).toBeNull();
    const message = await recorder!.last('+919848012345');
    const confirmed = await call(
      'POST',
      '/api/v1/hospital-registrations/me/phone/confirm',
      headers,
      {
        code: message!.code,
      },
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.registration.phoneConfirmed).toBe(true);
    const [after] = await db().select().from(hospitals).where(eq(hospitals.id, status.hospitalId));
    expect(after!.phoneConfirmedAt).toBeInstanceOf(Date);
  });

  it('gives an unknown e-mail the envelope error on each bad field, and never a 500', async () => {
    const res = await call(
      'POST',
      '/api/v1/hospital-registrations',
      {},
      registration({
        facilityId: 'x',
        email: 'nope',
        phone: '12',
        licenceNumber: '<b>',
        contactName: '',
      }),
    );
    expect(res.statusCode).toBe(400);
    const paths = res.json().error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'body.facilityId',
        'body.email',
        'body.phone',
        'body.licenceNumber',
        'body.contactName',
      ]),
    );
    // A well-formed id that is not in the directory: 400 on the field too.
    const unknown = await call(
      'POST',
      '/api/v1/hospital-registrations',
      {},
      registration({ facilityId: 'bb-99999999' }),
    );
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().error.details).toEqual([
      expect.objectContaining({ path: 'body.facilityId' }),
    ]);
    expect(await db().select().from(hospitals)).toEqual([]);
  });

  it('answers a taken e-mail exactly as donor registration does (409 EMAIL_TAKEN), creating nothing', async () => {
    const donor = await signIn(subject.app, db(), { role: 'donor' });
    const res = await call(
      'POST',
      '/api/v1/hospital-registrations',
      {},
      registration({ email: donor.row.email }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'EMAIL_TAKEN',
      details: [{ path: 'body.email' }],
    });
    expect(await db().select().from(hospitals)).toEqual([]);
  });

  it('keeps a second claim on an entry a verified account holds pending, flagged for the administrator', async () => {
    const first = await register();
    await confirmEmail(first.headers);
    expect((await verify(first.registration.hospitalId)).statusCode).toBe(200);
    const second = await register({
      email: 'someone@else.example',
      phone: '9848099999',
      name: 'Osmania Blood Centre (2)',
    });
    expect(second.registration.verificationStatus).toBe('pending');
    const listed = await call('GET', '/api/v1/admin/hospitals?status=pending', admin.headers);
    expect(listed.json().data.items).toEqual([
      expect.objectContaining({
        id: second.registration.hospitalId,
        claimedBy: [{ id: first.registration.hospitalId, name: 'Osmania Blood Centre' }],
      }),
    ]);
  });
});

describe('what a self-registration mails (#32 item 15)', () => {
  const SPAM_NAME = 'URGENT: your account is blocked, pay Rs 500 at upi://pay?pa=scam@ybl';
  const SPAM_CONTACT = 'Call 98765 43210 now';

  it('keeps the typed names out of the subject and first line, and quotes them as data in the body', async () => {
    await register({ name: SPAM_NAME, contactName: SPAM_CONTACT });
    await subject.app.services.mail.deliverDue();
    const mail = await smtp.waitFor((message) =>
      message.to.includes('blood.centre@osmania.example'),
    );
    for (const typed of [SPAM_NAME, SPAM_CONTACT, 'URGENT', 'scam@ybl', '98765']) {
      expect(mail.subject).not.toContain(typed);
    }
    expect(mail.subject).toBe('Confirm your e-mail address at Blood Donation Management System');
    const lines = mail.text.split(/\r?\n/);
    expect(lines[0]).toBe('Hello,');
    expect(lines.slice(0, 3).join('\n')).not.toContain('URGENT');
    // Quoted, under the heading that says who typed it.
    expect(mail.text).toContain('What the person who registered typed (not checked by us');
    expect(mail.text).toContain(`  > Blood centre name: "${SPAM_NAME}"`);
    expect(mail.text).toContain(`  > Contact name: "${SPAM_CONTACT}"`);
    expect(mail.text.indexOf('What the person who registered typed')).toBeLessThan(
      mail.text.indexOf(SPAM_NAME),
    );
    expect(mail.html).toContain('<code>&quot;Call 98765 43210 now&quot;</code>');
    // The outbox row holds the same subject.
    const rows = await db().select({ subject: mailOutbox.subject }).from(mailOutbox);
    expect(rows.map((row) => row.subject).join(' ')).not.toContain('URGENT');
  });

  it('keeps the typed names out of the subject of the administrator’s decision mail', async () => {
    const { registration: status } = await register({ name: SPAM_NAME, contactName: SPAM_CONTACT });
    expect((await reject(status.hospitalId, 'No such licence.')).statusCode).toBe(200);
    await subject.app.services.mail.deliverDue();
    const mail = await smtp.waitFor((message) => /not verified/i.test(message.subject));
    expect(mail.subject).not.toContain('URGENT');
    expect(mail.text.split(/\r?\n/)[0]).toBe('Hello,');
    expect(mail.text).toContain(`  > Blood centre name: "${SPAM_NAME}"`);
    expect(mail.text).toContain('No such licence.');
  });

  it(`accepts ${REGISTRATIONS_PER_HOUR} registrations an hour from all addresses together, then answers 429 and mails nothing more`, async () => {
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i += 1) {
      await register({
        email: `centre${i}@blood.example`,
        phone: `98480${String(10_000 + i)}`,
      });
    }
    const over = await call(
      'POST',
      '/api/v1/hospital-registrations',
      {},
      registration({ email: 'one.more@blood.example', phone: '9848099999' }),
    );
    expect(over.statusCode, over.body).toBe(429);
    expect(over.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: REGISTRATIONS_BUSY_MESSAGE,
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const rows = await db().select({ id: hospitals.id }).from(hospitals);
    expect(rows).toHaveLength(REGISTRATIONS_PER_HOUR);
    const accounts = await db()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'one.more@blood.example'));
    expect(accounts).toHaveLength(0);
    const mails = await db()
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'one.more@blood.example'));
    expect(mails).toHaveLength(0);
  });
});

describe('a pending hospital account', () => {
  it('is refused stock updates, verifying a request and recording a donation until an administrator verifies it', async () => {
    const { headers, registration: status } = await register();
    const donor = await makeDonor(subject.app, db());
    const guest = await call(
      'POST',
      '/api/v1/blood-requests',
      {},
      requestBody({ facilityId, hospitalName: 'Osmania General Hospital' }),
    );
    expect(guest.statusCode, guest.body).toBe(201);
    const requestId = guest.json().data.request.id as string;

    const stock = () =>
      call('PUT', `/api/v1/facilities/${facilityId}/stock`, headers, {
        lines: [{ bloodType: 'O-', component: 'prbc', units: 3 }],
      });
    const verifyRequest = () =>
      call('PUT', `/api/v1/blood-requests/${requestId}/status`, headers, { status: 'verified' });
    const record = () =>
      call('POST', '/api/v1/donations', headers, {
        donorId: donor.row.id,
        donatedAt: new Date().toISOString().slice(0, 10),
      });
    const asStaff = () => call('POST', '/api/v1/blood-requests', headers, requestBody());

    for (const attempt of [stock, verifyRequest, record, asStaff]) {
      const res = await attempt();
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('HOSPITAL_NOT_VERIFIED');
    }
    expect(await db().select().from(bloodStock)).toEqual([]);

    // Its own account and registration stay readable.
    expect((await call('GET', '/api/v1/auth/me', headers)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/hospital-registrations/me', headers)).statusCode).toBe(200);

    // Not before the e-mail is confirmed.
    const early = await verify(status.hospitalId);
    expect(early.statusCode).toBe(409);
    await confirmEmail(headers);
    const verified = await verify(status.hospitalId);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data.hospital).toMatchObject({
      verificationStatus: 'verified',
      verifiedAt: expect.any(String),
    });

    expect((await stock()).statusCode).toBe(200);
    expect((await verifyRequest()).statusCode).toBe(200);
    expect((await record()).statusCode).toBe(201);
    expect(await db().select().from(bloodStock)).toHaveLength(1);

    // The contact is told.
    await subject.app.services.mail.deliverDue();
    const mail = await smtp.waitFor(
      (message) =>
        message.to.includes('blood.centre@osmania.example') && /verified/i.test(message.subject),
    );
    expect(mail.text).toContain(`${PUBLIC_URL}/hospital/login`);
    const [logged] = await db()
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.action, 'hospital.verified'),
          eq(activityLog.targetId, status.hospitalId),
        ),
      );
    expect(logged).toMatchObject({ actorId: admin.row.id });
  });
});

describe('GET /api/v1/admin/hospitals?status=pending', () => {
  it('lists the pending self-registrations with the chosen directory entry beside what was submitted', async () => {
    const { registration: status } = await register();
    await signIn(subject.app, db(), { role: 'hospital' });
    const res = await call('GET', '/api/v1/admin/hospitals?status=pending', admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    const { items, total } = res.json().data;
    expect(total).toBe(1);
    const item = hospitalAccountSchema.strict().parse(items[0]);
    expect(item).toMatchObject({
      id: status.hospitalId,
      name: 'Osmania Blood Centre',
      email: 'blood.centre@osmania.example',
      phone: '+919848012345',
      verificationStatus: 'pending',
      registeredVia: 'self',
      licenceNumber: 'AP/28C/123/1996',
      contactName: 'Dr. Kavitha Rao',
      emailConfirmed: false,
      phoneConfirmed: false,
      claimedBy: [],
      directoryEntry: {
        id: facilityId,
        name: 'Osmania General Hospital Blood Bank',
        address: 'Afzal Gunj, Hyderabad',
        state: 'Telangana',
        phone: '011-23456789',
        licenceNumber: 'AP/28C/123/1996',
      },
    });
    const bad = await call('GET', '/api/v1/admin/hospitals?status=maybe', admin.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /api/v1/admin/hospitals/{id}/verify|reject', () => {
  it('rejects with a reason: stored, mailed to the contact, shown to the account, which stays unable to act', async () => {
    const { headers, registration: status } = await register();
    const missing = await call(
      'POST',
      `/api/v1/admin/hospitals/${status.hospitalId}/reject`,
      admin.headers,
      {},
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].path).toBe('body.reason');

    const res = await reject(status.hospitalId, 'The licence number does not match the directory.');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.hospital).toMatchObject({
      verificationStatus: 'rejected',
      rejectionReason: 'The licence number does not match the directory.',
    });
    const [row] = await db().select().from(hospitals).where(eq(hospitals.id, status.hospitalId));
    expect(row).toMatchObject({
      verificationStatus: 'rejected',
      rejectionReason: 'The licence number does not match the directory.',
      verifiedBy: admin.row.id,
    });
    await subject.app.services.mail.deliverDue();
    const mail = await smtp.waitFor(
      (message) =>
        message.to.includes('blood.centre@osmania.example') &&
        /not verified/i.test(message.subject),
    );
    expect(mail.text).toContain('The licence number does not match the directory.');

    const me = await call('GET', '/api/v1/auth/me', headers);
    expect(me.json().data.user.hospital).toMatchObject({
      verificationStatus: 'rejected',
      rejectionReason: 'The licence number does not match the directory.',
    });
    const stock = await call('PUT', `/api/v1/facilities/${facilityId}/stock`, headers, {
      lines: [{ bloodType: 'O-', component: 'prbc', units: 3 }],
    });
    expect(stock.json().error.code).toBe('HOSPITAL_NOT_VERIFIED');
    // Rejecting again is not a move.
    expect((await reject(status.hospitalId, 'Again and again.')).statusCode).toBe(409);
  });

  it('refuses anyone but an administrator, and changes nothing', async () => {
    const { headers, registration: status } = await register();
    await confirmEmail(headers);
    const donor = await signIn(subject.app, db(), { role: 'donor', status: 'approved' });
    const hospital = await signIn(subject.app, db(), { role: 'hospital' });
    for (const caller of [donor.headers, hospital.headers, headers]) {
      expect((await verify(status.hospitalId, caller)).statusCode).toBe(403);
      expect((await reject(status.hospitalId, 'No reason at all', caller)).statusCode).toBe(403);
    }
    expect((await verify(status.hospitalId, {})).statusCode).toBe(401);
    const [row] = await db().select().from(hospitals).where(eq(hospitals.id, status.hospitalId));
    expect(row!.verificationStatus).toBe('pending');
    expect(row!.verifiedBy).toBeNull();
  });

  it('leaves invitations by administrators verified and able to act', async () => {
    const res = await call('POST', '/api/v1/admin/hospitals', admin.headers, {
      name: 'Invited Hospital',
      email: 'invited@hospital.example',
      phone: '9876543210',
      city: 'Pune',
      state: 'Maharashtra',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.hospital).toMatchObject({
      verificationStatus: 'verified',
      registeredVia: 'invitation',
    });
    expect((await verify(res.json().data.hospital.id)).statusCode).toBe(409);
  });
});

describe('request notices for a blood centre (#32 item 14)', () => {
  const noticesOf = (userId: string) =>
    db()
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, userId),
          eq(notifications.type, 'blood_request.awaiting_verification'),
        ),
      );
  const storedRequest = async (id: string) =>
    (await db().select().from(bloodRequests).where(eq(bloodRequests.id, id)))[0]!;
  async function guestRequest() {
    const res = await call(
      'POST',
      '/api/v1/blood-requests',
      {},
      requestBody({ facilityId, hospitalName: 'Osmania General Hospital' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.request.id as string;
    expect((await storedRequest(id)).status).toBe('pending');
    return id;
  }
  const accountOf = async (hospitalId: string) =>
    (await db().select().from(users).where(eq(users.hospitalId, hospitalId)))[0]!;

  it('reach neither a pending nor a rejected squatter registered first; the verified centre gets them, open requests included', async () => {
    const squatter = await register({ name: 'Osmania Blood Centre Helpdesk' });
    const squatterAccount = await accountOf(squatter.registration.hospitalId);
    const first = await guestRequest();
    expect((await storedRequest(first)).hospitalId).toBeNull();
    expect(await noticesOf(squatterAccount.id)).toEqual([]);
    expect(
      (await reject(squatter.registration.hospitalId, 'Not the blood centre.')).statusCode,
    ).toBe(200);
    const second = await guestRequest();
    expect((await storedRequest(second)).hospitalId).toBeNull();

    // The real centre registers later; nothing reaches it before it is verified.
    const real = await register({
      email: 'bloodbank@osmania.example',
      phone: '9848077777',
      name: 'Osmania General Hospital Blood Bank',
    });
    const realAccount = await accountOf(real.registration.hospitalId);
    const code = await mailedCode('bloodbank@osmania.example');
    expect(
      (
        await call('POST', '/api/v1/hospital-registrations/me/email/confirm', real.headers, {
          code,
        })
      ).statusCode,
    ).toBe(200);
    expect(await noticesOf(realAccount.id)).toEqual([]);
    expect((await verify(real.registration.hospitalId)).statusCode).toBe(200);

    // Both open requests now name it, and it is told of each, as at creation.
    expect((await storedRequest(first)).hospitalId).toBe(real.registration.hospitalId);
    expect((await storedRequest(second)).hospitalId).toBe(real.registration.hospitalId);
    const told = await noticesOf(realAccount.id);
    expect(told).toHaveLength(2);
    expect(told.map((notice) => notice.link)).toEqual([
      '/hospital/dashboard',
      '/hospital/dashboard',
    ]);
    const third = await guestRequest();
    expect((await storedRequest(third)).hospitalId).toBe(real.registration.hospitalId);
    expect(await noticesOf(realAccount.id)).toHaveLength(3);
    // The squatter never heard of any of them.
    expect(
      await db().select().from(notifications).where(eq(notifications.userId, squatterAccount.id)),
    ).toEqual([]);
    // And the real centre may verify them.
    const verified = await call('PUT', `/api/v1/blood-requests/${first}/status`, real.headers, {
      status: 'verified',
    });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('move away from a registration rejected after capturing them, and skip a disabled centre', async () => {
    const squatter = await register({ name: 'Osmania Blood Centre Helpdesk' });
    const captured = await guestRequest();
    // As the code before #32 item 14 left it: the request points at the squatter.
    await db()
      .update(bloodRequests)
      .set({ hospitalId: squatter.registration.hospitalId })
      .where(eq(bloodRequests.id, captured));
    const invited = await makeHospital(subject.app, db(), {
      name: 'Osmania General Hospital',
      facilityId,
    });
    expect(
      (await reject(squatter.registration.hospitalId, 'Not the blood centre.')).statusCode,
    ).toBe(200);
    expect((await storedRequest(captured)).hospitalId).toBe(invited.hospitalId);
    expect(await noticesOf(invited.row.id)).toHaveLength(1);

    // Disabled, it speaks for the facility no more and hears of no request.
    const disabled = await call(
      'POST',
      `/api/v1/admin/hospitals/${invited.hospitalId}/disable`,
      admin.headers,
    );
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect((await storedRequest(captured)).hospitalId).toBeNull();
    const later = await guestRequest();
    expect((await storedRequest(later)).hospitalId).toBeNull();
    expect(await noticesOf(invited.row.id)).toHaveLength(1);
    // Enabled again, both open requests come back to it, each with its notice.
    expect(
      (await call('POST', `/api/v1/admin/hospitals/${invited.hospitalId}/enable`, admin.headers))
        .statusCode,
    ).toBe(200);
    expect((await storedRequest(captured)).hospitalId).toBe(invited.hospitalId);
    expect((await storedRequest(later)).hospitalId).toBe(invited.hospitalId);
    expect(await noticesOf(invited.row.id)).toHaveLength(3);
    // A suspended account of a verified centre hears of nothing.
    await db().update(users).set({ status: 'suspended' }).where(eq(users.id, invited.row.id));
    const last = await guestRequest();
    expect((await storedRequest(last)).hospitalId).toBe(invited.hospitalId);
    expect(await noticesOf(invited.row.id)).toHaveLength(3);
  });
});
