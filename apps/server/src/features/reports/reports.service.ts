import {
  IST_OFFSET_MS,
  REQUEST_OUTCOMES,
  URGENCIES,
  startOfIndianDay,
  todayInIndia,
  type MonthlyReport,
  type MonthlyReportStateRow,
  type RequestOutcome,
} from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { MailLogger, Mailer } from '../notifications/mail/mailer';
import { mailLanguage, renderMailLayout } from '../notifications/mail/templates';
import type { FlagsService } from '../flags/flags.service';
import { monthName, reportTexts } from './report-texts';
import { createReportsRepository, type DayStateCount } from './reports.repository';

/** The first month a report can be asked for (nothing in the platform is older). */
export const FIRST_REPORT_MONTH = '2020-01';
/**
 * The e-mail goes out on the 1st (India); a server that was down then sends it at its first run
 * in the month's first SEND_WINDOW_DAYS days, never later (a stale report is not news).
 */
export const SEND_WINDOW_DAYS = 3;

/** The Indian calendar month (YYYY-MM) of an instant. */
export function indianMonthOf(at: number): string {
  return new Date(at + IST_OFFSET_MS).toISOString().slice(0, 7);
}

export function previousMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber - 2, 1)).toISOString().slice(0, 7);
}

/** The month's bounds: the 1st 00:00 IST to the next 1st 00:00 IST. */
export function monthWindow(month: string): { from: Date; until: Date } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(year, monthNumber, 1)).toISOString().slice(0, 10);
  return { from: startOfIndianDay(`${month}-01`), until: startOfIndianDay(next) };
}

function outcomeOf(status: string): RequestOutcome {
  return status === 'fulfilled' || status === 'cancelled' || status === 'expired' ? status : 'open';
}

export interface ReportsServiceDeps {
  db: Db;
  flags: Pick<FlagsService, 'getFlags'>;
  mail: Pick<Mailer, 'isConfigured' | 'enqueue' | 'kick'>;
  config: Pick<Config, 'publicUrl'>;
  now?: () => number;
  logger?: MailLogger;
}

