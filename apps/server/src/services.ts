import { randomUUID } from 'node:crypto';
import type https from 'node:https';
import type { Config } from './config/env';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from './db/client';
import { users } from './db/schema';
import { createAdminMailService, type AdminMailService } from './features/admin/admin-mail.service';
import { createAdminService, type AdminService } from './features/admin/admin.service';
import {
  createDonorExportService,
  type DonorExportDeps,
  type DonorExportService,
} from './features/admin/donor-export.service';
import {
  createAnalyticsService,
  type AnalyticsService,
} from './features/analytics/analytics.service';
import { createAuthService, type AuthService } from './features/auth/auth.service';
import {
  createReferralsService,
  type ReferralsService,
} from './features/referrals/referrals.service';
import { createReportsJob, type ReportsJob } from './features/reports/reports.job';
import { createReportsService, type ReportsService } from './features/reports/reports.service';
import {
  createCertificatesService,
  type CertificatesService,
} from './features/certificates/certificates.service';
import {
  createDocumentsService,
  type DocumentsService,
} from './features/documents/documents.service';
import {
  createDonationsService,
  type DonationsService,
} from './features/donations/donations.service';
import { createAvailabilityJob, type AvailabilityJob } from './features/donors/availability.job';
import {
  createBloodRequestsJob,
  type BloodRequestsJob,
} from './features/blood-requests/blood-requests.job';
import {
  createBloodRequestsService,
  type BloodRequestsService,
} from './features/blood-requests/blood-requests.service';
import {
  createBloodStockService,
  type BloodStockService,
} from './features/blood-stock/blood-stock.service';
import {
  createStockReminderJob,
  type StockReminderJob,
} from './features/blood-stock/stock-reminder.job';
import {
  createFacilitiesService,
  type FacilitiesService,
} from './features/facilities/facilities.service';
import { createDonorsService, type DonorsService } from './features/donors/donors.service';
import { createFlagsServiceForDb, type FlagsService } from './features/flags/flags.service';
import {
  createHospitalsService,
  type HospitalsService,
} from './features/hospitals/hospitals.service';
import {
  createHospitalRegistration,
  type HospitalRegistration,
} from './features/hospitals/hospital-registration.service';
import {
  createNotificationsService,
  type NotificationsService,
} from './features/notifications/notifications.service';
import { createPrivacyService, type PrivacyService } from './features/users/privacy.service';
import { createPhoneChange } from './features/users/phone-change.service';
import { createPhoneVerification } from './features/users/phone-verification.service';
import { createUsersService, type UsersService } from './features/users/users.service';
import { createContactService, type ContactService } from './features/contact/contact.service';
import { createSiteService, type SiteService } from './features/site/site.service';
import {
  createDemoDataService,
  type DemoDataService,
} from './features/demo-data/demo-data.service';
import {
  createEducationService,
  type EducationService,
} from './features/education/education.service';
import { createAuthLimiters, type AuthLimiters } from './lib/auth-limits';
import { createMemoryChangeBus, type ChangeBus } from './lib/change-bus';
import {
  createMemoryLimitStore,
  createPostgresLimitStore,
  createRedisLimitStore,
  withDigestedKeys,
  type LimitStore,
} from './lib/limit-store';
import type { Redis } from 'ioredis';
import { createDailyCounters } from './lib/daily-counters';
import { createDirectBudgets } from './lib/direct-budgets';
import { createIdempotency } from './lib/idempotency';
import {
  createMailer,
  type MailLogger,
  type Mailer,
  type MailTransport,
} from './features/notifications/mail/mailer';
import {
  createNotificationSettingsService,
  type NotificationSettingsService,
} from './lib/notification-settings';
import { createNotifier, type Notifier, type PushSender } from './features/notifications/notifier';
import { createSmsChannel, type SmsChannel } from './features/notifications/channels/sms';
import {
  createWhatsAppChannel,
  type WhatsAppChannel,
} from './features/notifications/channels/whatsapp';
import { createReplyRouter, type ReplyRouter } from './features/notifications/replies';
import {
  createWhatsAppWebhookService,
  type WhatsAppWebhookService,
} from './features/notifications/whatsapp-webhook.service';
import {
  createChannelsService,
  type ChannelsService,
} from './features/notifications/channels.service';
import { isAppError } from './lib/app-error';
import { createSessions, type Sessions } from './lib/sessions';
import type { PhoneCodeSender } from './lib/sms/phone-code-sender';
import { createSmsPhoneCodeSender } from './features/notifications/channels/sms-phone-code-sender';
import { createWhatsAppPhoneCodeSender } from './features/notifications/channels/whatsapp-phone-code-sender';
import { createPhoneCodes } from './lib/sms/phone-codes';
import { createAccessTokens, type AccessTokens } from './lib/tokens';
import { createUploadStore, type UploadStore, type WriteChunk } from './lib/uploads';
import { createUserViews, type UserViews } from './lib/user-view';

