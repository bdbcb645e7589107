import {
  MESSAGE_LANGUAGES,
  monthlyReportQuerySchema,
  monthlyReportSchema,
  successEnvelope,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../lib/content-disposition';
import { errorResponses } from '../../lib/route-schemas';
import { requireActiveAccount, requireRole } from '../../plugins/auth';
import { reportCsv, reportPdf } from './report-files';
import type { ReportsService } from './reports.service';

const BEARER = [{ bearerAuth: [] }];

export interface ReportsRoutesOptions {
  reports: ReportsService;
  now: () => number;
}

const FLAG_NOTE =
  'Only while the feature flag `analyticsReporting` is on: off, every report route answers 404 NOT_FOUND ' +
  '(the console hides the page).';

const MONTH_NOTE =
  '`month` is an Indian calendar month `YYYY-MM` (from the 1st 00:00 IST to the next 1st 00:00 IST); default: ' +
  'the last complete month. A month after the current one (in India) or before 2020-01 is 400.';

const fileQuerySchema = monthlyReportQuerySchema.extend({
  /** The PDF's language; default English. */
  lang: z.enum(MESSAGE_LANGUAGES).optional(),
});

/**
 * The administrators' monthly report (feature flag `analyticsReporting`, issue #21): JSON for
 * the console's charts, CSV and PDF downloads. The e-mail on the 1st is reports.job.ts.
 */
export const reportsRoutes: FastifyPluginAsyncZod<ReportsRoutesOptions> = async (
  app,
  { reports, now },
) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireRole('admin'));
  app.addHook('onRequest', requireActiveAccount);

  app.get(
    '/api/v1/reports/monthly',
    {
      schema: {
        tags: ['reports'],
        summary: 'The monthly report (admin)',
        description:
          `${MONTH_NOTE} Figures: \`totals\` — donor registrations (accounts created, erased ones included), ` +
          'approvals (`donor.approved` in the activity log), blood requests made (not a guest’s request whose phone ' +
          'code never came back), donations made (recorded and ' +
          'reported, by donation date) and their units; `requestsByUrgency` — requests made in the month by urgency, ' +
          'each by outcome now (`open` = pending, verified or in progress); `firstAcceptance` — of those requests, ' +
          'how many a donor accepted, and the median and mean minutes to the first acceptance (one later withdrawn ' +
          'counts when it was given); `byState` — the same ' +
          'counts per state (the donor’s state; a request’s own state; a donation by the donor’s state, else its ' +
          'request’s), most active first, `state: null` when none was given; `days` — each Indian day’s ' +
          'registrations, requests and donations, zero-filled, up to today while the month runs (`complete: false`). ' +
          FLAG_NOTE,
        security: BEARER,
        querystring: monthlyReportQuerySchema,
        response: {
          200: successEnvelope(monthlyReportSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await reports.monthly(request.query.month),
    }),
  );

  app.get(
    '/api/v1/reports/monthly.csv',
    {
      schema: {
        tags: ['reports'],
        summary: 'The monthly report as CSV (admin)',
        description:
          `${MONTH_NOTE} \`text/csv; charset=utf-8\`, saved as \`report-YYYY-MM.csv\`, one fact a row: ` +
          '`section,key,metric,value` with sections `report`, `totals`, `requests` (key: urgency, metric: outcome), ' +
          '`first_acceptance`, `state` (key: the state) and `day` (key: the Indian date). A cell starting with `=`, ' +
          `\`+\`, \`-\`, \`@\`, a tab or a carriage return is prefixed with a single quote (CSV injection). ${FLAG_NOTE}`,
        security: BEARER,
        querystring: monthlyReportQuerySchema,
        response: {
          200: z.unknown().describe('The CSV file (text/csv; charset=utf-8)'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const report = await reports.monthly(request.query.month);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(`report-${report.month}.csv`))
        .header('cache-control', 'private, no-store')
        .send(`\uFEFF${reportCsv(report)}`);
    },
  );

  app.get(
    '/api/v1/reports/monthly.pdf',
    {
      schema: {
        tags: ['reports'],
        summary: 'The monthly report as PDF (admin)',
        description:
          `${MONTH_NOTE} \`lang\` (en, es, hi, bn, mr, te, ta; default en) is the document’s language. A4, saved as ` +
          `\`report-YYYY-MM.pdf\`: headline figures, a bar chart per day of registrations, requests and donations, ` +
          `requests by urgency and outcome, time to the first accepted donor, the table by state. ${FLAG_NOTE}`,
        security: BEARER,
        querystring: fileQuerySchema,
        response: {
          200: z.unknown().describe('The PDF file (application/pdf)'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const report = await reports.monthly(request.query.month);
      const pdf = await reportPdf(report, request.query.lang, new Date(now()));
      return reply
        .type('application/pdf')
        .header('content-disposition', attachmentDisposition(`report-${report.month}.pdf`))
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );
};
