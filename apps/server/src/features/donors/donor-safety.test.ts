import {
  questionnaireSchema,
  startOfIndianDay,
  todayInIndia,
  type QuestionnaireAnswers,
} from '@bdms/shared';
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { activityLog, notifications, questionnaires, users } from '../../db/schema';
import { makeDonor, requestBody } from '../../test/blood-request-helpers';
import { signIn, type SignedInUser } from '../../test/donor-helpers';
import { useTestApp } from '../../test/test-app';

/**
 * Donor-selection safety (issue #14): an administrator's questionnaire review stands, a removed
 * permanent deferral goes back to review, eligibility is decided again at matching time, a
 * recorded donation lifts the first-time limit, and dates are Indian dates.
 */

const DAY = 86_400_000;
// 10:00 IST: the Indian and the UTC date agree (the IST tests set their own clock).
const MORNING_IN_INDIA = Date.parse('2026-06-15T04:30:00.000Z');
let clock = MORNING_IN_INDIA;
const subject = useTestApp({ services: { now: () => clock } });
beforeEach(() => {
  clock = MORNING_IN_INDIA;
});

const db = () => subject.db;
/** The date of birth of someone who turns `years` old on `day` (YYYY-MM-DD, not 29 Feb). */
const birthDateYearsAgoOn = (day: string, years: number) =>
  `${Number(day.slice(0, 4)) - years}${day.slice(4)}`;

function call(method: 'GET' | 'PUT' | 'POST', url: string, user?: SignedInUser, payload?: object) {
  return subject.app.inject({ method, url, headers: user?.headers ?? {}, payload });
}

function answers(overrides: Partial<QuestionnaireAnswers> = {}): QuestionnaireAnswers {
  return { weightKg: 64, firstTimeDonor: false, feelsWell: true, conditions: [], ...overrides };
}

async function putAnswers(donor: SignedInUser, body: QuestionnaireAnswers) {
  const res = await call('PUT', `/api/v1/users/${donor.row.id}/questionnaire`, donor, {
    answers: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return questionnaireSchema.parse(res.json().data.questionnaire);
}

async function review(admin: SignedInUser, donorId: string, decision: 'accepted' | 'rejected') {
  const res = await call('PUT', `/api/v1/admin/donors/${donorId}/questionnaire/review`, admin, {
    decision,
    notes: decision === 'rejected' ? 'Answers do not match the screening at the camp' : undefined,
  });
  expect(res.statusCode, res.body).toBe(200);
  return questionnaireSchema.parse(res.json().data.questionnaire);
}

async function readQuestionnaire(admin: SignedInUser, donorId: string) {
  const res = await call('GET', `/api/v1/users/${donorId}/questionnaire`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return questionnaireSchema.parse(res.json().data.questionnaire);
}

let addressSequence = 0;
/** A guest's O- request at central Hyderabad, verified by `admin`: how many donors were told. */
async function matchNow(admin: SignedInUser): Promise<string[]> {
  addressSequence += 1;
  const created = await subject.app.inject({
    method: 'POST',
    url: '/api/v1/blood-requests',
    payload: requestBody({ bloodType: 'O-' }),
    remoteAddress: `198.51.100.${addressSequence % 250}`,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.request.id as string;
  const verified = await call('PUT', `/api/v1/blood-requests/${id}/status`, admin, {
    status: 'verified',
    notes: 'Called the hospital',
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const rows = await db()
    .select({ userId: notifications.userId, link: notifications.link })
    .from(notifications)
    .where(eq(notifications.type, 'blood_request.match'));
  return rows.filter((row) => row.link?.includes(id)).map((row) => row.userId);
}

const adminNotes = async (adminId: string) =>
  db()
    .select({ type: notifications.type, link: notifications.link, message: notifications.message })
    .from(notifications)
    .where(eq(notifications.userId, adminId));

describe("an administrator's questionnaire review", () => {
  it('stands when the donor saves the same answers again', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { now: clock });
    await putAnswers(donor, answers({ hemoglobinGdl: 13.1 }));
    const rejected = await review(admin, donor.row.id, 'rejected');
    expect(rejected.review).toMatchObject({ decision: 'rejected', reviewedBy: admin.row.id });

    // The same answers, keys and conditions in another order.
    const again = await putAnswers(donor, {
      conditions: [],
      feelsWell: true,
      hemoglobinGdl: 13.1,
      firstTimeDonor: false,
      weightKg: 64,
    });
    expect(again.review).toMatchObject({ decision: 'rejected', reviewedBy: admin.row.id });
    expect(again.reviewRequired).toBeNull();
    const stored = await readQuestionnaire(admin, donor.row.id);
    expect(stored.review?.decision).toBe('rejected');
    // Still out of matching, and no administrator was told of anything new.
    expect(await matchNow(admin)).toEqual([]);
    expect((await adminNotes(admin.row.id)).map((n) => n.type)).not.toContain(
      'questionnaire.review_reopened',
    );
  });

  it('is reopened by a changed answer: the administrators are told, no matching until they decide', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { now: clock });
    await putAnswers(donor, answers());
    await review(admin, donor.row.id, 'rejected');

    const changed = await putAnswers(donor, answers({ weightKg: 70 }));
    expect(changed.review).toBeNull();
    expect(changed.reviewRequired).toBe('changed_after_rejection');
    const notes = await adminNotes(admin.row.id);
    expect(notes).toContainEqual(
      expect.objectContaining({
        type: 'questionnaire.review_reopened',
        link: `/admin/verification?donor=${donor.row.id}`,
      }),
    );
    // No health detail in a notification that may show on a lock screen.
    expect(notes.find((n) => n.type === 'questionnaire.review_reopened')!.message).not.toMatch(
      /70/,
    );
    const [logged] = await db()
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.action, 'questionnaire.review_required'),
          eq(activityLog.targetId, donor.row.id),
        ),
      );
    expect(logged?.details).toEqual({ reason: 'changed_after_rejection' });
    expect(await matchNow(admin)).toEqual([]);

    // Changing again keeps it waiting; the review decides.
    expect((await putAnswers(donor, answers({ weightKg: 71 }))).reviewRequired).toBe(
      'changed_after_rejection',
    );
    expect(await matchNow(admin)).toEqual([]);
    const accepted = await review(admin, donor.row.id, 'accepted');
    expect(accepted.reviewRequired).toBeNull();
    expect(await matchNow(admin)).toEqual([donor.row.id]);
  });
});

