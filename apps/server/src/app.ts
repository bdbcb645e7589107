import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
  type FastifyServerOptions,
} from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config, TrustProxy } from './config/env';
import type { Database } from './db/client';
import { adminRoutes } from './features/admin/admin.routes';
import { analyticsRoutes } from './features/analytics/analytics.routes';
import { authRoutes } from './features/auth/auth.routes';
import { bloodStockRoutes } from './features/blood-stock/blood-stock.routes';
import { bloodRequestsRoutes } from './features/blood-requests/blood-requests.routes';
import { emergencyFormRoutes } from './features/blood-requests/emergency-form.routes';
import { certificatesRoutes } from './features/certificates/certificates.routes';
import { clientLogsRoutes } from './features/client-logs/client-logs.routes';
import { contactRoutes } from './features/contact/contact.routes';
import { debugRoutes } from './features/debug/debug.routes';
import { documentsRoutes } from './features/documents/documents.routes';
import { donationsRoutes } from './features/donations/donations.routes';
import { donorsRoutes } from './features/donors/donors.routes';
import { educationRoutes } from './features/education/education.routes';
import { facilitiesRoutes } from './features/facilities/facilities.routes';
import { flagsRoutes } from './features/flags/flags.routes';
import { createPublicConfigSource } from './features/flags/public-config';
import { healthRoutes } from './features/health/health.routes';
import { hospitalsRoutes } from './features/hospitals/hospitals.routes';
import { hospitalRegistrationRoutes } from './features/hospitals/hospital-registration.routes';
import { notificationsRoutes } from './features/notifications/notifications.routes';
import { channelsRoutes } from './features/notifications/channels.routes';
import { whatsappWebhookRoutes } from './features/notifications/whatsapp-webhook.routes';
import { referralsRoutes } from './features/referrals/referrals.routes';
import { reportsRoutes } from './features/reports/reports.routes';
import { siteRoutes } from './features/site/site.routes';
import { usersRoutes } from './features/users/users.routes';
import { serverVersion } from './lib/paths';
import { authPlugin } from './plugins/auth';
import { cachePolicyPlugin } from './plugins/cache-policy';
import { compressionPlugin } from './plugins/compression';
import { errorBody, errorHandlerPlugin } from './plugins/error-handler';
import { inputGuardPlugin } from './plugins/input-guard';
import { createLogger, lazyChildLoggerFactory } from './plugins/logger';
import { microCachePlugin } from './plugins/micro-cache';
import { openApiPlugin, openApiUiPlugin } from './plugins/openapi';
import { rateLimitPlugin } from './plugins/rate-limit';
import { createPeriodicJob } from './lib/periodic-job';
import { replySerializerCompiler } from './lib/reply-serializer';
import { genReqId, REQUEST_ID_HEADER, requestIdPlugin } from './plugins/request-id';
import { securityHeadersPlugin } from './plugins/security-headers';
import { webAppPlugin } from './plugins/web-app';
import { createServices, type AppServices } from './services';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count becomes proxy-addr's trust function
 * "hop i is a proxy while i < n" (Express's meaning): Fastify 5.12 treats a bare number as
 * "trust nothing", which would silently ignore the proxy. Address lists go to proxy-addr as they are.
 */
export function fastifyTrustProxy(
  trustProxy: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (trustProxy === false) return false;
  if (typeof trustProxy === 'number') {
    const hops = trustProxy;
    return (_address, hop) => hop < hops;
  }
  return [...trustProxy];
}

export interface BuildAppOptions {
  config: Readonly<Config>;
  database: Pick<Database, 'db' | 'ping' | 'driver'>;
  /** false: no logging (tests); a pino logger to share with start-up code; default: one from config. */
  logger?: false | Logger;
  /** Defaults to a fresh set; pass the start-up set so caches are shared. */
  services?: AppServices;
  /** Extra routes registered with the app's plugins and error handling (tests use it). */
  extraRoutes?: (app: App) => void | Promise<void>;
}

/** A ready Fastify instance with every plugin and route; does not listen. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  const logger = options.logger ?? createLogger(config);
  const app = Fastify({
    ...(logger
      ? {
          loggerInstance: logger,
          childLoggerFactory: lazyChildLoggerFactory as unknown as NonNullable<
            FastifyServerOptions['childLoggerFactory']
          >,
        }
      : { logger: false }),
    genReqId,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    // Errors raised before routing (e.g. a malformed URL) skip the hooks, so they set the id themselves.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      void reply
        .code(400)
        .header(REQUEST_ID_HEADER, request.id)
        .send(errorBody('BAD_REQUEST', error.message || 'Bad request'));
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(replySerializerCompiler({ check: config.checkReplies }));
  // JSON only: a text/plain body is refused with 415 instead of reaching a validator as a string.
  app.removeContentTypeParser('text/plain');

  const services =
    options.services ?? createServices(database, config, { logger: logger || undefined });
  app.decorate('services', services);

  await app.register(requestIdPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin);
  // Before compression: its onSend sees the reply uncompressed.
  await app.register(microCachePlugin, { now: services.now });
  await app.register(cachePolicyPlugin);
  await app.register(compressionPlugin);
  await app.register(rateLimitPlugin, {
    allowList: config.rateLimitAllowList,
    redis: services.redis,
    store: services.limitStore,
  });
  await app.register(inputGuardPlugin);
  await app.register(openApiPlugin, { version: serverVersion() });

  await app.register(authPlugin, { accessTokens: services.accessTokens, db: database.db });

  await app.register(healthRoutes, { database });
  const publicConfig = createPublicConfigSource({
    config,
    flags: services.flags,
    version: serverVersion(),
    isDemoDataPresent: () => services.demoData.isPresent(),
  });
  await app.register(flagsRoutes, { flags: services.flags, publicConfig });
  await app.register(debugRoutes, {
    flags: services.flags,
    driver: database.driver,
    now: services.now,
  });
  await app.register(authRoutes, { auth: services.auth });
  await app.register(usersRoutes, { users: services.users, privacy: services.privacy });
  await app.register(donorsRoutes, { donors: services.donors });
  await app.register(documentsRoutes, { documents: services.documents });
  await app.register(donationsRoutes, { donations: services.donations });
  await app.register(certificatesRoutes, { certificates: services.certificates });
  await app.register(notificationsRoutes, { notifications: services.notifications });
  await app.register(channelsRoutes, { channels: services.channels });
  if (services.whatsapp && config.whatsapp) {
    await app.register(whatsappWebhookRoutes, {
      whatsapp: services.whatsapp,
      verifyToken: config.whatsapp.verifyToken,
      webhook: services.whatsappWebhook,
    });
  }
  await app.register(adminRoutes, {
    admin: services.admin,
    donorExport: services.donorExport,
    adminMail: services.adminMail,
    notificationSettings: services.notificationSettings,
  });
  await app.register(hospitalsRoutes, { hospitals: services.hospitals });
  await app.register(hospitalRegistrationRoutes, {
    registration: services.hospitalRegistration,
  });
  await app.register(analyticsRoutes, { analytics: services.analytics });
  await app.register(reportsRoutes, { reports: services.reports, now: services.now });
  await app.register(referralsRoutes, { referrals: services.referrals });
  await app.register(facilitiesRoutes, { facilities: services.facilities });
  await app.register(bloodStockRoutes, { stock: services.stock });
  await app.register(bloodRequestsRoutes, { bloodRequests: services.bloodRequests });
  // Its own scope: only this route reads HTML form bodies.
  await app.register(emergencyFormRoutes, {
    bloodRequests: services.bloodRequests,
    publicUrl: config.publicUrl,
  });
  await app.register(educationRoutes, { education: services.education });
  await app.register(contactRoutes, { contact: services.contact });
  await app.register(clientLogsRoutes, {
    db: database.db,
    secret: config.jwtSecret,
    now: services.now,
  });
  await app.register(siteRoutes, { site: services.site });
  if (options.extraRoutes) {
    const extraRoutes = options.extraRoutes;
    await app.register(async (scope) => extraRoutes(scope as App));
  }

  await app.register(openApiUiPlugin);
  await app.register(webAppPlugin, { webDistDir: config.webDistDir, publicConfig });

  // Mail retries, notification deliveries and the availability job run while the app does;
  // closing the app waits for work in progress.
  // Expired limit_states rows (PostgreSQL limit store) are swept every 10 minutes.
  const limitSweep = createPeriodicJob({
    name: 'limit sweep',
    intervalMs: 10 * 60_000,
    runOnce: () => services.limitStore.sweep(),
    logger: logger || undefined,
  });
  app.addHook('onReady', async () => {
    services.mail.start();
    services.notifier.startChannels();
    if (services.backgroundJobs) {
      if (services.limitStore.kind === 'postgres') limitSweep.start();
      services.notifier.start();
      services.availabilityJob.start();
      services.stockReminderJob.start();
      services.bloodRequestsJob.start();
      services.reportsJob.start();
    }
  });
  app.addHook('onClose', async () => {
    await limitSweep.stop();
    await services.reportsJob.stop();
    await services.bloodRequestsJob.stop();
    await services.availabilityJob.stop();
    await services.stockReminderJob.stop();
    await services.notifier.stop();
    await services.mail.stop();
  });
  await app.ready();
  return app;
}
