import type { Config } from './config/env';
import type { Database } from './db/client';
import { createAuthService, type AuthService } from './features/auth/auth.service';
import { createFlagsServiceForDb, type FlagsService } from './features/flags/flags.service';
import { createUsersService, type UsersService } from './features/users/users.service';
import { createAuthLimiters, type AuthLimiters } from './lib/auth-limits';
import { createIdempotency } from './lib/idempotency';
import { createMailer, type MailLogger, type Mailer, type MailTransport } from './lib/mail/mailer';
import { createSessions, type Sessions } from './lib/sessions';
import { createAccessTokens, type AccessTokens } from './lib/tokens';

/** The long-lived services, one set per process, shared by start-up code and the routes. */
export interface AppServices {
  flags: FlagsService;
  accessTokens: AccessTokens;
  sessions: Sessions;
  /** The e-mail outbox; later features send their mail through it. */
  mail: Mailer;
  limiters: AuthLimiters;
  auth: AuthService;
  users: UsersService;
}

export interface ServicesOptions {
  /** Where the mailer reports (pino in production). */
  logger?: MailLogger;
  /** A fake clock for tests; defaults to Date.now. */
  now?: () => number;
  /** Replaces the SMTP transport (tests); null keeps all mail in the outbox. */
  mailTransport?: MailTransport | null;
}

export function createServices(
  database: Pick<Database, 'db'>,
  config: Readonly<Config>,
  options: ServicesOptions = {},
): AppServices {
  const { db } = database;
  const now = options.now ?? Date.now;
  const accessTokens = createAccessTokens({ secret: config.jwtSecret, now });
  const sessions = createSessions({ db, accessTokens, now });
  const mail = createMailer({
    db,
    config,
    now,
    logger: options.logger,
    ...(options.mailTransport !== undefined ? { transport: options.mailTransport } : {}),
  });
  const limiters = createAuthLimiters(now);
  return {
    flags: createFlagsServiceForDb(db),
    accessTokens,
    sessions,
    mail,
    limiters,
    auth: createAuthService({
      db,
      sessions,
      mailer: mail,
      idempotency: createIdempotency(db, now),
      limiters,
      config,
      now,
    }),
    users: createUsersService({ db, sessions, limiters }),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}
