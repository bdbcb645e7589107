import { analyticsDashboardSchema, analyticsQuerySchema, successEnvelope } from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas';
import { requireRole } from '../../plugins/auth';
import type { AnalyticsService } from './analytics.service';

const BEARER = [{ bearerAuth: [] }];

export interface AnalyticsRoutesOptions {
  analytics: AnalyticsService;
}

export const analyticsRoutes: FastifyPluginAsyncZod<AnalyticsRoutesOptions> = async (
  app,
  { analytics },
) => {
  app.get(
    '/api/v1/analytics/dashboard',
    {
      onRequest: [app.authenticate, requireRole('admin')],
      schema: {
        tags: ['analytics'],
        summary: 'Dashboard figures over a time range (admin)',
        description:
          '`timeRange` `7d`, `30d` (default), `90d` or `1y` (365 days). `series` has one entry per UTC day, oldest first, ' +
          'today included, every day present (zeros on quiet days): `registrations` (donor accounts created, erased ' +
          'ones included), `requests` (blood requests made, by creation date) and `donations` (reported and recorded, by ' +
          'donation date). `totals` sums the series. `bloodTypeDistribution` counts approved donors now, all eight ' +
          'types present. Counted in the database (generate_series), so the reply size depends only on the range.',
        security: BEARER,
        querystring: analyticsQuerySchema,
        response: {
          200: successEnvelope(analyticsDashboardSchema),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await analytics.dashboard(request.query.timeRange),
    }),
  );
};
