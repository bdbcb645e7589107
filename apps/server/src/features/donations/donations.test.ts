import { randomUUID } from 'node:crypto';
import { certificateVerificationSchema, donationSchema, donorStatsSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { donations, notifications, users } from '../../db/schema';
import { makeHospital } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { pdfInfo, pdfLines, pdfText } from '../../test/pdf-text';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, wantsPostgres, type TestDatabase } from '../../test/test-database';

const DAY = 86_400_000;
let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

beforeEach(async () => {
  subject = await createTestApp({
    database: testDb.database,
    env: { PUBLIC_URL: 'https://blood.example.in' },
    services: { backgroundJobs: false },
  });
});

afterEach(async () => {
  await subject.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;
const isoDay = (offsetDays = 0) =>
  new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

function report(user: SignedInUser, payload: object, headers: Record<string, string> = {}) {
  return subject.app.inject({
    method: 'POST',
    url: `/api/v1/users/${user.row.id}/donations`,
    payload,
    headers: { ...user.headers, ...headers },
  });
}

function record(user: SignedInUser, payload: object, headers: Record<string, string> = {}) {
  return subject.app.inject({
    method: 'POST',
    url: '/api/v1/donations',
    payload,
    headers: { ...user.headers, ...headers },
  });
}

const stats = async (user: SignedInUser, id = user.row.id) =>
  (await subject.app.inject({ url: `/api/v1/users/${id}/stats`, headers: user.headers })).json()
    .data;

describe('POST /api/v1/users/{id}/donations', () => {
  it('records an unverified donation that hides a man for 90 days', async () => {
    const donor = await signIn(subject.app, db(), { gender: 'male' });
    const donatedAt = isoDay(-10);
    const res = await report(donor, { donatedAt, place: ' Ruby Hall Clinic, Pune ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(donationSchema.strict().parse(res.json().data.donation)).toMatchObject({
      donatedAt: `${donatedAt}T00:00:00.000Z`,
      units: 1,
      place: 'Ruby Hall Clinic, Pune',
      verified: false,
      certificateAvailable: false,
      certificateNumber: null,
    });
    // 00:00 IST of the 90th day after the donation's Indian day.
    const expectedNext = new Date(
      Date.parse(`${donatedAt}T00:00:00+05:30`) + 90 * DAY,
    ).toISOString();
    expect(donorStatsSchema.strict().parse(await stats(donor))).toEqual({
      totalDonations: 1,
      lastDonationAt: `${donatedAt}T00:00:00.000Z`,
      nextEligibleAt: expectedNext,
      livesImpacted: 0,
      requestsResponded: 0,
    });
    const me = (await subject.app.inject({ url: '/api/v1/auth/me', headers: donor.headers })).json()
      .data.user;
    expect(me).toMatchObject({ totalDonations: 1, nextEligibleAt: expectedNext });
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.lastDonationAt?.toISOString()).toBe(`${donatedAt}T00:00:00.000Z`);
  });

  it('hides a woman for 120 days, and counts the latest donation', async () => {
    const donor = await signIn(subject.app, db(), { gender: 'female' });
    await report(donor, { donatedAt: isoDay(-200), place: 'Pune' });
    await report(donor, { donatedAt: isoDay(-5), place: 'Pune' });
    await report(donor, { donatedAt: isoDay(-100), place: 'Pune' });
    const result = await stats(donor);
    expect(result.totalDonations).toBe(3);
    expect(result.nextEligibleAt).toBe(
      new Date(Date.parse(`${isoDay(-5)}T00:00:00+05:30`) + 120 * DAY).toISOString(),
    );
    const page = await subject.app.inject({
      url: `/api/v1/users/${donor.row.id}/donations?pageSize=2`,
      headers: donor.headers,
    });
    expect(page.json().data).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(
      page.json().data.items.map((item: { donatedAt: string }) => item.donatedAt.slice(0, 10)),
    ).toEqual([isoDay(-5), isoDay(-100)]);
  });

  it('refuses dates in the future or before the donor turned 18', async () => {
    const donor = await signIn(subject.app, db(), { dateOfBirth: '2000-03-15' });
    const future = await report(donor, { donatedAt: isoDay(2), place: 'Pune' });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details[0].path).toBe('body.donatedAt');
    const young = await report(donor, { donatedAt: '2018-03-14', place: 'Pune' });
    expect(young.statusCode).toBe(400);
    expect(young.json().error.details[0].path).toBe('body.donatedAt');
    expect((await report(donor, { donatedAt: '2018-03-15', place: 'Pune' })).statusCode).toBe(201);
    expect((await report(donor, { donatedAt: 'yesterday', place: 'Pune' })).statusCode).toBe(400);
  });

  it('counts the 18th birthday from 00:00 IST, when the UTC date is still the day before (#32 item 3)', async () => {
    // 01:00 IST on 15 June 2026, the 18th birthday of a donor born on 15 June 2008.
    const at = Date.parse('2026-06-14T19:30:00.000Z');
    await subject.close();
    subject = await createTestApp({
      database: testDb.database,
      services: { backgroundJobs: false, now: () => at },
    });
    const donor = await signIn(subject.app, db(), { dateOfBirth: '2008-06-15' });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const body = { donorId: donor.row.id, place: 'Camp at Shivajinagar' };
    // 23:59 IST on 14 June: still 17.
    const early = await record(admin, { ...body, donatedAt: '2026-06-14T23:59:00+05:30' });
    expect(early.statusCode).toBe(400);
    expect(early.json().error.details[0]).toMatchObject({
      path: 'body.donatedAt',
      message: 'The donation date is before the donor turned 18.',
    });
    expect(await db().select().from(donations)).toHaveLength(0);
    // 00:30 IST on 15 June (18:00 UTC on 14 June): 18, a valid donation.
    const valid = await record(admin, { ...body, donatedAt: '2026-06-15T00:30:00+05:30' });
    expect(valid.statusCode, valid.body).toBe(201);
    const stored = await db().select().from(donations).where(eq(donations.donorId, donor.row.id));
    expect(stored.map((row) => row.donatedAt.toISOString())).toEqual(['2026-06-14T19:00:00.000Z']);
  });

  it('dates and numbers a certificate by the Indian day of the donation (#32 item 3)', async () => {
    // 01:00 IST on 1 January 2026 (still 31 December 2025 in UTC).
    const at = Date.parse('2025-12-31T19:30:00.000Z');
    await subject.close();
    subject = await createTestApp({
      database: testDb.database,
      services: { backgroundJobs: false, now: () => at },
    });
    const donor = await signIn(subject.app, db());
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const res = await record(admin, {
      donorId: donor.row.id,
      donatedAt: '2026-01-01T00:30:00+05:30',
      place: 'Camp at Shivajinagar',
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await db().select().from(donations).where(eq(donations.donorId, donor.row.id));
    expect(row!.certificateNumber).toMatch(/^BDMS-2026-/);
    const verified = await subject.app.inject({
      url: `/api/v1/certificates/${row!.certificateNumber}`,
    });
    expect(verified.json().data).toMatchObject({ valid: true, donatedAt: '2026-01-01' });
  });

  it('creates nothing new when retried with the same X-Request-ID', async () => {
    const donor = await signIn(subject.app, db());
    const body = { donatedAt: isoDay(-3), place: 'Pune' };
    const first = await report(donor, body, { 'x-request-id': 'report-1' });
    const again = await report(donor, body, { 'x-request-id': 'report-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.donation.id).toBe(first.json().data.donation.id);
    expect(await db().select().from(donations)).toHaveLength(1);
  });
});

describe('POST /api/v1/donations (verified, by a hospital or an administrator)', () => {
  it('records a verified donation with a certificate number and tells the donor', async () => {
    const donor = await signIn(subject.app, db(), { fullName: 'Asha Verma' });
    const hospital = await signIn(subject.app, db(), {
      role: 'hospital',
      fullName: 'KEM Hospital',
    });
    const res = await record(hospital, { donorId: donor.row.id, donatedAt: isoDay(-1), units: 1 });
    expect(res.statusCode, res.body).toBe(201);
    const donation = res.json().data.donation;
    expect(donation).toMatchObject({
      verified: true,
      certificateAvailable: true,
      place: 'KEM Hospital',
    });
    expect(donation.certificateNumber).toMatch(/^BDMS-\d{4}-[0-9A-HJKMNP-TV-Z]{8}$/);
    const [note] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, donor.row.id));
    expect(note).toMatchObject({ type: 'donation.recorded', link: '/dashboard' });
    expect(note!.message).toContain('KEM Hospital');
    expect((await stats(donor)).livesImpacted).toBe(3);

    const admin = await signIn(subject.app, db(), { role: 'admin' });
    // An earlier donation, outside the 90 days of the one above (issue #32 item 17).
    const byAdmin = await record(admin, {
      donorId: donor.row.id,
      donatedAt: `${isoDay(-100)}T04:30:00+05:30`,
      units: 2,
      place: 'Camp at Shivajinagar',
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    expect(await stats(donor)).toMatchObject({ totalDonations: 2, livesImpacted: 9 });
    const noPlace = await record(admin, { donorId: donor.row.id, donatedAt: isoDay(0) });
    expect(noPlace.statusCode).toBe(400);
    expect(noPlace.json().error.details[0].path).toBe('body.place');
  });

  it('refuses a second donation inside the donor’s interval, the same day or on either side, and stores nothing', async () => {
    const man = await signIn(subject.app, db(), { gender: 'male' });
    const hospital = await makeHospital(subject.app, db(), { name: 'Gandhi Hospital' });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const first = await record(hospital, { donorId: man.row.id, donatedAt: isoDay(-1) });
    expect(first.statusCode, first.body).toBe(201);

    const twice = await record(hospital, { donorId: man.row.id, donatedAt: isoDay(-1) });
    expect(twice.statusCode).toBe(409);
    const { error } = twice.json();
    expect(error.code).toBe('DONOR_NOT_ELIGIBLE');
    expect(error.message).toContain(`already has a donation on ${isoDay(-1)} (Gandhi Hospital)`);
    expect(error.message).toContain('90 days');
    expect(error.message).toContain(`from ${isoDay(89)}`);
    expect(error.details[0].path).toBe('body.donatedAt');
    // A late entry before it clashes too (60 days earlier), by an administrator as well.
    const before = await record(admin, {
      donorId: man.row.id,
      donatedAt: isoDay(-60),
      place: 'Camp at Shivajinagar',
    });
    expect(before.statusCode).toBe(409);
    expect(before.json().error.message).toContain(`already has a donation on ${isoDay(-1)}`);
    // 90 days before it is fine: the interval ends at 00:00 IST of the 90th day.
    const outside = await record(admin, {
      donorId: man.row.id,
      donatedAt: isoDay(-91),
      place: 'Camp at Shivajinagar',
    });
    expect(outside.statusCode, outside.body).toBe(201);
    const rows = await db()
      .select({ donatedAt: donations.donatedAt, place: donations.place })
      .from(donations)
      .where(eq(donations.donorId, man.row.id))
      .orderBy(donations.donatedAt);
    expect(rows.map((row) => [row.donatedAt.toISOString().slice(0, 10), row.place])).toEqual([
      [isoDay(-91), 'Camp at Shivajinagar'],
      [isoDay(-1), 'Gandhi Hospital'],
    ]);
    const [after] = await db().select().from(users).where(eq(users.id, man.row.id));
    expect(after!.lastDonationAt?.toISOString()).toBe(`${isoDay(-1)}T00:00:00.000Z`);

    // A woman: 120 days, a donation she reported herself counts too.
    const woman = await signIn(subject.app, db(), { gender: 'female' });
    expect((await report(woman, { donatedAt: isoDay(-100), place: 'Pune' })).statusCode).toBe(201);
    const tooSoon = await record(hospital, { donorId: woman.row.id, donatedAt: isoDay(0) });
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().error.message).toContain('120 days');
    expect(
      await db().select().from(donations).where(eq(donations.donorId, woman.row.id)),
    ).toHaveLength(1);
  });

  it('records a hospital’s donation at its own facility only; an administrator names any place', async () => {
    const donor = await signIn(subject.app, db());
    const other = await signIn(subject.app, db());
    const hospital = await makeHospital(subject.app, db(), {
      name: 'Gandhi Hospital',
      facilityId: 'TS-HYD-0001',
    });
    const elsewhere = await record(hospital, {
      donorId: donor.row.id,
      donatedAt: isoDay(-2),
      place: 'Some Camp, Far Away',
    });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error.message).toContain('own facility (Gandhi Hospital)');
    const otherFacility = await record(hospital, {
      donorId: donor.row.id,
      donatedAt: isoDay(-2),
      facilityId: 'MH-PUN-0042',
    });
    expect(otherFacility.statusCode).toBe(403);
    expect(await db().select().from(donations)).toHaveLength(0);

    // Its own name, however written, and no place at all are its own facility.
    const own = await record(hospital, {
      donorId: donor.row.id,
      donatedAt: isoDay(-2),
      place: 'gandhi  hospital',
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.donation).toMatchObject({
      place: 'Gandhi Hospital',
      facilityId: 'TS-HYD-0001',
    });
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const camp = await record(admin, {
      donorId: other.row.id,
      donatedAt: isoDay(-2),
      place: 'Camp at Shivajinagar',
      facilityId: 'MH-PUN-0042',
    });
    expect(camp.statusCode, camp.body).toBe(201);
    const rows = await db()
      .select({
        donorId: donations.donorId,
        place: donations.place,
        facilityId: donations.facilityId,
        verifiedBy: donations.verifiedBy,
      })
      .from(donations);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          donorId: donor.row.id,
          place: 'Gandhi Hospital',
          facilityId: 'TS-HYD-0001',
          verifiedBy: hospital.row.id,
        },
        {
          donorId: other.row.id,
          place: 'Camp at Shivajinagar',
          facilityId: 'MH-PUN-0042',
          verifiedBy: admin.row.id,
        },
      ]),
    );
  });

  // PGlite runs one transaction at a time: the race needs PostgreSQL.
  it.runIf(wantsPostgres())(
    'records one of two donations sent for the same donor at the same moment',
    async () => {
      const donor = await signIn(subject.app, db());
      const first = await makeHospital(subject.app, db(), { name: 'Gandhi Hospital' });
      const second = await makeHospital(subject.app, db(), { name: 'Osmania Hospital' });
      for (let round = 0; round < 3; round += 1) {
        await db().delete(donations);
        const answers = await Promise.all(
          [first, second].map((hospital) =>
            record(hospital, { donorId: donor.row.id, donatedAt: isoDay(-1) }),
          ),
        );
        expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
        expect(answers.find((res) => res.statusCode === 409)!.json().error.code).toBe(
          'DONOR_NOT_ELIGIBLE',
        );
        expect(
          await db().select().from(donations).where(eq(donations.donorId, donor.row.id)),
        ).toHaveLength(1);
      }
    },
  );

  it('is for hospitals and administrators only, and 404s unknown donors', async () => {
    const donor = await signIn(subject.app, db());
    const res = await record(donor, { donorId: donor.row.id, donatedAt: isoDay(0), place: 'Pune' });
    expect(res.statusCode).toBe(403);
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    expect(
      (await record(admin, { donorId: randomUUID(), donatedAt: isoDay(0), place: 'Pune' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await record(admin, { donorId: admin.row.id, donatedAt: isoDay(0), place: 'Pune' }))
        .statusCode,
    ).toBe(404);
    expect(await db().select().from(donations)).toHaveLength(0);
  });
});

describe('certificates', () => {
  async function verifiedDonation(fullName = 'Asha Verma', language = 'en') {
    const donor = await signIn(subject.app, db(), { fullName });
    await db().update(users).set({ bloodType: 'AB-', language }).where(eq(users.id, donor.row.id));
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const res = await record(admin, {
      donorId: donor.row.id,
      donatedAt: '2026-01-26',
      place: 'Sassoon General Hospital, Pune',
    });
    return { donor, admin, donation: res.json().data.donation };
  }

  it('gives the donor an A4 landscape PDF with their name, the date, place, blood type and verification URL', async () => {
    const { donor, donation } = await verifiedDonation();
    const res = await subject.app.inject({
      url: `/api/v1/donations/${donation.id}/certificate`,
      headers: donor.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(
      `attachment; filename="certificate-${donation.certificateNumber}.pdf"`,
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfInfo(res.rawPayload).mediaBox).toEqual([0, 0, 841.89, 595.28]);
    const text = pdfText(res.rawPayload);
    for (const expected of [
      'Blood Donation Management System',
      'Certificate of Blood Donation',
      'Asha Verma',
      '26 January 2026',
      'at Sassoon General Hospital, Pune.',
      'Blood type: AB-',
      `Certificate number: ${donation.certificateNumber}`,
      `Verify at https://blood.example.in/api/v1/certificates/${donation.certificateNumber}`,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("is in the donor's language with their name in its own script, whoever downloads it", async () => {
    const { donor, admin, donation } = await verifiedDonation('राजेश कुमार', 'hi');
    for (const caller of [donor, admin]) {
      const res = await subject.app.inject({
        url: `/api/v1/donations/${donation.id}/certificate`,
        headers: caller.headers,
      });
      expect(res.statusCode).toBe(200);
      const lines = pdfLines(res.rawPayload);
      expect(lines).toEqual(
        expect.arrayContaining([
          'रक्तदान प्रमाणपत्र',
          'राजेश कुमार',
          'ने दिनांक २६ जनवरी २०२६ को Sassoon General Hospital, Pune में',
          'रक्त समूह: AB-',
          `प्रमाणपत्र संख्या: ${donation.certificateNumber}`,
        ]),
      );
      expect(lines.join('\n')).not.toContain('?');
      expect(pdfInfo(res.rawPayload).language).toBe('hi-IN');
    }
  });

  it('is for the donor and administrators, and only for verified donations', async () => {
    const { donation, admin } = await verifiedDonation();
    const other = await signIn(subject.app, db());
    const url = `/api/v1/donations/${donation.id}/certificate`;
    expect((await subject.app.inject({ url, headers: other.headers })).statusCode).toBe(403);
    expect((await subject.app.inject({ url, headers: admin.headers })).statusCode).toBe(200);
    expect(
      (
        await subject.app.inject({
          url: `/api/v1/donations/${randomUUID()}/certificate`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(404);
    const reported = await report(other, { donatedAt: isoDay(-1), place: 'Pune' });
    const unverified = await subject.app.inject({
      url: `/api/v1/donations/${reported.json().data.donation.id}/certificate`,
      headers: other.headers,
    });
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json().error.code).toBe('CONFLICT');
  });

  it('verifies a certificate publicly with a shortened name, and says so for unknown numbers', async () => {
    const { donation } = await verifiedDonation();
    const res = await subject.app.inject({
      url: `/api/v1/certificates/${donation.certificateNumber}`,
    });
    expect(res.statusCode).toBe(200);
    expect(certificateVerificationSchema.strict().parse(res.json().data)).toEqual({
      valid: true,
      certificateNumber: donation.certificateNumber,
      donorName: 'Asha V.',
      donatedAt: '2026-01-26',
      place: 'Sassoon General Hospital, Pune',
      bloodType: 'AB-',
    });
    expect(res.body).not.toContain('Verma');
    expect(res.body).not.toContain('@');
    const unknown = await subject.app.inject({ url: '/api/v1/certificates/BDMS-2026-00000000' });
    expect(unknown.json().data).toEqual({
      valid: false,
      certificateNumber: 'BDMS-2026-00000000',
      donorName: null,
      donatedAt: null,
      place: null,
      bloodType: null,
    });
  });

  it('limits public verification to 30 requests a minute per address', async () => {
    let last = 0;
    for (let i = 0; i < 31; i += 1) {
      last = (
        await subject.app.inject({
          url: '/api/v1/certificates/BDMS-2026-AAAAAAAA',
          remoteAddress: '198.51.100.7',
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });
});