/** The long-lived services, one set per process, shared by start-up code and the routes. */
export interface AppServices {
  /** The clock every service reads (a fake one in tests). */
  now: () => number;
  /** "Something cached changed", told to every instance (LISTEN/NOTIFY on PostgreSQL). */
  bus: ChangeBus;
  /** Every request limit's state: Redis (REDIS_URL), PostgreSQL, or memory on PGlite. */
  limitStore: LimitStore;
  /** The Redis connection when REDIS_URL is set (the per-address limits count there too). */
  redis: Redis | null;
  flags: FlagsService;
  accessTokens: AccessTokens;
  sessions: Sessions;
  /** The e-mail outbox; later features send their mail through it. */
  mail: Mailer;
  /** In-app notifications with durable push, e-mail, SMS and WhatsApp delivery. */
  notifier: Notifier;
  /** SMS over SMPP, when SMS_SMPP_URL is set. */
  sms: SmsChannel | null;
  /** WhatsApp Business Cloud API, when its variables are set. */
  whatsapp: WhatsAppChannel | null;
  /** Replies by SMS and WhatsApp (YES, STOP, buttons). */
  replies: ReplyRouter;
  /** The signed WhatsApp webhook's events, each acted on once and only while fresh. */
  whatsappWebhook: WhatsAppWebhookService;
  /** Consent to phone channels, channel health for the console, short links. */
  channels: ChannelsService;
  uploads: UploadStore;
  userViews: UserViews;
  limiters: AuthLimiters;
  auth: AuthService;
  users: UsersService;
  privacy: PrivacyService;
  documents: DocumentsService;
  donors: DonorsService;
  donations: DonationsService;
  certificates: CertificatesService;
  notifications: NotificationsService;
  /** The administrators' notification settings; matching and delivery read them. */
  notificationSettings: NotificationSettingsService;
  admin: AdminService;
  donorExport: DonorExportService;
  adminMail: AdminMailService;
  hospitals: HospitalsService;
  hospitalRegistration: HospitalRegistration;
  analytics: AnalyticsService;
  /** The monthly report (flag analyticsReporting): JSON, CSV, PDF and the e-mail on the 1st. */
  reports: ReportsService;
  /** E-mails last month's report on the 1st (hourly check, once per month). */
  reportsJob: ReportsJob;
  /** Invitations (flag referralSystem): codes, counts, abuse clusters. */
  referrals: ReferralsService;
  availabilityJob: AvailabilityJob;
  /** Reminds blood centres whose stock has not been confirmed for 3 days (hourly, once per lapse). */
  stockReminderJob: StockReminderJob;
  /** The blood bank directory and PIN code points (public search, request locations). */
  facilities: FacilitiesService;
  /** Blood centres' stock: public reads, own-account updates, the availability search. */
  stock: BloodStockService;
  /** Emergency blood requests, matching and privacy-protected contact. */
  bloodRequests: BloodRequestsService;
  /** Expires requests and widens matching (every minute). */
  bloodRequestsJob: BloodRequestsJob;
  /** Public content: articles, categories, FAQs and the policy pages (loaded from content/). */
  education: EducationService;
  /** The contact form: stored and e-mailed to SUPPORT_EMAIL. */
  contact: ContactService;
  /** The public home page's live figures (counts, cached 5 minutes). */
  site: SiteService;
  /** Demo data (the mockData flag): seeding at start, whether any is present, removal. */
  demoData: DemoDataService;
  /** false: the app starts no timers (tests run the workers by hand). */
  backgroundJobs: boolean;
}

