import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionnaireAnswers } from '@bdms/shared';
import { activityLog, notifications, questionnaires, users } from '../../db/schema';
import { healthyAnswers, signIn } from '../../test/donor-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

const DAY = 86_400_000;
let testDb: TestDatabase;
let subject: TestApp;
let time = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await subject?.close();
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

async function start(at: number) {
  time = at;
  subject = await createTestApp({
    database: testDb.database,
    services: { backgroundJobs: false, now: () => time },
  });
}

async function donor(options: {
  lastDonationAt: Date | null;
  gender?: 'male' | 'female';
  status?: 'approved' | 'suspended';
  dateOfBirth?: string;
  /** Saved answers, stored with an "eligible" verdict the job must not trust. */
  answers?: Partial<QuestionnaireAnswers>;
  reviewDecision?: 'accepted' | 'rejected';
}) {
  const signedIn = await signIn(subject.app, db(), {
    status: options.status ?? 'approved',
    gender: options.gender ?? 'male',
    ...(options.dateOfBirth ? { dateOfBirth: options.dateOfBirth } : {}),
  });
  await db()
    .update(users)
    .set({ lastDonationAt: options.lastDonationAt })
    .where(eq(users.id, signedIn.row.id));
  if (options.answers) {
    await db()
      .insert(questionnaires)
      .values({
        userId: signedIn.row.id,
        answers: healthyAnswers({ firstTimeDonor: false, ...options.answers }),
        eligible: true,
        nextEligibleAt: null,
        deferrals: [],
        submittedAt: new Date(time - 200 * DAY),
        reviewDecision: options.reviewDecision ?? null,
      });
  }
  return signedIn.row.id;
}

const eligibleNotes = (userId: string) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'donor.eligible_again')));

const run = () => subject.app.services.availabilityJob.runOnce();

