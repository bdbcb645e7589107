import { z } from 'zod';
import { URGENCIES } from './constants';

/**
 * The monthly report for administrators (feature flag `analyticsReporting`, issue #21). A month
 * is an Indian calendar month: from the 1st 00:00 IST (UTC+5:30, no daylight saving) to the
 * next 1st 00:00 IST.
 */
export const REPORT_MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const reportMonthSchema = z
  .string()
  .regex(REPORT_MONTH_PATTERN, 'must be a month written YYYY-MM, e.g. 2026-03');

export const monthlyReportQuerySchema = z.object({
  /** Default: the last complete month in India. */
  month: reportMonthSchema.optional(),
});
export type MonthlyReportQuery = z.infer<typeof monthlyReportQuerySchema>;

/** What became of a request: still open (pending, verified, in progress) or how it closed. */
export const REQUEST_OUTCOMES = ['open', 'fulfilled', 'cancelled', 'expired'] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

const count = z.number().int().nonnegative();

const outcomeCountsSchema = z.object(
  Object.fromEntries(REQUEST_OUTCOMES.map((outcome) => [outcome, count])) as Record<
    RequestOutcome,
    typeof count
  >,
);

export const monthlyReportStateRowSchema = z.object({
  /** The state as donors and requesters wrote it; null: none given. */
  state: z.string().nullable(),
  registrations: count,
  approvals: count,
  requests: count,
  donations: count,
});
export type MonthlyReportStateRow = z.infer<typeof monthlyReportStateRowSchema>;

export const monthlyReportSchema = z.object({
  month: z.string(),
  /** The month's bounds in India, as instants (ISO 8601, UTC). */
  from: z.string(),
  until: z.string(),
  /** false while the month is still running (figures so far). */
  complete: z.boolean(),
  totals: z.object({
    /** Donor accounts created in the month (erased ones included: the registration happened). */
    registrations: count,
    /** Donors approved by an administrator in the month. */
    approvals: count,
    /** Blood requests made in the month. */
    requests: count,
    /** Donations made in the month (recorded and reported), and their units. */
    donations: count,
    donationUnits: count,
  }),
  /** Requests made in the month by urgency, each by what became of it (as of now). */
  requestsByUrgency: z.object(
    Object.fromEntries(URGENCIES.map((urgency) => [urgency, outcomeCountsSchema])) as Record<
      (typeof URGENCIES)[number],
      typeof outcomeCountsSchema
    >,
  ),
  /** Time from a request (made in the month) to the first donor who accepted it. */
  firstAcceptance: z.object({
    /** Requests of the month that at least one donor accepted. */
    accepted: count,
    medianMinutes: z.number().nonnegative().nullable(),
    averageMinutes: z.number().nonnegative().nullable(),
  }),
  /** One row per state, most active first; a state with nothing in the month is left out. */
  byState: z.array(monthlyReportStateRowSchema),
  /** One entry per Indian day of the month (to today while it runs), oldest first, zero-filled. */
  days: z.array(
    z.object({
      date: z.string(),
      registrations: count,
      requests: count,
      donations: count,
    }),
  ),
});
export type MonthlyReport = z.infer<typeof monthlyReportSchema>;