export interface ServicesOptions {
  /** Where the mailer and workers report (pino in production). */
  logger?: MailLogger;
  /** A fake clock for tests; defaults to Date.now. */
  now?: () => number;
  /** Replaces the SMTP transport (tests); null keeps all mail in the outbox. */
  mailTransport?: MailTransport | null;
  /** An https.Agent for web push (tests trust a self-signed fake push service with it). */
  pushAgent?: https.Agent;
  /** Replaces web-push entirely. */
  pushSender?: PushSender;
  /** Which push endpoints subscriptions may name; defaults to the browsers' push services. */
  isAllowedPushEndpoint?: (endpoint: URL) => boolean;
  /** Replaces the chunk-writing step of uploads (tests simulate a database out of space). */
  uploadWrite?: WriteChunk;
  /** Default true: the app starts the notification worker and the availability job. */
  backgroundJobs?: boolean;
  /** Replaces where the donor export reads its batches (tests simulate a failure part-way). */
  donorExportRepository?: DonorExportDeps['repository'];
  /**
   * Delivers codes to phone numbers. Default: SMS over SMPP when SMS_SMPP_URL is set, else none
   * (a phone number change is then refused with SMS_UNAVAILABLE). Tests pass a capturing one.
   */
  phoneCodeSender?: PhoneCodeSender | null;
  /** The cross-instance change bus (server.ts: LISTEN/NOTIFY on PostgreSQL); default in-process. */
  bus?: ChangeBus;
  /** An open Redis connection (server.ts, REDIS_URL): limits are kept there. */
  redis?: Redis | null;
  /** Replaces the choice of limit store (tests). */
  limitStore?: LimitStore;
  /** Tests: how soon the SMPP link is tried again after it drops (ms). */
  smsReconnectBaseMs?: number;
}

/** Redis when given; PostgreSQL when the database is PostgreSQL; memory for PGlite only. */
export function chooseLimitStore(
  database: Pick<Database, 'db'> & { driver?: Database['driver'] },
  options: Pick<ServicesOptions, 'redis' | 'limitStore'>,
  now: () => number,
): LimitStore {
  if (options.limitStore) return options.limitStore;
  if (options.redis) return createRedisLimitStore(options.redis, { now });
  if (database.driver === 'postgres') return createPostgresLimitStore(database.db, now);
  return createMemoryLimitStore({ now });
}

export const FLAGS_CHANGE_TOPIC = 'flags';