describe('the availability job: "You can give blood again"', () => {
  it('tells a donor once, from 00:00 IST of the day they are eligible (not the UTC day)', async () => {
    // 01:30 IST on 11 March 2026 (still 10 March in UTC): the donation's Indian day is 11 March,
    // so a man may give again from 11 March + 90 days = 9 June 2026, 00:00 IST (18:30 UTC 8 June).
    const donatedAt = new Date('2026-03-10T20:00:00.000Z');
    await start(Date.parse('2026-06-08T18:29:59.000Z'));
    const id = await donor({ lastDonationAt: donatedAt });

    // 23:59:59 IST on 8 June: not yet (counting from the UTC day would already say yes).
    expect((await run()).eligibleAgain).toBe(0);
    expect(await eligibleNotes(id)).toHaveLength(0);

    time = Date.parse('2026-06-08T18:30:00.000Z');
    expect((await run()).eligibleAgain).toBe(1);
    const notes = await eligibleNotes(id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ title: 'You can give blood again', link: '/dashboard' });
    expect(notes[0]!.message).toContain('9 June 2026');
    const [row] = await db().select().from(users).where(eq(users.id, id));
    expect(row!.eligibilityRemindedFor?.getTime()).toBe(donatedAt.getTime());
    const logged = await db()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.targetId, id), eq(activityLog.action, 'eligibility.reminded')));
    expect(logged.map((entry) => entry.details)).toEqual([{ eligibleFrom: '2026-06-09' }]);

    // Idempotent: later runs (the same day, the next day) tell nobody again.
    expect((await run()).eligibleAgain).toBe(0);
    time += DAY;
    expect((await run()).eligibleAgain).toBe(0);
    expect(await eligibleNotes(id)).toHaveLength(1);

    // A new donation is a new eligibility: told again when that one ends.
    const next = new Date('2026-06-12T04:00:00.000Z'); // 09:30 IST, 12 June
    await db().update(users).set({ lastDonationAt: next }).where(eq(users.id, id));
    time = Date.parse('2026-09-09T18:29:00.000Z'); // 23:59 IST on 9 September
    expect((await run()).eligibleAgain).toBe(0);
    time = Date.parse('2026-09-09T18:31:00.000Z'); // 00:01 IST on 10 September = 12 June + 90
    expect((await run()).eligibleAgain).toBe(1);
    expect(await eligibleNotes(id)).toHaveLength(2);
  });

  it('waits 120 days for a woman, and tells nobody eligible long ago, suspended or never donated', async () => {
    const at = Date.parse('2026-06-08T18:30:00.000Z'); // 00:00 IST, 9 June
    await start(at);
    // 11 March (IST) + 90 days is 9 June, but a woman waits 120 days.
    const woman = await donor({
      lastDonationAt: new Date('2026-03-10T20:00:00.000Z'),
      gender: 'female',
    });
    // Eligible since 10 May: a month ago, not news.
    const longAgo = await donor({ lastDonationAt: new Date('2026-02-09T06:00:00.000Z') });
    const suspended = await donor({
      lastDonationAt: new Date('2026-03-10T20:00:00.000Z'),
      status: 'suspended',
    });
    const never = await donor({ lastDonationAt: null });
    expect((await run()).eligibleAgain).toBe(0);
    for (const id of [woman, longAgo, suspended, never]) {
      expect(await eligibleNotes(id)).toHaveLength(0);
    }
    // 11 March + 120 days = 9 July, 00:00 IST.
    time = Date.parse('2026-07-08T18:30:00.000Z');
    expect((await run()).eligibleAgain).toBe(1);
    expect(await eligibleNotes(woman)).toHaveLength(1);
    expect(await eligibleNotes(suspended)).toHaveLength(0);
  });

  it('tells nobody the matcher would not choose, and names the date the evaluation gives (#32 item 1)', async () => {
    // 00:00 IST on 9 June 2026: a man who gave at 01:30 IST on 11 March may give again (90 days).
    const donatedAt = new Date('2026-03-10T20:00:00.000Z');
    await start(Date.parse('2026-06-08T18:30:00.000Z'));
    const healthy = await donor({ lastDonationAt: donatedAt, answers: {} });
    // A woman (120 days: 9 July) who declared she is pregnant.
    const pregnant = await donor({
      lastDonationAt: donatedAt,
      gender: 'female',
      answers: { conditions: ['pregnant'] },
    });
    // A permanent condition (NBTC 2017: leprosy).
    const leprosy = await donor({
      lastDonationAt: donatedAt,
      answers: { conditions: ['leprosy'] },
    });
    // Back from a Zika area on 10 May: 120 days, to 7 September, 90 days after the interval.
    const zika = await donor({
      lastDonationAt: donatedAt,
      answers: { conditions: ['zika_travel'], conditionDates: { zika_travel: '2026-05-10' } },
    });
    // Born 9 June 1960: 66 from 00:00 IST today, over the limit of 65 (Schedule F XII-B).
    const sixtySix = await donor({ lastDonationAt: donatedAt, dateOfBirth: '1960-06-09' });
    // An administrator rejected these answers: held out of matching until a new review.
    const rejected = await donor({
      lastDonationAt: donatedAt,
      answers: {},
      reviewDecision: 'rejected',
    });
    const silent = [pregnant, leprosy, zika, sixtySix, rejected];

    expect((await run()).eligibleAgain).toBe(1);
    const [note] = await eligibleNotes(healthy);
    expect(note!.message).toContain('9 June 2026');
    for (const id of silent) expect(await eligibleNotes(id)).toHaveLength(0);
    // Not claimed either: a deferral that ends later still lets them hear the true date.
    const [zikaRow] = await db().select().from(users).where(eq(users.id, zika));
    expect(zikaRow!.eligibilityRemindedFor).toBeNull();

    // 00:00 IST on 9 July: the woman's interval is over, but she is still pregnant.
    time = Date.parse('2026-07-08T18:30:00.000Z');
    expect((await run()).eligibleAgain).toBe(0);
    for (const id of silent) expect(await eligibleNotes(id)).toHaveLength(0);

    // 23:59:59 IST on 6 September: one second of the Zika deferral left.
    time = Date.parse('2026-09-06T18:29:59.000Z');
    expect((await run()).eligibleAgain).toBe(0);
    // 00:00 IST on 7 September: told, with that date (not the interval's 9 June), once.
    time = Date.parse('2026-09-06T18:30:00.000Z');
    expect((await run()).eligibleAgain).toBe(1);
    const zikaNotes = await eligibleNotes(zika);
    expect(zikaNotes).toHaveLength(1);
    expect(zikaNotes[0]!.message).toContain('7 September 2026');
    const logged = await db()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.targetId, zika), eq(activityLog.action, 'eligibility.reminded')));
    expect(logged.map((entry) => entry.details)).toEqual([{ eligibleFrom: '2026-09-07' }]);
    time += DAY;
    expect((await run()).eligibleAgain).toBe(0);
    for (const id of [pregnant, leprosy, sixtySix, rejected]) {
      expect(await eligibleNotes(id)).toHaveLength(0);
    }
    expect(await eligibleNotes(healthy)).toHaveLength(1);
    expect(await eligibleNotes(zika)).toHaveLength(1);
  });
});
