import { createPeriodicJob } from '../../lib/periodic-job';
import {
  AVAILABILITY_TTL_DAYS,
  ELIGIBILITY_RULES,
  indianDate,
  nextEligibleAfterDonation,
  nextEligibleAfterLastDonation,
  selectionDeferral,
  TIMED_DEFERRALS,
  todayInIndia,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import { createActivityLog } from '../../lib/activity-log';
import {
  AVAILABILITY_REMINDER_DAYS,
  availabilityExpiresAt,
  availableUntilEnd,
} from '../../lib/availability';
import type { MailLogger } from '../notifications/mail/mailer';
import type { Notifier } from '../notifications/notifier';
import { localDate } from '../notifications/templates';
import { createDonorsRepository } from './donors.repository';

const DAY_MS = 86_400_000;
export const AVAILABILITY_JOB_INTERVAL_MS = 60 * 60_000;
/**
 * "You can give blood again" goes out only within this many days of the day the donor became
 * eligible: a server that was down, or the first run after this shipped, does not tell donors
 * who have been eligible for months.
 */
export const ELIGIBILITY_REMINDER_WINDOW_DAYS = 3;
/**
 * The longest timed deferral in days (a month counted as 31): one declared after a donation can
 * move "again" that far past the interval. A later one is no longer news about that donation.
 */
const LONGEST_TIMED_DEFERRAL_DAYS = Math.max(
  ...Object.values(TIMED_DEFERRALS).map(({ period }) =>
    'months' in period
      ? period.months * 31
      : 'days' in period
        ? period.days
        : Math.ceil(period.hoursAfterDay / 24) + 1,
  ),
);

export interface AvailabilityJobDeps {
  db: Db;
  notifier: Pick<Notifier, 'notify' | 'kick'>;
  now?: () => number;
  logger?: MailLogger;
  intervalMs?: number;
}

/**
 * Hourly: reminds donors whose availability lapses within 7 days (once per confirmation), turns
 * off availability that lapsed or whose `until` day passed, so the column matching reads stays
 * true, and tells donors whose deferral after a donation has ended that they can give blood
 * again (issue #18: once per donation, from 00:00 IST of the day they are eligible). Safe to run
 * on several servers at once: each reminder is claimed by one update.
 */
export function createAvailabilityJob(deps: AvailabilityJobDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  /**
   * Donors eligible again since at most ELIGIBILITY_REMINDER_WINDOW_DAYS, not yet told. Issue #32
   * item 1: "eligible" is the matcher's own decision (`selectionDeferral`: the interval, every
   * deferral of the answers evaluated now, a review holding the answers, the age limits; the
   * query keeps approved, not erased donors), and the date is the one the evaluation gives, so
   * a donor deferred past the interval (Zika, surgery…) hears nothing until that deferral ends,
   * then hears that date, still once per donation. A deferral without an end date (pregnancy,
   * a permanent condition, a review, age 66) keeps them silent; when one is lifted later than
   * the window after the date, there is no reminder for that donation.
   */
  async function tellEligibleAgain(at: number): Promise<number> {
    const shortest = Math.min(...Object.values(ELIGIBILITY_RULES.donationIntervalDays));
    const longest = Math.max(...Object.values(ELIGIBILITY_RULES.donationIntervalDays));
    // A day either side: the interval counts Indian days from the donation's Indian day.
    const candidates = await createDonorsRepository(db).listDueEligibilityReminder(
      new Date(
        at -
          (longest + LONGEST_TIMED_DEFERRAL_DAYS + ELIGIBILITY_REMINDER_WINDOW_DAYS + 1) * DAY_MS,
      ),
      new Date(at - (shortest - 1) * DAY_MS),
    );
    let told = 0;
    for (const donor of candidates) {
      const lastDonationAt = donor.lastDonationAt!;
      if (selectionDeferral(donor, at) !== null) continue;
      const eligibleAt = donor.questionnaire
        ? (nextEligibleAfterLastDonation({
            dateOfBirth: donor.dateOfBirth,
            gender: donor.gender,
            answers: donor.questionnaire.answers,
            lastDonationAt,
          }) ?? nextEligibleAfterDonation(lastDonationAt, donor.gender))
        : nextEligibleAfterDonation(lastDonationAt, donor.gender);
      if (eligibleAt.getTime() > at) continue;
      if (eligibleAt.getTime() <= at - ELIGIBILITY_REMINDER_WINDOW_DAYS * DAY_MS) continue;
      const sent = await db.transaction(async (tx) => {
        if (!(await createDonorsRepository(tx).markEligibilityReminded(donor.id, lastDonationAt)))
          return false;
        await deps.notifier.notify(tx, donor.id, {
          type: 'donor.eligible_again',
          params: { date: localDate(eligibleAt) },
          link: '/dashboard',
          reachOut: true,
        });
        await createActivityLog(tx).record({
          action: 'eligibility.reminded',
          targetType: 'user',
          targetId: donor.id,
          details: { eligibleFrom: indianDate(eligibleAt) },
        });
        return true;
      });
      if (sent) told += 1;
    }
    return told;
  }

  async function runOnce(): Promise<{ reminded: number; lapsed: number; eligibleAgain: number }> {
    const at = now();
    const repo = createDonorsRepository(db);
    const expiredBefore = new Date(at - AVAILABILITY_TTL_DAYS * DAY_MS);
    const windowStart = new Date(
      at - (AVAILABILITY_TTL_DAYS - AVAILABILITY_REMINDER_DAYS) * DAY_MS,
    );
    let reminded = 0;
    for (const donor of await repo.listToRemind(windowStart, expiredBefore)) {
      const expiresAt = availabilityExpiresAt({ ...donor, available: true });
      // A donor whose own `until` ends first chose that end: nothing to reconfirm.
      if (
        !expiresAt ||
        (donor.availableUntil && availableUntilEnd(donor.availableUntil) < expiresAt)
      ) {
        continue;
      }
      const sent = await db.transaction(async (tx) => {
        if (!(await createDonorsRepository(tx).markReminded(donor.id, new Date(at)))) return false;
        await deps.notifier.notify(tx, donor.id, {
          type: 'availability.expiring',
          params: { date: localDate(expiresAt) },
          link: '/dashboard',
        });
        return true;
      });
      if (sent) reminded += 1;
    }
    const lapsed = await db.transaction(async (tx) => {
      const rows = await createDonorsRepository(tx).markLapsed(
        expiredBefore,
        // The `until` day is an Indian day (it ends at 24:00 IST).
        todayInIndia(at),
      );
      const activity = createActivityLog(tx);
      for (const row of rows) {
        await activity.record({
          action: 'availability.lapsed',
          targetType: 'user',
          targetId: row.id,
        });
      }
      return rows.length;
    });
    const eligibleAgain = await tellEligibleAgain(at);
    if (reminded > 0 || eligibleAgain > 0) deps.notifier.kick();
    return { reminded, lapsed, eligibleAgain };
  }

  return createPeriodicJob({
    name: 'availability job',
    intervalMs: deps.intervalMs ?? AVAILABILITY_JOB_INTERVAL_MS,
    logger: deps.logger,
    runOnce,
  });
}

export type AvailabilityJob = ReturnType<typeof createAvailabilityJob>;