export function createReportsService(deps: ReportsServiceDeps) {
  const now = deps.now ?? Date.now;
  const repository = createReportsRepository(deps.db);

  async function ensureEnabled(): Promise<void> {
    if (!(await deps.flags.getFlags()).analyticsReporting) {
      throw new AppError(
        'NOT_FOUND',
        'Monthly reports are switched off on this server (feature flag analyticsReporting).',
      );
    }
  }

  /** The month asked for, or the last complete one; a month still to come is refused. */
  function resolveMonth(month: string | undefined): string {
    const current = indianMonthOf(now());
    const chosen = month ?? previousMonth(current);
    if (chosen > current || chosen < FIRST_REPORT_MONTH) {
      const message = `"month" must be between ${FIRST_REPORT_MONTH} and ${current} (this month in India).`;
      throw new AppError('VALIDATION_ERROR', message, [{ path: 'month', message }]);
    }
    return chosen;
  }

  async function build(month: string): Promise<MonthlyReport> {
    const window = monthWindow(month);
    const at = now();
    const [registrations, approvals, requests, donations, byUrgency, firsts] = await Promise.all([
      repository.registrations(window),
      repository.approvals(window),
      repository.requests(window),
      repository.donations(window),
      repository.requestsByUrgencyAndStatus(window),
      repository.firstAcceptance(window),
    ]);

    const today = todayInIndia(at);
    const lastDay = new Date(window.until.getTime() + IST_OFFSET_MS - 86_400_000)
      .toISOString()
      .slice(0, 10);
    const days: MonthlyReport['days'] = [];
    const dayIndex = new Map<string, MonthlyReport['days'][number]>();
    for (
      let day = `${month}-01`;
      day <= lastDay && day <= today;
      day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    ) {
      const entry = { date: day, registrations: 0, requests: 0, donations: 0 };
      days.push(entry);
      dayIndex.set(day, entry);
    }

    const states = new Map<string | null, MonthlyReportStateRow>();
    const stateRow = (state: string | null) => {
      let row = states.get(state);
      if (!row) {
        row = { state, registrations: 0, approvals: 0, requests: 0, donations: 0 };
        states.set(state, row);
      }
      return row;
    };
    const add = (
      rows: DayStateCount[],
      metric: 'registrations' | 'approvals' | 'requests' | 'donations',
    ) => {
      let total = 0;
      for (const row of rows) {
        total += row.n;
        stateRow(row.state)[metric] += row.n;
        const day = dayIndex.get(row.day);
        if (day && metric !== 'approvals') day[metric] += row.n;
      }
      return total;
    };

    const requestsByUrgency = Object.fromEntries(
      URGENCIES.map((urgency) => [
        urgency,
        Object.fromEntries(REQUEST_OUTCOMES.map((outcome) => [outcome, 0])),
      ]),
    ) as MonthlyReport['requestsByUrgency'];
    for (const row of byUrgency) {
      const counts = requestsByUrgency[row.urgency as keyof MonthlyReport['requestsByUrgency']];
      if (counts) counts[outcomeOf(row.status)] += row.n;
    }

    const totals = {
      registrations: add(registrations, 'registrations'),
      approvals: add(approvals, 'approvals'),
      requests: add(requests, 'requests'),
      donations: add(donations, 'donations'),
      donationUnits: donations.reduce((sum, row) => sum + row.units, 0),
    };
    const activity = (row: MonthlyReportStateRow) =>
      row.registrations + row.approvals + row.requests + row.donations;
    const byState = [...states.values()].sort(
      (a, b) =>
        activity(b) - activity(a) ||
        // A named state before "not given", then by name.
        (a.state === null ? 1 : 0) - (b.state === null ? 1 : 0) ||
        (a.state ?? '').localeCompare(b.state ?? ''),
    );
    const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

    return {
      month,
      from: window.from.toISOString(),
      until: window.until.toISOString(),
      complete: at >= window.until.getTime(),
      totals,
      requestsByUrgency,
      firstAcceptance: {
        accepted: firsts.accepted,
        medianMinutes: round(firsts.median),
        averageMinutes: round(firsts.average),
      },
      byState,
      days,
    };
  }

  return {
    ensureEnabled,

    /** `GET /reports/monthly`: the report of one Indian month (default: the last complete one). */
    async monthly(month: string | undefined): Promise<MonthlyReport> {
      await ensureEnabled();
      return build(resolveMonth(month));
    },

    /**
     * The timed step (reports.job.ts): on the 1st of a month in India (or within
     * SEND_WINDOW_DAYS after, if no server ran on the 1st), with the flag on and SMTP
     * configured, e-mails last month's report to every administrator, once: the month is
     * claimed by a row in report_deliveries, in the same transaction as the queued e-mails.
     */
    async sendDue(): Promise<{ month: string; recipients: number } | null> {
      const at = now();
      const today = todayInIndia(at);
      if (Number(today.slice(8, 10)) > SEND_WINDOW_DAYS) return null;
      if (!deps.mail.isConfigured) return null;
      if (!(await deps.flags.getFlags()).analyticsReporting) return null;
      const month = previousMonth(today.slice(0, 7));
      const report = await build(month);
      const recipients = await deps.db.transaction(async (tx) => {
        const repo = createReportsRepository(tx);
        if (!(await repo.claimDelivery(month, new Date(at)))) return null;
        const admins = await repo.administrators();
        for (const admin of admins) {
          await deps.mail.enqueue(
            {
              to: admin.email,
              userId: admin.id,
              kind: 'monthly_report',
              ...renderReportMail(report, admin.language, deps.config.publicUrl),
            },
            tx,
          );
        }
        await repo.recordRecipients(month, admins.length);
        return admins.length;
      });
      if (recipients === null) return null;
      deps.mail.kick();
      deps.logger?.info({ month, recipients }, 'monthly report e-mailed');
      return { month, recipients };
    },
  };
}

/** The e-mail: the headline figures and a link to the console's report page. */
export function renderReportMail(report: MonthlyReport, language: string, publicUrl: string) {
  const texts = reportTexts(language);
  const number = new Intl.NumberFormat(texts.locale);
  const month = monthName(report.month, texts.locale);
  const minutes = report.firstAcceptance.medianMinutes;
  return renderMailLayout({
    lang: mailLanguage(language),
    subject: texts.mail.subject(month),
    greeting: texts.mail.greeting,
    intro: texts.mail.intro(month),
    items: [
      `${texts.registrations}: ${number.format(report.totals.registrations)}`,
      `${texts.approvals}: ${number.format(report.totals.approvals)}`,
      `${texts.requests}: ${number.format(report.totals.requests)}`,
      `${texts.donations}: ${number.format(report.totals.donations)} (${texts.units}: ${number.format(report.totals.donationUnits)})`,
      `${texts.firstAcceptance} (${texts.median}): ${minutes === null ? texts.none : texts.minutes(number.format(minutes))}`,
    ],
    highlight: {
      kind: 'link',
      url: `${publicUrl}/admin/reports?month=${report.month}`,
      label: texts.mail.link,
    },
    outro: texts.mail.outro,
    publicUrl,
  });
}

export type ReportsService = ReturnType<typeof createReportsService>;
