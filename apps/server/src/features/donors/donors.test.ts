import { randomUUID } from 'node:crypto';
import { availabilitySchema, onboardingStatusSchema, questionnaireSchema } from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activityLog, notifications, questionnaires, users } from '../../db/schema';
import { bearer, expectUserShape, loginAs } from '../../test/auth-helpers';
import {
  healthyAnswers,
  signIn,
  uploadDocument,
  type SignedInUser,
} from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

const DAY = 86_400_000;
let testDb: TestDatabase;
let subject: TestApp;
let time = Date.UTC(2026, 5, 15, 6, 0, 0);
const clock = {
  now: () => time,
  advance(ms: number) {
    time += ms;
  },
};

beforeAll(async () => {
  testDb = await createTestDatabase();
});

async function start() {
  subject = await createTestApp({
    database: testDb.database,
    services: { backgroundJobs: false, now: clock.now },
  });
}

afterEach(async () => {
  await subject?.close();
  await testDb.truncate();
  time = Date.UTC(2026, 5, 15, 6, 0, 0);
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

function putQuestionnaire(user: SignedInUser, answers: object, id = user.row.id) {
  return subject.app.inject({
    method: 'PUT',
    url: `/api/v1/users/${id}/questionnaire`,
    payload: { answers },
    headers: user.headers,
  });
}

function get(path: string, headers: Record<string, string>) {
  return subject.app.inject({ url: path, headers });
}

async function relogin(user: SignedInUser): Promise<SignedInUser> {
  const { tokens } = await loginAs(subject.app, user);
  return { ...user, headers: bearer(tokens.accessToken) };
}

const notificationTypes = async (userId: string) =>
  (await db().select().from(notifications).where(eq(notifications.userId, userId))).map(
    (row) => row.type,
  );

describe('PUT /api/v1/users/{id}/questionnaire', () => {
  it('stores the answers with the verdict, and GET recomputes it for the donor and administrators', async () => {
    await start();
    const donor = await signIn(subject.app, db(), { gender: 'female', dateOfBirth: '1995-02-01' });
    const res = await putQuestionnaire(
      donor,
      healthyAnswers({
        firstTimeDonor: false,
        weightKg: 50,
        conditions: ['antibiotics'],
        conditionDates: { antibiotics: '2026-06-10' },
        // Not part of the contract: dropped, never stored.
        aadhaarNumber: '1234 5678 9012',
      } as object),
    );
    expect(res.statusCode, res.body).toBe(200);
    const questionnaire = questionnaireSchema.parse(res.json().data.questionnaire);
    expect(questionnaire).toMatchObject({
      eligible: false,
      nextEligibleAt: '2026-06-23T18:30:00.000Z' /* 00:00 IST */,
      deferrals: [{ code: 'antibiotics', until: '2026-06-23T18:30:00.000Z' /* 00:00 IST */ }],
      maxVolumeMl: 350,
      submittedAt: new Date(time).toISOString(),
    });
    const [row] = await db()
      .select()
      .from(questionnaires)
      .where(eq(questionnaires.userId, donor.row.id));
    expect(row).toMatchObject({ eligible: false });
    expect(JSON.stringify(row!.answers)).not.toContain('aadhaar');

    const admin = await signIn(subject.app, db(), { role: 'admin' });
    expect(
      (await get(`/api/v1/users/${donor.row.id}/questionnaire`, admin.headers)).statusCode,
    ).toBe(200);

    // Ten days later the antibiotics deferral is over.
    clock.advance(10 * DAY);
    const later = await get(
      `/api/v1/users/${donor.row.id}/questionnaire`,
      (await relogin(donor)).headers,
    );
    expect(later.json().data.questionnaire).toMatchObject({ eligible: true, deferrals: [] });

    const me = await get('/api/v1/auth/me', (await relogin(donor)).headers);
    expect(expectUserShape(me.json().data.user)).toMatchObject({ questionnaireCompleted: true });
    const log = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'questionnaire.submitted'));
    expect(log).toHaveLength(1);
    expect(JSON.stringify(log[0]!.details)).not.toContain('antibiotics');
  });

  it('needs the date of a timed condition (400 with its path) and refuses dates in the future', async () => {
    await start();
    const donor = await signIn(subject.app, db());
    const missing = await putQuestionnaire(
      donor,
      healthyAnswers({ conditions: ['tattoo_piercing'] }),
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('VALIDATION_ERROR');
    expect(missing.json().error.details).toContainEqual({
      path: 'body.answers.conditionDates.tattoo_piercing',
      message: 'This condition needs its date.',
    });
    const future = await putQuestionnaire(
      donor,
      healthyAnswers({ conditions: ['malaria'], conditionDates: { malaria: '2026-07-01' } }),
    );
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details[0].path).toBe('body.answers.conditionDates.malaria');
    const unknown = await putQuestionnaire(donor, healthyAnswers({ conditions: ['flu'] as never }));
    expect(unknown.statusCode).toBe(400);
    expect(await db().select().from(questionnaires)).toHaveLength(0);
  });

  it('asks the questions of issue #32 item 5 and stores their verdicts (NBTC 2017)', async () => {
    await start(); // 11:30 IST on 15 June 2026
    const donor = await signIn(subject.app, db(), { gender: 'female', dateOfBirth: '1995-02-01' });
    const stored = async () =>
      (await db().select().from(questionnaires).where(eq(questionnaires.userId, donor.row.id)))[0]!;

    // Surgery counts from full recovery; a stem cell harvest 6 months, release 12 months.
    const timed = await putQuestionnaire(
      donor,
      healthyAnswers({
        conditions: ['major_surgery', 'stem_cell_harvest', 'imprisonment'],
        conditionDates: {
          major_surgery: '2026-03-01',
          stem_cell_harvest: '2026-06-01',
          imprisonment: '2025-07-01',
        },
      }),
    );
    expect(timed.statusCode, timed.body).toBe(200);
    expect(timed.json().data.questionnaire).toMatchObject({
      eligible: false,
      nextEligibleAt: '2027-02-28T18:30:00.000Z' /* 1 March 2027, 00:00 IST */,
    });
    expect((await stored()).deferrals).toEqual([
      {
        code: 'major_surgery',
        message: 'You can give blood 12 months after full recovery from major surgery.',
        until: '2027-02-28T18:30:00.000Z',
      },
      {
        code: 'stem_cell_harvest',
        message: 'You can give blood 6 months after donating stem cells from your blood.',
        until: '2026-11-30T18:30:00.000Z',
      },
      {
        code: 'imprisonment',
        message: 'You can give blood 12 months after release from prison or other confinement.',
        until: '2026-06-30T18:30:00.000Z',
      },
    ]);

    // Today's period defers with no date; a hazardous duty is recorded and defers nobody.
    const today = await putQuestionnaire(
      donor,
      healthyAnswers({ conditions: ['menstruating', 'hazardous_occupation'] }),
    );
    expect(today.json().data.questionnaire).toMatchObject({
      eligible: false,
      nextEligibleAt: null,
      deferrals: [{ code: 'menstruating', message: 'Please wait until your period is over.' }],
    });
    const row = await stored();
    expect(row.answers.conditions).toEqual(['menstruating', 'hazardous_occupation']);
    expect(row.deferrals.map((deferral) => deferral.code)).toEqual(['menstruating']);
    const working = await putQuestionnaire(
      donor,
      healthyAnswers({ conditions: ['hazardous_occupation'] }),
    );
    expect(working.json().data.questionnaire).toMatchObject({ eligible: true, deferrals: [] });
    expect(await stored()).toMatchObject({ eligible: true, deferrals: [] });

    // Polycythaemia: permanent.
    const permanent = await putQuestionnaire(
      donor,
      healthyAnswers({ conditions: ['polycythaemia'] }),
    );
    expect(permanent.json().data.questionnaire).toMatchObject({
      eligible: false,
      nextEligibleAt: null,
      deferrals: [{ code: 'polycythaemia', permanent: true }],
    });
    expect((await stored()).deferrals).toEqual([
      {
        code: 'polycythaemia',
        message: 'People with polycythaemia cannot give blood.',
        permanent: true,
      },
    ]);
  });

  it('hides a donor who answers a recent last donation (men: 90 days)', async () => {
    await start();
    const donor = await signIn(subject.app, db(), { gender: 'male' });
    const res = await putQuestionnaire(
      donor,
      healthyAnswers({ firstTimeDonor: false, lastDonationDate: '2026-05-01' }),
    );
    expect(res.json().data.questionnaire).toMatchObject({
      eligible: false,
      nextEligibleAt: '2026-07-29T18:30:00.000Z' /* 00:00 IST */,
    });
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.lastDonationAt?.toISOString()).toBe('2026-05-01T00:00:00.000Z');
    const me = (await get('/api/v1/auth/me', donor.headers)).json().data.user;
    expect(me).toMatchObject({
      lastDonationAt: '2026-05-01T00:00:00.000Z',
      nextEligibleAt: '2026-07-29T18:30:00.000Z' /* 00:00 IST */,
    });
  });

  it('sends a rejected donor who changes the answers back to pending, but not for the same answers', async () => {
    await start();
    const donor = await signIn(subject.app, db());
    await putQuestionnaire(donor, healthyAnswers());
    await db()
      .update(users)
      .set({ status: 'rejected', rejectionReason: 'Please check your weight.' })
      .where(eq(users.id, donor.row.id));
    const same = await putQuestionnaire(donor, { ...healthyAnswers(), conditions: [] });
    expect(same.statusCode).toBe(200);
    let [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.status).toBe('rejected');
    const status = await get(`/api/v1/users/${donor.row.id}/onboarding-status`, donor.headers);
    expect(status.json().data).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Please check your weight.',
    });

    await putQuestionnaire(donor, healthyAnswers({ weightKg: 70 }));
    [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row).toMatchObject({ status: 'pending', rejectionReason: null });
    const actions = (await db().select().from(activityLog)).map((entry) => entry.action);
    expect(actions).toContain('donor.resubmitted');
    expect(await notificationTypes(donor.row.id)).toContain('donor.resubmitted');
  });

  it('is written by the donor themself only', async () => {
    await start();
    const donor = await signIn(subject.app, db());
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    expect((await putQuestionnaire(admin, healthyAnswers(), donor.row.id)).statusCode).toBe(403);
    expect((await putQuestionnaire(admin, healthyAnswers())).statusCode).toBe(403);
    expect(
      (await get(`/api/v1/users/${donor.row.id}/questionnaire`, donor.headers)).json().data,
    ).toEqual({
      questionnaire: null,
    });
  });
});

