import {
  BLOOD_COMPONENT_RULES_SOURCE,
  facilityIdParamsSchema,
  facilityStockSchema,
  paginationQuerySchema,
  stockAvailabilityQuerySchema,
  stockAvailabilitySchema,
  stockHistoryPageSchema,
  stockSummaryQuerySchema,
  stockSummarySchema,
  type StockSummary,
  successEnvelope,
  updateStockSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCachedPublicly } from '../../lib/http-cache';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { attachmentDisposition } from '../../lib/content-disposition';
import { currentUser, requireActiveAccount, requireRole } from '../../plugins/auth';
import type { BloodStockService } from './blood-stock.service';

const BEARER = [{ bearerAuth: [] }];
/** Clients may keep a public stock reply this long; the server's copy is dropped on every write. */
export const STOCK_MAX_AGE_SECONDS = 30;
export const STOCK_RATE_LIMITS = {
  read: { max: 240, timeWindow: '1 minute' },
  write: { max: 60, timeWindow: '1 minute' },
} as const;

const STOCK_REPLY = successEnvelope(facilityStockSchema);
const AVAILABILITY_REPLY = successEnvelope(stockAvailabilitySchema);
const MINE_REPLY = successEnvelope(
  z.object({
    facility: z.object({ id: z.string(), name: z.string() }),
    verificationStatus: z.enum(['pending', 'verified', 'rejected']),
    canUpdate: z.boolean(),
    stock: facilityStockSchema,
  }),
);

const FRESHNESS_NOTE =
  'Each line carries `updatedAt` (when the centre last confirmed it) and `stale` (older than 24 hours: ' +
  'shown as stale, never counted as available). Components: `whole_blood`, `prbc` (packed red cells), ' +
  `\`platelets\`, \`ffp\` (fresh frozen plasma), \`cryo\` (cryoprecipitate); shelf lives per ${BLOOD_COMPONENT_RULES_SOURCE}.`;
const CACHE_NOTE =
  `Cached publicly for ${STOCK_MAX_AGE_SECONDS} s with a weak ETag (\`If-None-Match\` → 304); the server's ` +
  'copy is dropped on every stock write.';