describe('an approved donor who removes a permanent deferral', () => {
  it('goes back to review and out of matching until an administrator decides', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { now: clock });
    const declared = await putAnswers(donor, answers({ conditions: ['hiv'] }));
    expect(declared.deferrals).toContainEqual(
      expect.objectContaining({ code: 'hiv', permanent: true }),
    );
    expect(await matchNow(admin)).toEqual([]);

    const removed = await putAnswers(donor, answers());
    expect(removed).toMatchObject({ eligible: true, reviewRequired: 'permanent_deferral_removed' });
    expect(await adminNotes(admin.row.id)).toContainEqual(
      expect.objectContaining({
        type: 'questionnaire.permanent_deferral_removed',
        link: `/admin/verification?donor=${donor.row.id}`,
      }),
    );
    const [row] = await db()
      .select({ reason: questionnaires.reviewRequiredReason })
      .from(questionnaires)
      .where(eq(questionnaires.userId, donor.row.id));
    expect(row?.reason).toBe('permanent_deferral_removed');
    expect(await matchNow(admin)).toEqual([]);

    const rejected = await review(admin, donor.row.id, 'rejected');
    expect(rejected.reviewRequired).toBeNull();
    expect(await matchNow(admin)).toEqual([]);
    await review(admin, donor.row.id, 'accepted');
    expect(await matchNow(admin)).toEqual([donor.row.id]);
  });
});

describe('eligibility at matching time', () => {
  it('leaves out a donor who turned 66 after saving the answers', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { now: clock });
    // 66 in ten days.
    const dateOfBirth = birthDateYearsAgoOn(todayInIndia(clock + 10 * DAY), 66);
    await db().update(users).set({ dateOfBirth }).where(eq(users.id, donor.row.id));
    expect((await putAnswers(donor, answers())).eligible).toBe(true);
    expect(await matchNow(admin)).toEqual([donor.row.id]);
    clock += 11 * DAY;
    expect(await matchNow(await signIn(subject.app, db(), { role: 'admin' }))).toEqual([]);
  });

  it('leaves out a first-time donor who turned 61 before a first donation', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { now: clock });
    const dateOfBirth = birthDateYearsAgoOn(todayInIndia(clock + 5 * DAY), 61);
    await db().update(users).set({ dateOfBirth }).where(eq(users.id, donor.row.id));
    expect((await putAnswers(donor, answers({ firstTimeDonor: true }))).eligible).toBe(true);
    expect(await matchNow(admin)).toEqual([donor.row.id]);
    clock += 6 * DAY;
    const later = await signIn(subject.app, db(), { role: 'admin' });
    expect(await matchNow(later)).toEqual([]);
    const now = await readQuestionnaire(later, donor.row.id);
    expect(now.deferrals.map((d) => d.code)).toEqual(['first_time_over_max']);
  });

  it('tells a donor once a timed deferral has ended, and not before', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { now: clock });
    const today = todayInIndia(clock);
    const saved = await putAnswers(
      donor,
      answers({ conditions: ['covid_vaccine'], conditionDates: { covid_vaccine: today } }),
    );
    const ends = startOfIndianDay(
      new Date(Date.parse(`${today}T00:00:00Z`) + 14 * DAY).toISOString().slice(0, 10),
    );
    expect(saved.nextEligibleAt).toBe(ends.toISOString());
    expect(await matchNow(admin)).toEqual([]);
    clock = ends.getTime() - 1;
    const later = await signIn(subject.app, db(), { role: 'admin' });
    expect(await matchNow(later)).toEqual([]);
    clock = ends.getTime();
    expect(await matchNow(later)).toEqual([donor.row.id]);
  });
});