export function createServices(
  database: Pick<Database, 'db'> & { driver?: Database['driver'] },
  config: Readonly<Config>,
  options: ServicesOptions = {},
): AppServices {
  const { db } = database;
  const now = options.now ?? Date.now;
  const logger = options.logger;
  const accessTokens = createAccessTokens({ secret: config.jwtSecret, now });
  const sessions = createSessions({ db, accessTokens, now });
  const mail = createMailer({
    db,
    config,
    now,
    logger,
    ...(options.mailTransport !== undefined ? { transport: options.mailTransport } : {}),
  });
  const bus = options.bus ?? createMemoryChangeBus();
  const flags = createFlagsServiceForDb(db, {
    onChanged: () => void bus.publish(FLAGS_CHANGE_TOPIC),
  });
  bus.subscribe(FLAGS_CHANGE_TOPIC, () => flags.invalidate());
  // Keys name e-mail addresses and phones: kept as keyed digests (issue #32 item 19).
  const limitStore = withDigestedKeys(chooseLimitStore(database, options, now), config.jwtSecret);
  const limiters = createAuthLimiters(now, limitStore);
  const counters = createDailyCounters(db, now);
  // The daily budgets of codes and of answers to replies (issue #32 item 8); at 80 % the
  // administrators are told in the app.
  const directBudgets = createDirectBudgets({
    db,
    counters,
    async onNearBudget(tx, name, sent, budget) {
      await notifier.notifyAdmins(tx, {
        type: name === 'codes' ? 'budget.phone_codes_near' : 'budget.reply_answers_near',
        params: { sent: String(sent), budget: String(budget) },
        link: '/admin',
      });
      notifier.kick();
    },
  });
  const sms = config.sms
    ? createSmsChannel({
        db,
        config: { publicUrl: config.publicUrl, sms: config.sms },
        now,
        logger,
        ...(options.smsReconnectBaseMs ? { reconnectBaseMs: options.smsReconnectBaseMs } : {}),
      })
    : null;
  const whatsapp = config.whatsapp
    ? createWhatsAppChannel({ db, config: config.whatsapp, now })
    : null;
  const phoneCodes = createPhoneCodes({
    counters,
    budgets: directBudgets,
    // Tests may pass their own sender (or null: none); else SMS over SMPP when configured,
    // else WhatsApp's authentication template (issue #32 item 7 follow-up).
    sender:
      options.phoneCodeSender !== undefined
        ? options.phoneCodeSender
        : sms
          ? createSmsPhoneCodeSender(sms)
          : whatsapp
            ? createWhatsAppPhoneCodeSender(whatsapp)
            : null,
    config,
    logger,
    now,
  });
  const userViews = createUserViews({ db, flags, now });
  const phoneVerification = createPhoneVerification({
    db,
    counters,
    phoneCodes,
    userViews,
    config,
    now,
  });
  const uploads = createUploadStore(db, options.uploadWrite);
  const idempotency = createIdempotency(db, now);
  const notifier = createNotifier({
    db,
    config,
    mail,
    now,
    logger,
    pushAgent: options.pushAgent,
    pushSender: options.pushSender,
    channels: [...(sms ? [sms] : []), ...(whatsapp ? [whatsapp] : [])],
  });
  const facilities = createFacilitiesService({ db });
  const stock = createBloodStockService({
    db,
    resolveOrigin: facilities.resolveOrigin,
    now,
    bus,
  });
  const bloodRequests = createBloodRequestsService({
    db,
    notifier,
    idempotency,
    mail,
    config,
    phoneCodes,
    counters,
    flags,
    now,
    logger,
  });
  const replies = createReplyRouter({
    db,
    now,
    publicUrl: config.publicUrl,
    // The in-app accept/decline itself, as the donor: contact released, requester told.
    async respond(userId, bloodRequestId, response) {
      const [caller] = await db
        .select({ id: users.id, role: users.role, status: users.status })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deletedAt)))
        .limit(1);
      if (!caller) return { outcome: 'late' };
      try {
        const view = await bloodRequests.respond(caller, bloodRequestId, response, {
          requestId: randomUUID(),
        });
        if (response === 'declined') return { outcome: 'declined' };
        return {
          outcome: 'accepted',
          contactName: view.contactName ?? '',
          contactPhone: view.contactPhone ?? '',
          hospital: view.hospitalName,
          address: view.address ?? view.city,
        };
      } catch (error) {
        // Issue #32 item 2: a refused accept says why, not "late".
        if (isAppError(error) && error.code === 'DONOR_NOT_ELIGIBLE') {
          const details = error.details as { nextEligibleAt?: string | null } | undefined;
          return { outcome: 'not_eligible', nextEligibleAt: details?.nextEligibleAt ?? null };
        }
        // Already answered, closed, not asked, suspended (issue #32 item 6: checked in the
        // service, and their open matches were voided): the polite "late" answer.
        if (isAppError(error)) return { outcome: 'late' };
        throw error;
      }
    },
    async answer(channel, to, text) {
      const sender =
        channel === 'sms' && sms
          ? () => sms.sendDirect(to, text)
          : channel === 'whatsapp' && whatsapp
            ? () => whatsapp.sendText(to, text)
            : null;
      if (!sender) return;
      // Any number can write in: past the day's budget the reply is still acted on (above), but
      // not answered (issue #32 item 8).
      if (!(await directBudgets.take('answers')).allowed) {
        logger?.warn({ channel }, 'reply not answered: the daily budget of answers is spent');
        return;
      }
      await sender();
    },
  });
  sms?.onInbound(async (message) => {
    await replies.handle({ channel: 'sms', from: message.from, text: message.text });
  });
  const reports = createReportsService({ db, flags, mail, config, now, logger });
  return {
    now,
    bus,
    limitStore,
    redis: options.redis ?? null,
    flags,
    accessTokens,
    sessions,
    mail,
    notifier,
    sms,
    whatsapp,
    replies,
    whatsappWebhook: createWhatsAppWebhookService({ db, now, replies }),
    channels: createChannelsService({
      db,
      now,
      channels: notifier.channels,
      getFlags: () => flags.getFlags(),
      directBudgets,
    }),
    uploads,
    userViews,
    limiters,
    auth: createAuthService({
      db,
      sessions,
      mailer: mail,
      idempotency,
      limiters,
      counters,
      config,
      userViews,
      phoneCodes,
      phoneVerification,
      flags,
      now,
    }),
    users: createUsersService({
      db,
      sessions,
      limiters,
      userViews,
      phoneChange: createPhoneChange({ db, counters, phoneCodes, userViews, config, now }),
      phoneVerification,
      now,
    }),
    privacy: createPrivacyService({
      db,
      bloodRequests,
      notifier,
      userViews,
      limiters,
      now,
      logger,
    }),
    documents: createDocumentsService({ db, uploads, notifier, flags, now, logger }),
    donors: createDonorsService({ db, notifier, flags, now }),
    donations: createDonationsService({ db, notifier, idempotency, config, now }),
    certificates: createCertificatesService({ db, config }),
    notifications: createNotificationsService({
      db,
      now,
      isAllowedPushEndpoint: options.isAllowedPushEndpoint,
    }),
    notificationSettings: createNotificationSettingsService({ db, now }),
    admin: createAdminService({
      db,
      notifier,
      sessions,
      flags,
      userViews,
      matches: bloodRequests,
      now,
    }),
    donorExport: createDonorExportService({
      db,
      flags,
      now,
      logger,
      repository: options.donorExportRepository,
    }),
    adminMail: createAdminMailService({ db, mail, config, now }),
    hospitals: createHospitalsService({
      db,
      mail,
      sessions,
      idempotency,
      config,
      now,
      // Issue #32 item 14: requests naming a facility follow its verified, enabled hospital.
      requests: { repointFacility: bloodRequests.repointFacility, kick: () => notifier.kick() },
    }),
    hospitalRegistration: createHospitalRegistration({
      db,
      mail,
      sessions,
      userViews,
      counters,
      flags,
      phoneVerification,
      isSmsAvailable: () => phoneCodes.available,
      config,
      limitStore,
      now,
    }),
    analytics: createAnalyticsService({ db, now }),
    reports,
    reportsJob: createReportsJob({ service: reports, logger }),
    referrals: createReferralsService({ db, flags, config }),
    availabilityJob: createAvailabilityJob({ db, notifier, now, logger }),
    stockReminderJob: createStockReminderJob({ db, notifier, now, logger }),
    facilities,
    stock,
    bloodRequests,
    bloodRequestsJob: createBloodRequestsJob({ service: bloodRequests, logger }),
    education: createEducationService({ db, config, now, bus }),
    contact: createContactService({ db, mail, idempotency, config, now }),
    site: createSiteService({ db, now }),
    demoData: createDemoDataService({
      db,
      driver: database.driver ?? 'pglite',
      force: config.demoDataForce,
      now,
      isEnabled: async () => (await flags.getFlags()).mockData,
      logger,
    }),
    backgroundJobs: options.backgroundJobs ?? true,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}