describe('GET /api/v1/users/{id}/onboarding-status', () => {
  it('completes with the questionnaire alone while documentUpload is off, and tells the administrators once', async () => {
    await start();
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await signIn(subject.app, db());
    const before = await get(`/api/v1/users/${donor.row.id}/onboarding-status`, donor.headers);
    expect(onboardingStatusSchema.strict().parse(before.json().data)).toEqual({
      status: 'pending',
      documentsUploaded: false,
      questionnaireCompleted: false,
      onboardingCompleted: false,
      steps: [
        { key: 'documents', done: true },
        { key: 'questionnaire', done: false },
        { key: 'review', done: false },
      ],
      idProofRequired: false,
      rejectionReason: null,
    });
    await putQuestionnaire(donor, healthyAnswers());
    const after = (
      await get(`/api/v1/users/${donor.row.id}/onboarding-status`, admin.headers)
    ).json().data;
    expect(after).toMatchObject({ questionnaireCompleted: true, onboardingCompleted: true });
    expect(after.steps.every((step: { done: boolean }) => step.done)).toBe(true);
    await putQuestionnaire(donor, healthyAnswers({ weightKg: 80 }));
    expect(await notificationTypes(admin.row.id)).toEqual(['donor.awaiting_verification']);
    const completed = await db()
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.action, 'donor.onboarding_completed'),
          eq(activityLog.targetId, donor.row.id),
        ),
      );
    expect(completed).toHaveLength(1);
    const me = (await get('/api/v1/auth/me', donor.headers)).json().data.user;
    expect(me.onboardingCompleted).toBe(true);
  });

  it('needs an ID proof while documentUpload is on', async () => {
    await start();
    await subject.app.services.flags.setFlags({ documentUpload: true }, null);
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await signIn(subject.app, db());
    await putQuestionnaire(donor, healthyAnswers());
    await uploadDocument(subject.app, donor.headers, 'photo', {
      filename: 'me.pdf',
    });
    let status = (
      await get(`/api/v1/users/${donor.row.id}/onboarding-status`, donor.headers)
    ).json().data;
    expect(status).toMatchObject({
      idProofRequired: true,
      documentsUploaded: false,
      questionnaireCompleted: true,
      onboardingCompleted: false,
    });
    expect(status.steps[0]).toEqual({ key: 'documents', done: false });
    expect(await notificationTypes(admin.row.id)).toEqual([]);

    expect((await uploadDocument(subject.app, donor.headers, 'id_proof')).statusCode).toBe(201);
    status = (await get(`/api/v1/users/${donor.row.id}/onboarding-status`, donor.headers)).json()
      .data;
    expect(status).toMatchObject({ documentsUploaded: true, onboardingCompleted: true });
    expect(await notificationTypes(admin.row.id)).toEqual(['donor.awaiting_verification']);
  });
});