/** A cell a spreadsheet will not run as a formula (CSV injection, OWASP): a leading quote. */
function csvCell(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One row per area (India, then each state) and blood group: fresh units and centres. */
export function stockSummaryCsv(summary: StockSummary): string {
  const rows = [['area', 'component', 'bloodType', 'units', 'centres']];
  const add = (area: string, groups: StockSummary['national']) => {
    for (const group of groups)
      rows.push([
        area,
        summary.component,
        group.bloodType,
        String(group.units),
        String(group.centres),
      ]);
  };
  add('India', summary.national);
  for (const state of summary.states) add(state.state, state.groups);
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

export interface BloodStockRoutesOptions {
  stock: BloodStockService;
}

export const bloodStockRoutes: FastifyPluginAsyncZod<BloodStockRoutesOptions> = async (
  app,
  { stock },
) => {
  app.get(
    '/api/v1/public/facilities/:id/stock',
    {
      config: { rateLimit: STOCK_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['blood-stock'],
        summary: 'What a blood centre holds, per blood group and component',
        description:
          `Empty \`items\` (and \`updatedAt\` null) when the centre has not published stock. ${FRESHNESS_NOTE} ` +
          `Unknown facility: 404. ${CACHE_NOTE}`,
        params: facilityIdParamsSchema,
        response: {
          200: STOCK_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await stock.cached.read(request.params.id);
      sendCachedPublicly(request, reply, entry, STOCK_MAX_AGE_SECONDS, STOCK_REPLY);
      return reply;
    },
  );

  app.get(
    '/api/v1/public/stock/availability',
    {
      config: { rateLimit: STOCK_RATE_LIMITS.read, microCache: true },
      schema: {
        tags: ['blood-stock'],
        summary: 'Blood centres holding a blood group and component now, nearest first',
        description:
          '"O- PRBC within 25 km of PIN 110001": `bloodType`, `component` (default `prbc`) and, as for ' +
          '`GET /api/v1/public/facilities/nearby`, exactly one of `lat`+`lng`, `pincode` or `place`, with ' +
          '`radiusKm` (default 25, widened around a less sure PIN code or place; `origin` says so) and `limit` ' +
          '(default 10). `items`: centres with fresh (≤ 24 h), non-zero units of the group asked, nearest first; ' +
          '`compatible`: centres holding only other groups the patient can receive by the component’s `rule` ' +
          '(`red_cells` for PRBC; `whole_blood`: ABO-identical; `plasma` for FFP and cryoprecipitate: AB plasma ' +
          'to all; `platelets`: plasma-compatible ABO, RhD− to RhD− recipients — NBTC 2017, WHO), listed in ' +
          '`compatibleTypes` order. The centre cross-matches before issuing. The distance approach is the ' +
          `directory’s: bounding box on the (latitude, longitude) index, haversine cut. ${CACHE_NOTE}`,
        querystring: stockAvailabilityQuerySchema,
        response: {
          200: AVAILABILITY_REPLY,
          304: z.undefined().describe('Not modified: the ETag still matches'),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const entry = await stock.cached.availability(request.query);
      sendCachedPublicly(request, reply, entry, STOCK_MAX_AGE_SECONDS, AVAILABILITY_REPLY);
      return reply;
    },
  );

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addHook('onRequest', scope.authenticate);
    scope.addHook('preHandler', requireActiveAccount);

    scope.get(
      '/api/v1/hospital/stock',
      {
        schema: {
          tags: ['blood-stock'],
          summary: 'The signed-in blood centre’s own stock',
          description:
            'For a hospital account linked to a directory blood centre: the facility, whether the account may ' +
            `update (verified and enabled), and its stock. Others: 403. ${FRESHNESS_NOTE}`,
          security: BEARER,
          response: { 200: MINE_REPLY, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => ({ success: true as const, data: await stock.mine(currentUser(request)) }),
    );

    scope.put(
      '/api/v1/facilities/:id/stock',
      {
        config: { rateLimit: STOCK_RATE_LIMITS.write },
        schema: {
          tags: ['blood-stock'],
          summary: 'Update a blood centre’s stock (its own accounts only)',
          description:
            '`{lines: [{bloodType, component, units, expiringUnits?}]}`, each group and component at most once, ' +
            'units 0–9999, `expiringUnits` (within 3 days) not more than `units` (omitted: the previous figure is kept, capped at `units`; null clears it). Lines not sent keep their ' +
            'figures; every line of the centre is confirmed as of now. Only a verified, enabled hospital account ' +
            'linked to this facility may call it (others 403). The history keeps the changed lines with who and ' +
            'when (`stock.updated`, or `stock.confirmed` when nothing changed, also in the activity log). ' +
            `Replies with the whole table. ${FRESHNESS_NOTE}`,
          security: BEARER,
          params: facilityIdParamsSchema,
          body: updateStockSchema,
          response: { 200: STOCK_REPLY, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await stock.update(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      }),
    );

    scope.post(
      '/api/v1/facilities/:id/stock/confirm',
      {
        config: { rateLimit: STOCK_RATE_LIMITS.write },
        schema: {
          tags: ['blood-stock'],
          summary: '"Nothing changed": confirm every figure as of now',
          description:
            'Refreshes the time of every line, kept in the history as a confirmation. Before any stock is ' +
            'published: 409 `CONFLICT`. Own accounts only (others 403).',
          security: BEARER,
          params: facilityIdParamsSchema,
          response: { 200: STOCK_REPLY, ...errorResponses(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await stock.confirm(currentUser(request), request.params.id, requestMeta(request)),
      }),
    );

    scope.get(
      '/api/v1/admin/stock/summary',
      {
        preHandler: requireRole('admin'),
        schema: {
          tags: ['blood-stock'],
          summary: 'National and per-state availability by blood group (admin)',
          description:
            'For one `component` (default `prbc`): fresh (≤ 24 h), non-zero units and the centres holding them, ' +
            'for India and per state, every group listed; how many centres report and how many are fresh; and the ' +
            'centres not confirmed for 24 hours (`staleCentres`) and, of those, the ones that stopped updating (`quietCentres`: ' +
            'not confirmed for 3 days), the longest silent first. Administrators only (others 403).',
          security: BEARER,
          querystring: stockSummaryQuerySchema,
          response: { 200: successEnvelope(stockSummarySchema), ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => ({
        success: true as const,
        data: await stock.summary(request.query.component),
      }),
    );

    scope.get(
      '/api/v1/admin/stock/summary.csv',
      {
        preHandler: requireRole('admin'),
        schema: {
          tags: ['blood-stock'],
          summary: 'The availability table as CSV (admin)',
          description:
            'Columns `area,component,bloodType,units,centres`: India first, then each state, 8 groups each. ' +
            '`text/csv; charset=utf-8`, an attachment. Administrators only.',
          security: BEARER,
          querystring: stockSummaryQuerySchema,
          response: {
            200: z.unknown().describe('The CSV file (text/csv; charset=utf-8)'),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request, reply) => {
        const summary = await stock.summary(request.query.component);
        return reply
          .type('text/csv; charset=utf-8')
          .header(
            'content-disposition',
            attachmentDisposition(
              `blood-stock-${summary.component}-${summary.generatedAt.slice(0, 10)}.csv`,
            ),
          )
          .header('cache-control', 'private, no-store')
          .send(stockSummaryCsv(summary));
      },
    );

    scope.get(
      '/api/v1/facilities/:id/stock/history',
      {
        schema: {
          tags: ['blood-stock'],
          summary: 'Every stock submission of a centre, newest first',
          description:
            'Who (`by`) and when (`at`), with the lines that changed (`updated`) or none (`confirmed`). The ' +
            'centre’s own verified accounts and administrators; others 403. Paginated (`page`, `pageSize` ≤ 100).',
          security: BEARER,
          params: facilityIdParamsSchema,
          querystring: paginationQuerySchema,
          response: {
            200: successEnvelope(stockHistoryPageSchema),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => ({
        success: true as const,
        data: await stock.history(
          currentUser(request),
          request.params.id,
          request.query.page,
          request.query.pageSize,
        ),
      }),
    );
  });
};