describe('a recorded donation', () => {
  it('lifts the "first-time donor over 60" deferral, in replies and in matching', async () => {
    const admin = await signIn(subject.app, db(), { role: 'admin' });
    const donor = await makeDonor(subject.app, db(), { now: clock });
    const dateOfBirth = birthDateYearsAgoOn(todayInIndia(clock), 62);
    await db().update(users).set({ dateOfBirth }).where(eq(users.id, donor.row.id));
    const saved = await putAnswers(donor, answers({ firstTimeDonor: true }));
    expect(saved.deferrals.map((d) => d.code)).toEqual(['first_time_over_max']);
    expect(await matchNow(admin)).toEqual([]);

    const donatedAt = todayInIndia(clock - 100 * DAY);
    const recorded = await call('POST', '/api/v1/donations', admin, {
      donorId: donor.row.id,
      donatedAt,
      place: 'Osmania General Hospital blood centre',
    });
    expect(recorded.statusCode, recorded.body).toBe(201);

    const after = await readQuestionnaire(admin, donor.row.id);
    expect(after).toMatchObject({ eligible: true, deferrals: [] });
    expect(await matchNow(admin)).toEqual([donor.row.id]);
  });
});

describe('Indian dates (00:00–05:30 IST)', () => {
  it("accepts today's Indian date for a condition at 00:30 IST, and ends it at 00:00 IST", async () => {
    // 00:30 IST on 16 June; the UTC date is still 15 June.
    clock = Date.parse('2026-06-15T19:00:00.000Z');
    const donor = await makeDonor(subject.app, db(), { now: clock });
    const saved = await putAnswers(
      donor,
      answers({ conditions: ['dental_work'], conditionDates: { dental_work: '2026-06-16' } }),
    );
    // 72 hours from the end of 16 June: 00:00 IST on 20 June.
    expect(saved.deferrals).toEqual([
      expect.objectContaining({ code: 'dental_work', until: '2026-06-19T18:30:00.000Z' }),
    ]);
    const future = await call('PUT', `/api/v1/users/${donor.row.id}/questionnaire`, donor, {
      answers: answers({ conditions: ['alcohol'], conditionDates: { alcohol: '2026-06-17' } }),
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details).toContainEqual(
      expect.objectContaining({ path: 'body.answers.conditionDates.alcohol' }),
    );
  });

  it("takes a donation reported for today's Indian date at 00:30 IST", async () => {
    clock = Date.parse('2026-06-15T19:00:00.000Z');
    const donor = await makeDonor(subject.app, db(), { now: clock });
    const res = await call('POST', `/api/v1/users/${donor.row.id}/donations`, donor, {
      donatedAt: '2026-06-16',
      place: 'Red Cross blood centre, Hyderabad',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.donation.donatedAt.slice(0, 10)).toBe('2026-06-16');
    const tomorrow = await call('POST', `/api/v1/users/${donor.row.id}/donations`, donor, {
      donatedAt: '2026-06-17',
      place: 'Red Cross blood centre, Hyderabad',
    });
    expect(tomorrow.statusCode).toBe(400);
  });

  it('refuses an availability end day that is already over in India', async () => {
    clock = Date.parse('2026-06-15T19:00:00.000Z');
    const donor = await makeDonor(subject.app, db(), { now: clock });
    const yesterday = await call('PUT', `/api/v1/users/${donor.row.id}/availability`, donor, {
      available: true,
      until: '2026-06-15',
    });
    expect(yesterday.statusCode).toBe(400);
    const today = await call('PUT', `/api/v1/users/${donor.row.id}/availability`, donor, {
      available: true,
      until: '2026-06-16',
    });
    expect(today.statusCode, today.body).toBe(200);
    expect(today.json().data).toMatchObject({ available: true, until: '2026-06-16' });
  });
});