describe('availability', () => {
  const availability = (user: SignedInUser, id = user.row.id) =>
    get(`/api/v1/users/${id}/availability`, user.headers);
  const setAvailability = (user: SignedInUser, payload: object) =>
    subject.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.row.id}/availability`,
      payload,
      headers: user.headers,
    });

  it('lapses 90 days after confirmation, asking for reconfirmation once from day 83', async () => {
    await start();
    let donor = await signIn(subject.app, db());
    const set = await setAvailability(donor, { available: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(availabilitySchema.strict().parse(set.json().data)).toEqual({
      available: true,
      until: null,
      confirmedAt: new Date(time).toISOString(),
      expiresAt: new Date(time + 90 * DAY).toISOString(),
      needsReconfirmation: false,
    });

    clock.advance(82 * DAY);
    expect(await subject.app.services.availabilityJob.runOnce()).toEqual({
      reminded: 0,
      lapsed: 0,
      eligibleAgain: 0,
    });
    donor = await relogin(donor);
    expect((await availability(donor)).json().data.needsReconfirmation).toBe(false);

    clock.advance(1 * DAY);
    donor = await relogin(donor);
    expect((await availability(donor)).json().data).toMatchObject({
      available: true,
      needsReconfirmation: true,
    });
    expect(await subject.app.services.availabilityJob.runOnce()).toEqual({
      reminded: 1,
      lapsed: 0,
      eligibleAgain: 0,
    });
    expect(await subject.app.services.availabilityJob.runOnce()).toEqual({
      reminded: 0,
      lapsed: 0,
      eligibleAgain: 0,
    });
    expect(await notificationTypes(donor.row.id)).toEqual(['availability.expiring']);

    clock.advance(7 * DAY - 1);
    donor = await relogin(donor);
    expect((await availability(donor)).json().data.available).toBe(true);
    clock.advance(1);
    donor = await relogin(donor);
    expect((await availability(donor)).json().data).toMatchObject({
      available: false,
      needsReconfirmation: true,
    });
    expect((await get('/api/v1/auth/me', donor.headers)).json().data.user.available).toBe(false);
    expect(await subject.app.services.availabilityJob.runOnce()).toEqual({
      reminded: 0,
      lapsed: 1,
      eligibleAgain: 0,
    });
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.available).toBe(false);
    expect(await notificationTypes(donor.row.id)).toEqual(['availability.expiring']);

    // Reconfirming starts a new period (and a new reminder later).
    const again = await setAvailability(donor, { available: true });
    expect(again.json().data).toMatchObject({ available: true, needsReconfirmation: false });
  });

  it('honours an until day (inclusive) and refuses one outside today..+90 days', async () => {
    await start();
    let donor = await signIn(subject.app, db());
    expect(
      (await setAvailability(donor, { available: true, until: '2026-06-14' })).statusCode,
    ).toBe(400);
    const tooFar = await setAvailability(donor, { available: true, until: '2026-09-14' });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().error.details[0].path).toBe('body.until');
    expect(
      (await setAvailability(donor, { available: true, until: '2026-06-20' })).json().data,
    ).toMatchObject({
      available: true,
      until: '2026-06-20',
    });
    clock.advance(5 * DAY);
    donor = await relogin(donor);
    expect((await availability(donor)).json().data.available).toBe(true);
    clock.advance(1 * DAY);
    donor = await relogin(donor);
    expect((await availability(donor)).json().data.available).toBe(false);
    expect((await subject.app.services.availabilityJob.runOnce()).lapsed).toBe(1);
  });

  it('treats PATCH /users/{id} {available} as a confirmation', async () => {
    await start();
    const donor = await signIn(subject.app, db());
    const res = await subject.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${donor.row.id}`,
      payload: { available: true },
      headers: donor.headers,
    });
    expect(res.json().data.user.available).toBe(true);
    const [row] = await db().select().from(users).where(eq(users.id, donor.row.id));
    expect(row!.availabilityConfirmedAt?.getTime()).toBe(time);
    const off = await subject.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${donor.row.id}`,
      payload: { available: false },
      headers: donor.headers,
    });
    expect(off.json().data.user.available).toBe(false);
  });

  it('starts confirmed at registration', async () => {
    await start();
    const reg = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        email: 'new.donor@example.org',
        password: 'correct horse battery',
        fullName: 'Asha Verma',
        phone: '9876500011',
        bloodType: 'O+',
        dateOfBirth: '1990-01-01',
        gender: 'female',
        city: 'Pune',
        state: 'Maharashtra',
        consent: true,
      },
    });
    const { user, tokens } = reg.json().data;
    expect(user.available).toBe(true);
    const res = await get(`/api/v1/users/${user.id}/availability`, bearer(tokens.accessToken));
    expect(res.json().data.expiresAt).toBe(new Date(time + 90 * DAY).toISOString());
  });
});

describe('authorisation of /users/{id}/* routes', () => {
  it('refuses another donor with 403 everywhere, and a bad id with 400', async () => {
    await start();
    const donor = await signIn(subject.app, db());
    const other = await signIn(subject.app, db());
    const id = donor.row.id;
    const calls: [string, string, object?][] = [
      ['GET', `/api/v1/users/${id}`],
      ['PATCH', `/api/v1/users/${id}`, { city: 'Goa' }],
      ['GET', `/api/v1/users/${id}/questionnaire`],
      ['PUT', `/api/v1/users/${id}/questionnaire`, { answers: healthyAnswers() }],
      ['GET', `/api/v1/users/${id}/onboarding-status`],
      ['GET', `/api/v1/users/${id}/stats`],
      ['GET', `/api/v1/users/${id}/donations`],
      ['POST', `/api/v1/users/${id}/donations`, { donatedAt: '2026-01-01', place: 'Pune' }],
      ['GET', `/api/v1/users/${id}/activity`],
      ['GET', `/api/v1/users/${id}/availability`],
      ['PUT', `/api/v1/users/${id}/availability`, { available: true }],
      ['GET', `/api/v1/users/${id}/export`],
      ['DELETE', `/api/v1/users/${id}`, { password: other.password }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await subject.app.inject({
        method: method as 'GET',
        url,
        headers: other.headers,
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
      expect(res.body).not.toContain(donor.row.email);
      // An unknown id is 403 too (nothing about other accounts leaks); a bad id is 400.
      const unknown = await subject.app.inject({
        method: method as 'GET',
        url: url.replace(id, randomUUID()),
        headers: other.headers,
        ...(payload ? { payload } : {}),
      });
      expect(unknown.statusCode, `${method} ${url} (unknown id)`).toBe(403);
      const bad = await subject.app.inject({
        method: method as 'GET',
        url: url.replace(id, 'not-a-uuid'),
        headers: other.headers,
        ...(payload ? { payload } : {}),
      });
      expect(bad.statusCode, `${method} ${url} (bad id)`).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    }
    const [row] = await db().select().from(users).where(eq(users.id, id));
    expect(row!.deletedAt).toBeNull();
  });
});
