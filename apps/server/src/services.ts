import type https from 'node:https';
import type { Config } from './config/env';
import type { Database } from './db/client';
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
  createNotificationsService,
  type NotificationsService,
} from './features/notifications/notifications.service';
import { createPrivacyService, type PrivacyService } from './features/users/privacy.service';
import { createPhoneChange } from './features/users/phone-change.service';
import { createUsersService, type UsersService } from './features/users/users.service';
import { createContactService, type ContactService } from './features/contact/contact.service';
import { createSiteService, type SiteService } from './features/site/site.service';
import {
  createEducationService,
  type EducationService,
} from './features/education/education.service';
import { createAuthLimiters, type AuthLimiters } from './lib/auth-limits';
import { createDailyCounters } from './lib/daily-counters';
import { createIdempotency } from './lib/idempotency';
import { createMailer, type MailLogger, type Mailer, type MailTransport } from './lib/mail/mailer';
import {
  createNotificationSettingsService,
  type NotificationSettingsService,
} from './lib/notification-settings';
import { createNotifier, type Notifier, type PushSender } from './lib/notifications/notifier';
import { createSessions, type Sessions } from './lib/sessions';
import type { PhoneCodeSender } from './lib/sms/phone-code-sender';
import { createAccessTokens, type AccessTokens } from './lib/tokens';
import { createUploadStore, type UploadStore, type WriteBytes } from './lib/uploads';
import { createUserViews, type UserViews } from './lib/user-view';

/** The long-lived services, one set per process, shared by start-up code and the routes. */
export interface AppServices {
  /** The clock every service reads (a fake one in tests). */
  now: () => number;
  flags: FlagsService;
  accessTokens: AccessTokens;
  sessions: Sessions;
  /** The e-mail outbox; later features send their mail through it. */
  mail: Mailer;
  /** In-app notifications with durable push and e-mail delivery. */
  notifier: Notifier;
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
  analytics: AnalyticsService;
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
  /** Replaces the byte-writing step of uploads (tests simulate a full disk). */
  uploadWrite?: WriteBytes;
  /** Default true: the app starts the notification worker and the availability job. */
  backgroundJobs?: boolean;
  /** Replaces where the donor export reads its batches (tests simulate a failure part-way). */
  donorExportRepository?: DonorExportDeps['repository'];
  /**
   * Delivers codes to phone numbers (SMS, WhatsApp). No provider exists yet, so the default is
   * none: a phone number change is then refused with SMS_UNAVAILABLE. Tests pass a capturing one.
   */
  phoneCodeSender?: PhoneCodeSender | null;
}

export function createServices(
  database: Pick<Database, 'db'>,
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
  const flags = createFlagsServiceForDb(db);
  const limiters = createAuthLimiters(now);
  const counters = createDailyCounters(db, now);
  const userViews = createUserViews({ db, flags, now });
  const uploads = createUploadStore(config.dataDir, options.uploadWrite);
  const idempotency = createIdempotency(db, now);
  const notifier = createNotifier({
    db,
    config,
    mail,
    now,
    logger,
    pushAgent: options.pushAgent,
    pushSender: options.pushSender,
  });
  const facilities = createFacilitiesService({ db });
  const stock = createBloodStockService({ db, resolveOrigin: facilities.resolveOrigin, now });
  const bloodRequests = createBloodRequestsService({
    db,
    notifier,
    idempotency,
    mail,
    config,
    now,
    logger,
  });
  return {
    now,
    flags,
    accessTokens,
    sessions,
    mail,
    notifier,
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
      now,
    }),
    users: createUsersService({
      db,
      sessions,
      limiters,
      userViews,
      phoneChange: createPhoneChange({
        db,
        counters,
        sender: options.phoneCodeSender ?? null,
        userViews,
        config,
        logger,
        now,
      }),
      now,
    }),
    privacy: createPrivacyService({
      db,
      bloodRequests,
      notifier,
      userViews,
      uploads,
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
    admin: createAdminService({ db, notifier, sessions, flags, userViews, now }),
    donorExport: createDonorExportService({
      db,
      flags,
      now,
      logger,
      repository: options.donorExportRepository,
    }),
    adminMail: createAdminMailService({ db, mail, config, now }),
    hospitals: createHospitalsService({ db, mail, sessions, idempotency, config, now }),
    analytics: createAnalyticsService({ db, now }),
    availabilityJob: createAvailabilityJob({ db, notifier, now, logger }),
    stockReminderJob: createStockReminderJob({ db, notifier, now, logger }),
    facilities,
    stock,
    bloodRequests,
    bloodRequestsJob: createBloodRequestsJob({ service: bloodRequests, logger }),
    education: createEducationService({ db, config, now }),
    contact: createContactService({ db, mail, idempotency, config, now }),
    site: createSiteService({ db, now }),
    backgroundJobs: options.backgroundJobs ?? true,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}
