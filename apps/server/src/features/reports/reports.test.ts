import { monthlyReportSchema } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  activityLog,
  bloodRequestHistory,
  bloodRequestMatches,
  bloodRequests,
  donations,
  mailOutbox,
  reportDeliveries,
  users,
} from '../../db/schema';
import { insertDonor, parseCsv } from '../../test/admin-helpers';
import { signIn } from '../../test/donor-helpers';
import { pdfText } from '../../test/pdf-text';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

// 10:00 IST on 15 April 2026: March is the last complete month.
const NOW = Date.parse('2026-04-15T04:30:00.000Z');
const MINUTE = 60_000;

let testDb: TestDatabase;
let smtp: TestSmtpServer;
const opened: TestApp[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  smtp = await startTestSmtpServer();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((testApp) => testApp.close()));
  await testDb.truncate();
  smtp.messages.length = 0;
});
afterAll(async () => {
  await smtp?.close();
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start(options: { now?: number; env?: Record<string, string> } = {}) {
  let clock = options.now ?? NOW;
  const testApp = await createTestApp({
    database: testDb.database,
    env: options.env,
    services: { backgroundJobs: false, now: () => clock },
  });
  opened.push(testApp);
  const admin = await signIn(testApp.app, db(), { role: 'admin' });
  const get = (url: string, headers = admin.headers) => testApp.app.inject({ url, headers });
  const setFlag = async (analyticsReporting: boolean) => {
    const res = await testApp.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/flags',
      headers: admin.headers,
      payload: { analyticsReporting },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  return {
    app: testApp.app,
    services: testApp.app.services,
    admin,
    get,
    setFlag,
    setClock: (at: number) => {
      clock = at;
    },
  };
}

let requestSequence = 0;
async function insertRequest(values: {
  createdAt: Date;
  urgency: 'urgent' | 'critical';
  status:
    'unconfirmed' | 'pending' | 'verified' | 'in_progress' | 'fulfilled' | 'cancelled' | 'expired';
  state: string;
}) {
  requestSequence += 1;
  const [row] = await db()
    .insert(bloodRequests)
    .values({
      trackingCode: `BR-TEST-${requestSequence}`,
      bloodType: 'O+',
      unitsNeeded: 1,
      hospitalName: 'City Hospital',
      hospitalNameKey: `city hospital ${requestSequence}`,
      city: 'Pune',
      expiresAt: new Date(values.createdAt.getTime() + 86_400_000),
      createdByRole: 'guest',
      ...values,
    })
    .returning();
  return row!;
}

/** A month of activity around March 2026's Indian edges. */
async function seedMarch() {
  // 23:59 IST on 28 February: February. 00:00 IST on 1 March: March.
  await insertDonor(db(), { createdAt: new Date('2026-02-28T18:29:59.000Z'), state: 'Kerala' });
  const first = await insertDonor(db(), {
    createdAt: new Date('2026-02-28T18:30:00.000Z'),
    state: 'Maharashtra',
  });
  // 23:59 IST on 31 March: March; 00:00 IST on 1 April: April.
  await insertDonor(db(), { createdAt: new Date('2026-03-31T18:29:00.000Z'), state: 'Kerala' });
  await insertDonor(db(), { createdAt: new Date('2026-03-31T18:30:00.000Z'), state: 'Kerala' });
  // A state typed as a formula, and a donor erased since (the registration still counts).
  await insertDonor(db(), {
    createdAt: new Date('2026-03-10T06:00:00.000Z'),
    state: '=HYPERLINK("http://evil")',
    deletedAt: new Date('2026-03-20T00:00:00.000Z'),
  });
  await db()
    .insert(activityLog)
    .values([
      {
        action: 'donor.approved',
        targetType: 'user',
        targetId: first.id,
        at: new Date('2026-03-02T05:00:00.000Z'),
      },
      // Approved in April: not March's.
      {
        action: 'donor.approved',
        targetType: 'user',
        targetId: first.id,
        at: new Date('2026-04-02T05:00:00.000Z'),
      },
    ]);

  const critical = await insertRequest({
    createdAt: new Date('2026-03-05T04:30:00.000Z'),
    urgency: 'critical',
    status: 'fulfilled',
    state: 'Maharashtra',
  });
  const urgent = await insertRequest({
    createdAt: new Date('2026-03-05T10:00:00.000Z'),
    urgency: 'urgent',
    status: 'expired',
    state: 'Maharashtra',
  });
  await insertRequest({
    createdAt: new Date('2026-03-20T10:00:00.000Z'),
    urgency: 'urgent',
    status: 'verified',
    state: 'Kerala',
  });
  // 1 April 00:10 IST: April's.
  await insertRequest({
    createdAt: new Date('2026-03-31T18:40:00.000Z'),
    urgency: 'critical',
    status: 'cancelled',
    state: 'Kerala',
  });

  const donorA = await insertDonor(db(), { createdAt: new Date('2025-01-01'), state: 'Goa' });
  const donorB = await insertDonor(db(), { createdAt: new Date('2025-01-01'), state: 'Goa' });
  const donorC = await insertDonor(db(), { createdAt: new Date('2025-01-01'), state: 'Goa' });
  const match = (
    requestId: string,
    donorId: string,
    response: 'accepted' | 'declined',
    minutes: number,
    from: Date,
  ) => ({
    requestId,
    donorId,
    exactType: true,
    round: 1,
    notifiedAt: from,
    response,
    respondedAt: new Date(from.getTime() + minutes * MINUTE),
  });
  await db()
    .insert(bloodRequestMatches)
    .values([
      // The critical request: first accepted after 20 minutes (the 5-minute answer declined).
      match(critical.id, donorA.id, 'declined', 5, critical.createdAt),
      match(critical.id, donorB.id, 'accepted', 20, critical.createdAt),
      match(critical.id, donorC.id, 'accepted', 50, critical.createdAt),
      // The urgent one: first accepted after 60 minutes.
      match(urgent.id, donorA.id, 'accepted', 60, urgent.createdAt),
    ]);
  await db()
    .insert(donations)
    .values([
      { donorId: donorB.id, donatedAt: new Date('2026-03-05T08:00:00.000Z'), place: 'A', units: 2 },
      // 1 March 00:30 IST.
      { donorId: donorC.id, donatedAt: new Date('2026-02-28T19:00:00.000Z'), place: 'B' },
      // An erased donor's donation: counted in its request's state.
      {
        donorId: null,
        requestId: urgent.id,
        donatedAt: new Date('2026-03-06T08:00:00.000Z'),
        place: 'C',
      },
      // 28 February 23:00 IST: February's.
      { donorId: donorC.id, donatedAt: new Date('2026-02-28T17:30:00.000Z'), place: 'D' },
    ]);
}

describe('the monthly report (analyticsReporting)', () => {
  it('is 404 while the flag is off, and appears when an administrator switches it on', async () => {
    const { get, setFlag } = await start();
    for (const url of ['monthly', 'monthly.csv', 'monthly.pdf']) {
      const off = await get(`/api/v1/reports/${url}`);
      expect(off.statusCode).toBe(404);
      expect(off.json().error.message).toContain('analyticsReporting');
    }
    await setFlag(true);
    const on = await get('/api/v1/reports/monthly');
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.month).toBe('2026-03');
    await setFlag(false);
    expect((await get('/api/v1/reports/monthly')).statusCode).toBe(404);
  });

  it('counts March by Indian days: registrations, approvals, requests by urgency and outcome, first acceptance, donations, states', async () => {
    await seedMarch();
    const { get, setFlag } = await start();
    await setFlag(true);
    const res = await get('/api/v1/reports/monthly?month=2026-03');
    expect(res.statusCode, res.body).toBe(200);
    const report = monthlyReportSchema.strict().parse(res.json().data);
    expect(report).toMatchObject({
      month: '2026-03',
      from: '2026-02-28T18:30:00.000Z',
      until: '2026-03-31T18:30:00.000Z',
      complete: true,
      totals: { registrations: 3, approvals: 1, requests: 3, donations: 3, donationUnits: 4 },
      requestsByUrgency: {
        critical: { open: 0, fulfilled: 1, cancelled: 0, expired: 0 },
        urgent: { open: 1, fulfilled: 0, cancelled: 0, expired: 1 },
      },
      firstAcceptance: { accepted: 2, medianMinutes: 40, averageMinutes: 40 },
    });
    expect(report.byState).toEqual([
      { state: 'Maharashtra', registrations: 1, approvals: 1, requests: 2, donations: 1 },
      { state: 'Goa', registrations: 0, approvals: 0, requests: 0, donations: 2 },
      { state: 'Kerala', registrations: 1, approvals: 0, requests: 1, donations: 0 },
      {
        state: '=HYPERLINK("http://evil")',
        registrations: 1,
        approvals: 0,
        requests: 0,
        donations: 0,
      },
    ]);
    expect(report.days).toHaveLength(31);
    expect(report.days[0]).toEqual({
      date: '2026-03-01',
      registrations: 1,
      requests: 0,
      donations: 1,
    });
    expect(report.days[4]).toEqual({
      date: '2026-03-05',
      registrations: 0,
      requests: 2,
      donations: 1,
    });
    expect(report.days[30]).toEqual({
      date: '2026-03-31',
      registrations: 1,
      requests: 0,
      donations: 0,
    });
  });

  it('leaves out guest requests never confirmed by their code, and times an acceptance later withdrawn from when it was given', async () => {
    // Main's issue #16: a guest's request waits `unconfirmed` (seen by nobody) for its phone code;
    // issue #18: a donor who accepted can withdraw, which rewrites the match row.
    const at = new Date('2026-03-10T04:30:00.000Z');
    const after = (minutes: number) => new Date(at.getTime() + minutes * MINUTE);
    const confirmed = await insertRequest({
      createdAt: at,
      urgency: 'critical',
      status: 'verified',
      state: 'Goa',
    });
    const neverConfirmed = await insertRequest({
      createdAt: at,
      urgency: 'urgent',
      status: 'expired',
      state: 'Goa',
    });
    const stillWaiting = await insertRequest({
      createdAt: at,
      urgency: 'urgent',
      status: 'unconfirmed',
      state: 'Goa',
    });
    const step = (
      requestId: string,
      status: 'unconfirmed' | 'pending' | 'verified' | 'expired',
      minutes: number,
    ) => ({
      requestId,
      status,
      byRole: 'guest' as const,
      at: after(minutes),
    });
    await db()
      .insert(bloodRequestHistory)
      .values([
        step(confirmed.id, 'unconfirmed', 0),
        step(confirmed.id, 'pending', 5),
        step(confirmed.id, 'verified', 10),
        step(neverConfirmed.id, 'unconfirmed', 0),
        step(neverConfirmed.id, 'expired', 60),
        step(stillWaiting.id, 'unconfirmed', 0),
      ]);
    const donor = await insertDonor(db(), { createdAt: new Date('2025-01-01'), state: 'Goa' });
    // Accepted after 15 minutes, withdrawn after 45: the row now says withdrawn at 45.
    await db()
      .insert(bloodRequestMatches)
      .values({
        requestId: confirmed.id,
        donorId: donor.id,
        exactType: true,
        round: 1,
        notifiedAt: after(10),
        response: 'withdrawn',
        respondedAt: after(45),
      });
    const responded = (response: string, minutes: number) => ({
      action: 'blood_request.responded',
      actorId: donor.id,
      actorRole: 'donor',
      targetType: 'blood_request',
      targetId: confirmed.id,
      details: { response },
      at: after(minutes),
    });
    await db()
      .insert(activityLog)
      .values([responded('accepted', 15), responded('withdrawn', 45)]);

    const { get, setFlag } = await start();
    await setFlag(true);
    const res = await get('/api/v1/reports/monthly?month=2026-03');
    expect(res.statusCode, res.body).toBe(200);
    const report = monthlyReportSchema.strict().parse(res.json().data);
    expect(report.totals).toMatchObject({ requests: 1 });
    expect(report.requestsByUrgency).toEqual({
      critical: { open: 1, fulfilled: 0, cancelled: 0, expired: 0 },
      urgent: { open: 0, fulfilled: 0, cancelled: 0, expired: 0 },
    });
    expect(report.firstAcceptance).toEqual({
      accepted: 1,
      medianMinutes: 15,
      averageMinutes: 15,
    });
    expect(report.byState).toEqual([
      { state: 'Goa', registrations: 0, approvals: 0, requests: 1, donations: 0 },
    ]);
    expect(report.days.find((day) => day.date === '2026-03-10')).toMatchObject({ requests: 1 });
  });

  it('gives the running month up to today, and refuses a month to come or a malformed one', async () => {
    const { get, setFlag } = await start();
    await setFlag(true);
    const running = monthlyReportSchema.parse(
      (await get('/api/v1/reports/monthly?month=2026-04')).json().data,
    );
    expect(running.complete).toBe(false);
    expect(running.days.map((day) => day.date).at(-1)).toBe('2026-04-15');
    for (const month of ['2026-05', '2026-13', '2026-4', '1999-12', 'march']) {
      const res = await get(`/api/v1/reports/monthly?month=${encodeURIComponent(month)}`);
      expect(res.statusCode, month).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('is for administrators only', async () => {
    const { app, get, setFlag } = await start();
    await setFlag(true);
    const donor = await signIn(app, db(), { role: 'donor' });
    const hospital = await signIn(app, db(), { role: 'hospital' });
    for (const url of ['monthly', 'monthly.csv', 'monthly.pdf']) {
      expect((await get(`/api/v1/reports/${url}`, {})).statusCode).toBe(401);
      expect((await get(`/api/v1/reports/${url}`, donor.headers)).statusCode).toBe(403);
      expect((await get(`/api/v1/reports/${url}`, hospital.headers)).statusCode).toBe(403);
    }
  });

  it('downloads as CSV (one fact a row, formulas neutralised) and as PDF in the asked language', async () => {
    await seedMarch();
    const { get, setFlag } = await start();
    await setFlag(true);
    const csv = await get('/api/v1/reports/monthly.csv?month=2026-03');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain('filename="report-2026-03.csv"');
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(['section', 'key', 'metric', 'value']);
    expect(rows).toContainEqual(['totals', '', 'registrations', '3']);
    expect(rows).toContainEqual(['requests', 'urgent', 'expired', '1']);
    expect(rows).toContainEqual(['first_acceptance', '', 'median_minutes', '40']);
    expect(rows).toContainEqual(['state', 'Goa', 'donations', '2']);
    expect(rows).toContainEqual(['state', `'=HYPERLINK("http://evil")`, 'registrations', '1']);
    expect(rows).toContainEqual(['day', '2026-03-05', 'requests', '2']);

    const pdf = await get('/api/v1/reports/monthly.pdf?month=2026-03&lang=hi');
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('filename="report-2026-03.pdf"');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('मासिक रिपोर्ट');
    expect(text).toContain('मार्च 2026');
    expect(text).toContain('Maharashtra');
    expect(text).toContain('40 मिनट');
    const english = pdfText((await get('/api/v1/reports/monthly.pdf?month=2026-03')).rawPayload);
    expect(english).toContain('Monthly report');
    expect(english).toContain('Time to the first accepted donor');
    expect((await get('/api/v1/reports/monthly.pdf?lang=xx')).statusCode).toBe(400);
  });
});

describe('the monthly report e-mail', () => {
  // 00:10 IST on 1 April 2026 (18:40 UTC on 31 March).
  const FIRST_OF_APRIL = Date.parse('2026-03-31T18:40:00.000Z');

  it('goes out once on the 1st (India) to every active administrator, in their language', async () => {
    await seedMarch();
    const { app, services, setFlag, admin } = await start({
      now: FIRST_OF_APRIL,
      env: { SMTP_URL: smtp.url },
    });
    await db().update(users).set({ language: 'hi' }).where(eq(users.id, admin.row.id));
    const other = await signIn(app, db(), { role: 'admin' });
    const suspended = await signIn(app, db(), { role: 'admin' });
    await db().update(users).set({ status: 'suspended' }).where(eq(users.id, suspended.row.id));
    // Off: nothing.
    expect(await services.reports.sendDue()).toBeNull();
    await setFlag(true);
    // Several servers at once: one claims the month.
    const results = await Promise.all([
      services.reports.sendDue(),
      services.reports.sendDue(),
      services.reports.sendDue(),
    ]);
    expect(results.filter((result) => result !== null)).toEqual([
      { month: '2026-03', recipients: 2 },
    ]);
    expect(await services.reports.sendDue()).toBeNull();
    const hindi = await smtp.waitFor((mail) => mail.to.includes(admin.row.email));
    expect(hindi.subject).toBe('मासिक रिपोर्ट: मार्च 2026');
    expect(hindi.text).toContain('पंजीकरण: 3');
    expect(hindi.text).toContain('/admin/reports?month=2026-03');
    const english = await smtp.waitFor((mail) => mail.to.includes(other.row.email));
    expect(english.subject).toBe('Monthly report: March 2026');
    expect(english.text).toContain('Blood requests: 3');
    expect(english.text).toContain('Donations: 3 (Units donated: 4)');
    const outbox = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'monthly_report'));
    expect(outbox.map((row) => row.toAddress).sort()).toEqual(
      [admin.row.email, other.row.email].sort(),
    );
    expect(await db().select().from(reportDeliveries)).toMatchObject([
      { month: '2026-03', recipients: 2 },
    ]);
  });

  it('is not sent without SMTP, after the 3rd, or before the 1st', async () => {
    const noMail = await start({ now: FIRST_OF_APRIL });
    await noMail.setFlag(true);
    expect(await noMail.services.reports.sendDue()).toBeNull();

    const withMail = await start({ now: FIRST_OF_APRIL, env: { SMTP_URL: smtp.url } });
    // 23:59 IST on 31 March (18:29 UTC): still March, nothing to send.
    withMail.setClock(Date.parse('2026-03-31T18:29:00.000Z'));
    expect(await withMail.services.reports.sendDue()).toBeNull();
    // 4 April: too late for March's.
    withMail.setClock(Date.parse('2026-04-04T06:00:00.000Z'));
    expect(await withMail.services.reports.sendDue()).toBeNull();
    // 3 April (a server down on the 1st catches up).
    withMail.setClock(Date.parse('2026-04-03T06:00:00.000Z'));
    expect(await withMail.services.reports.sendDue()).toMatchObject({ month: '2026-03' });
    expect(
      await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'monthly_report')),
    ).not.toHaveLength(0);
  });
});
