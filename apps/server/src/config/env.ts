import { isIP } from 'node:net';
import path from 'node:path';
import {
  FEATURE_FLAG_NAMES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  parseFeatureFlagOverrides,
  type FeatureFlags,
} from '@bdms/shared';
import { z } from 'zod';
import { repoRoot } from '../lib/paths';
import {
  isVapidPrivateKey,
  isVapidPublicKey,
  loadOrCreateSecrets,
  type VapidKeys,
} from './secrets';

/**
 * The only reader of `process.env` (ESLint bans it elsewhere). Variables are API.md's
 * "Configuration" table plus these extensions, also described in the OpenAPI document:
 * - `SUPPORT_EMAIL`: the address `GET /api/v1/config` shows users (default support@blooddonation.example).
 * - `WEB_DIST_DIR`: the built web app to serve (default `<repo root>/apps/web/dist`, the repo root being
 *   the first folder above this module that holds `apps/web/package.json`).
 * - `TRUST_PROXY`: which reverse proxies to believe about X-Forwarded-For/-Proto (see `TrustProxy`):
 *   `false` (default), a hop count, or a comma-separated list of addresses / CIDR ranges. `true` is
 *   refused: it would believe every hop, so any client could pick its own address.
 * - `RATE_LIMIT_ALLOWLIST`: comma-separated client addresses exempt from the per-address limits, for
 *   a trusted load generator or the browser tests on loopback (default: none). Per-account limits
 *   (sign-in, codes, resets) still apply.
 * - `DATABASE_POOL_MAX`: PostgreSQL connections per instance (default 10), plus one for LISTEN.
 * - `REDIS_URL`: keep every limit in Redis instead of PostgreSQL (see lib/limit-store.ts).
 * - `CHECK_REPLIES=1`: every reply is also written the reply library's way and the two texts must
 *   match, or the reply fails (the test suites; costs CPU, not for production).
 * On PostgreSQL (several instances may share it) `JWT_SECRET` and both VAPID keys are required:
 * secrets generated into one instance's DATA_DIR would make it refuse every other one's tokens.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_SUPPORT_EMAIL = 'support@blooddonation.example';

/**
 * Which proxies `request.ip` and `request.protocol` believe:
 * - `false`: none; the socket's peer is the client and X-Forwarded-* are ignored.
 * - a number n ≥ 1: the n nearest hops are proxies (the socket's peer and the n − 1 entries at the
 *   right of X-Forwarded-For); the client is the next address to their left. Whatever a client
 *   writes further left is never read. Only for a server reachable through its proxies alone.
 * - a list of addresses / CIDR ranges (or proxy-addr's `loopback`, `linklocal`, `uniquelocal`):
 *   hops from those addresses are proxies, whatever their number.
 */
export type TrustProxy = false | number | readonly string[];

/** proxy-addr's named ranges (Fastify passes a list of addresses to proxy-addr). */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
export const TRUST_PROXY_TRUE_MESSAGE =
  'true would trust every X-Forwarded-For hop, so any client could choose its own address ' +
  '(and claim RATE_LIMIT_ALLOWLIST); set the number of proxies in front of the server (e.g. 1) ' +
  'or their addresses / CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1)';

/** An IPv4/IPv6 address, or one with a prefix length that fits its family. */
export function isAddressOrRange(value: string): boolean {
  if (TRUST_PROXY_NAMES.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  if (rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseTrustProxy(value: string, context: z.RefinementCtx): TrustProxy {
  const trimmed = value.trim();
  const word = trimmed.toLowerCase();
  if (word === 'false' || word === 'no' || word === '0') return false;
  if (word === 'true' || word === 'yes') {
    context.addIssue({ code: 'custom', message: TRUST_PROXY_TRUE_MESSAGE });
    return z.NEVER;
  }
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops > 32) {
      context.addIssue({ code: 'custom', message: 'a hop count must be from 1 to 32' });
      return z.NEVER;
    }
    return hops;
  }
  const ranges = trimmed
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const bad = ranges.filter((item) => !isAddressOrRange(item));
  if (ranges.length === 0 || bad.length > 0) {
    context.addIssue({
      code: 'custom',
      message:
        `must be false, a hop count (1, 2, …) or a comma-separated list of IP addresses / CIDR ` +
        `ranges${bad.length > 0 ? ` (not an address or range: ${bad.join(', ')})` : ''}`,
    });
    return z.NEVER;
  }
  return ranges;
}

export interface Config {
  port: number;
  host: string;
  /** null: the embedded PGlite database in `<dataDir>/pgdata`. */
  databaseUrl: string | null;
  dataDir: string;
  /** Without a trailing slash. */
  publicUrl: string;
  jwtSecret: string;
  admin: { email: string; password: string } | null;
  smtpUrl: string | null;
  mailFrom: string;
  featureFlagOverrides: Partial<FeatureFlags>;
  vapid: VapidKeys;
  logLevel: LogLevel;
  supportEmail: string;
  webDistDir: string;
  trustProxy: TrustProxy;
  rateLimitAllowList: readonly string[];
  /** PostgreSQL connections per instance (the pool; LISTEN/NOTIFY uses one more). */
  databasePoolMax: number;
  /** null: limits in PostgreSQL (DATABASE_URL) or in memory (embedded PGlite). */
  redisUrl: string | null;
  /** SMS over SMPP v3.4 (null: no SMS channel). */
  sms: SmsConfig | null;
  /** CHECK_REPLIES=1: every reply is written both ways and compared (lib/reply-serializer.ts). */
  checkReplies: boolean;
  /** DEMO_DATA_FORCE=1: the mockData flag seeds demo data even into a real PostgreSQL. */
  demoDataForce: boolean;
  /** WhatsApp Business Cloud API (null: no WhatsApp channel). */
  whatsapp: WhatsAppConfig | null;
}

export interface WhatsAppConfig {
  /** Without a trailing slash, e.g. https://graph.facebook.com */
  apiUrl: string;
  apiVersion: string;
  token: string;
  phoneNumberId: string;
  appSecret: string;
  verifyToken: string;
  /** The approved template of a donor alert (body {{1}}–{{6}}, two quick-reply buttons). */
  alertTemplate: string;
  /** A guest's request was received (body {{1}} tracking code, {{2}} tracking link). */
  requestReceivedTemplate: string;
  /** A donor accepted a guest's request (body {{1}} tracking code, {{2}} tracking link). */
  donorComingTemplate: string;
  /** One-time codes when SMS is not configured: an AUTHENTICATION template (copy-code button). */
  codeTemplate: string;
}

export interface SmsConfig {
  /** smpp://system_id:password@host:port */
  smppUrl: string;
  /** The DLT-registered sender id (header). */
  senderId: string;
  /** DLT principal entity id. */
  entityId: string | null;
  /** DLT content template id of each template the server sends, by name. */
  templateIds: Readonly<Record<string, string>>;
  /** Most submit_sm awaiting a response at once. */
  windowSize: number;
}

export const DEFAULT_DATABASE_POOL_MAX = 10;
export const SHARED_SECRETS_MESSAGE =
  'required when DATABASE_URL is set: every instance on one database must share it, or each ' +
  "one would generate its own and refuse the others' tokens and push subscriptions";

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

// A blank value in a .env file means "not set", not "set to nothing".
const blankIsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;
const isMailbox = (value: string) =>
  ADDRESS.test(value) || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(value.trim());
const hasProtocol = (value: string, protocols: string[]) => {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
const envSchema = z.object({
  PORT: opt(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number from 0 to 65535')
      .transform(Number)
      .refine((port) => port <= 65535, 'must be a whole number from 0 to 65535'),
  ),
  HOST: opt(z.string().trim()),
  DATABASE_URL: opt(
    z
      .string()
      .refine(
        (url) => hasProtocol(url, ['postgres:', 'postgresql:']),
        'must be a postgres:// or postgresql:// URL',
      ),
  ),
  DATA_DIR: opt(z.string()),
  PUBLIC_URL: opt(
    z
      .string()
      .refine((url) => hasProtocol(url, ['http:', 'https:']), 'must be an http:// or https:// URL'),
  ),
  JWT_SECRET: opt(z.string().min(32, 'must be at least 32 characters long')),
  ADMIN_EMAIL: opt(z.string().trim().regex(ADDRESS, 'must be an e-mail address')),
  ADMIN_PASSWORD: opt(
    z
      .string()
      .min(PASSWORD_MIN, `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`)
      .max(PASSWORD_MAX, `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`),
  ),
  SMTP_URL: opt(
    z
      .string()
      .refine((url) => hasProtocol(url, ['smtp:', 'smtps:']), 'must be an smtp:// or smtps:// URL'),
  ),
  SMS_SMPP_URL: opt(
    z
      .string()
      .refine(
        (url) => hasProtocol(url, ['smpp:']) && /^smpp:\/\/[^:@/]+(:[^@/]*)?@[^/]+$/.test(url),
        'must be smpp://system_id:password@host:port',
      ),
  ),
  SMS_SENDER_ID: opt(
    z
      .string()
      .trim()
      .regex(/^([A-Za-z]{6}|\d{1,15})$/, 'must be a 6-letter DLT header or a number'),
  ),
  SMS_DLT_ENTITY_ID: opt(
    z
      .string()
      .trim()
      .regex(/^\d{10,30}$/, 'must be the DLT entity id (digits)'),
  ),
  SMS_DLT_TEMPLATE_IDS: opt(
    z
      .string()
      .trim()
      .regex(
        /^[a-z_]+=\d{10,30}(,[a-z_]+=\d{10,30})*$/,
        'must be name=id pairs separated by commas (donor_alert=1107…,reply=1107…)',
      )
      .transform((value) =>
        Object.fromEntries(value.split(',').map((pair) => pair.split('=') as [string, string])),
      ),
  ),
  SMS_WINDOW: opt(z.coerce.number().int().min(1).max(100)),
  WHATSAPP_API_URL: opt(
    z
      .string()
      .refine((url) => hasProtocol(url, ['http:', 'https:']), 'must be an http:// or https:// URL'),
  ),
  WHATSAPP_API_VERSION: opt(z.string().regex(/^v\d+\.\d+$/, 'must look like v21.0')),
  WHATSAPP_TOKEN: opt(z.string().trim().min(1)),
  WHATSAPP_PHONE_NUMBER_ID: opt(
    z
      .string()
      .trim()
      .regex(/^\d{5,30}$/, 'must be digits'),
  ),
  WHATSAPP_APP_SECRET: opt(z.string().trim().min(8, 'must be the app secret')),
  WHATSAPP_VERIFY_TOKEN: opt(z.string().trim().min(8, 'must be at least 8 characters')),
  WHATSAPP_ALERT_TEMPLATE: opt(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name'),
  ),
  WHATSAPP_REQUEST_RECEIVED_TEMPLATE: opt(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name'),
  ),
  WHATSAPP_DONOR_COMING_TEMPLATE: opt(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name'),
  ),
  WHATSAPP_CODE_TEMPLATE: opt(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name'),
  ),
  MAIL_FROM: opt(z.string().refine(isMailbox, 'must be an e-mail address or "Name <address>"')),
  FEATURE_FLAGS: opt(z.string()),
  DEMO_DATA_FORCE: opt(
    z.enum(['0', '1', 'true', 'false'], { error: 'must be 1 (seed anyway) or 0' }),
  ),
  CHECK_REPLIES: opt(z.enum(['0', '1'], { error: 'must be 1 (compare) or 0' })),
  VAPID_PUBLIC_KEY: opt(
    z
      .string()
      .trim()
      .refine(isVapidPublicKey, 'must be a base64url P-256 public key (65 bytes, uncompressed)'),
  ),
  VAPID_PRIVATE_KEY: opt(
    z.string().trim().refine(isVapidPrivateKey, 'must be a base64url P-256 private key (32 bytes)'),
  ),
  LOG_LEVEL: opt(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  SUPPORT_EMAIL: opt(z.string().trim().regex(ADDRESS, 'must be an e-mail address')),
  WEB_DIST_DIR: opt(z.string()),
  RATE_LIMIT_ALLOWLIST: opt(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
      )
      .refine((items) => items.every((item) => isIP(item) !== 0), 'must list IP addresses'),
  ),
  TRUST_PROXY: opt(z.string().transform(parseTrustProxy)),
  DATABASE_POOL_MAX: opt(
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'must be a whole number from 1 to 1000')
      .transform(Number)
      .refine((max) => max >= 1 && max <= 1000, 'must be a whole number from 1 to 1000'),
  ),
  REDIS_URL: opt(
    z
      .string()
      .refine(
        (url) => hasProtocol(url, ['redis:', 'rediss:']),
        'must be a redis:// or rediss:// URL',
      ),
  ),
});

function defaultWebDistDir(): string {
  const root = repoRoot() ?? process.cwd();
  return path.join(root, 'apps', 'web', 'dist');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Parses the environment once. Every problem is collected and thrown together as a
 * ConfigError, so an operator fixes them in one go. Generated secrets are written to DATA_DIR.
 */
export function loadConfig(
  env: Env = process.env,
  options: {
    /**
     * Default true. false only for tools that never sign or check a token (`npm run db:migrate`):
     * they may run on PostgreSQL without JWT_SECRET and the VAPID keys, and generate nothing.
     */
    needsSecrets?: boolean;
  } = {},
): Readonly<Config> {
  const needsSecrets = options.needsSecrets ?? true;
  const problems: string[] = [];
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  const vars = parsed.success ? parsed.data : ({} as Partial<z.infer<typeof envSchema>>);

  if (Boolean(env.ADMIN_EMAIL?.trim()) !== Boolean(env.ADMIN_PASSWORD?.trim())) {
    problems.push('ADMIN_EMAIL, ADMIN_PASSWORD: set both or neither');
  }
  if (Boolean(env.VAPID_PUBLIC_KEY?.trim()) !== Boolean(env.VAPID_PRIVATE_KEY?.trim())) {
    problems.push('VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
  }
  const flags = parseFeatureFlagOverrides(env.FEATURE_FLAGS);
  if (!flags.ok && flags.unknown.length) {
    problems.push(
      `FEATURE_FLAGS: unknown flag ${flags.unknown.join(', ')} (known: ${FEATURE_FLAG_NAMES.join(', ')})`,
    );
  }
  if (!flags.ok && flags.fixedOn?.length) {
    problems.push(
      `FEATURE_FLAGS: ${flags.fixedOn.map((name) => `-${name}`).join(', ')}: this flag is fixed on and cannot be switched off`,
    );
  }

  // Several instances may share one PostgreSQL database: a secret generated into one instance's
  // DATA_DIR is unknown to the others (issue #19). Only the embedded default may generate them.
  if (needsSecrets && env.DATABASE_URL?.trim()) {
    if (!env.JWT_SECRET?.trim()) problems.push(`JWT_SECRET: ${SHARED_SECRETS_MESSAGE}`);
    if (!env.VAPID_PUBLIC_KEY?.trim() && !env.VAPID_PRIVATE_KEY?.trim()) {
      problems.push(
        `VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: ${SHARED_SECRETS_MESSAGE} (make a pair with ` +
          '`npx web-push generate-vapid-keys`)',
      );
    }
  }

  const dataDir = path.resolve(process.cwd(), vars.DATA_DIR ?? './data');
  let secrets: ReturnType<typeof loadOrCreateSecrets> = {};
  // Only touch the disk when the rest is valid, so a typo never leaves files behind.
  if (problems.length === 0 && needsSecrets) {
    try {
      secrets = loadOrCreateSecrets(dataDir, {
        jwtSecret: !vars.JWT_SECRET,
        vapid: !(vars.VAPID_PUBLIC_KEY && vars.VAPID_PRIVATE_KEY),
      });
    } catch (error) {
      problems.push(`DATA_DIR: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const jwtSecret = vars.JWT_SECRET ?? secrets.jwtSecret;
  const vapid =
    vars.VAPID_PUBLIC_KEY && vars.VAPID_PRIVATE_KEY
      ? { publicKey: vars.VAPID_PUBLIC_KEY, privateKey: vars.VAPID_PRIVATE_KEY }
      : secrets.vapid;
  if (needsSecrets && (!jwtSecret || !vapid))
    throw new ConfigError(['DATA_DIR: secrets could not be generated']);

  return deepFreeze<Config>({
    port: vars.PORT ?? 3000,
    host: vars.HOST ?? '127.0.0.1',
    databaseUrl: vars.DATABASE_URL ?? null,
    dataDir,
    publicUrl: (vars.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    // Empty only for needsSecrets: false, whose callers never sign or check tokens.
    jwtSecret: jwtSecret ?? '',
    admin:
      vars.ADMIN_EMAIL && vars.ADMIN_PASSWORD
        ? { email: vars.ADMIN_EMAIL.toLowerCase(), password: vars.ADMIN_PASSWORD }
        : null,
    smtpUrl: vars.SMTP_URL ?? null,
    mailFrom: vars.MAIL_FROM ?? 'no-reply@localhost',
    featureFlagOverrides: flags.ok ? flags.overrides : {},
    vapid: vapid ?? { publicKey: '', privateKey: '' },
    logLevel: vars.LOG_LEVEL ?? 'info',
    supportEmail: vars.SUPPORT_EMAIL ?? DEFAULT_SUPPORT_EMAIL,
    webDistDir: vars.WEB_DIST_DIR
      ? path.resolve(process.cwd(), vars.WEB_DIST_DIR)
      : defaultWebDistDir(),
    trustProxy: vars.TRUST_PROXY ?? false,
    rateLimitAllowList: vars.RATE_LIMIT_ALLOWLIST ?? [],
    databasePoolMax: vars.DATABASE_POOL_MAX ?? DEFAULT_DATABASE_POOL_MAX,
    redisUrl: vars.REDIS_URL ?? null,
    demoDataForce: vars.DEMO_DATA_FORCE === '1' || vars.DEMO_DATA_FORCE === 'true',
    checkReplies: vars.CHECK_REPLIES === '1',
    sms: vars.SMS_SMPP_URL
      ? {
          smppUrl: vars.SMS_SMPP_URL,
          senderId: vars.SMS_SENDER_ID ?? 'BDMSIN',
          entityId: vars.SMS_DLT_ENTITY_ID ?? null,
          templateIds: vars.SMS_DLT_TEMPLATE_IDS ?? {},
          windowSize: vars.SMS_WINDOW ?? 10,
        }
      : null,
    whatsapp:
      vars.WHATSAPP_TOKEN &&
      vars.WHATSAPP_PHONE_NUMBER_ID &&
      vars.WHATSAPP_APP_SECRET &&
      vars.WHATSAPP_VERIFY_TOKEN
        ? {
            apiUrl: (vars.WHATSAPP_API_URL ?? 'https://graph.facebook.com').replace(/\/+$/, ''),
            apiVersion: vars.WHATSAPP_API_VERSION ?? 'v21.0',
            token: vars.WHATSAPP_TOKEN,
            phoneNumberId: vars.WHATSAPP_PHONE_NUMBER_ID,
            appSecret: vars.WHATSAPP_APP_SECRET,
            verifyToken: vars.WHATSAPP_VERIFY_TOKEN,
            alertTemplate: vars.WHATSAPP_ALERT_TEMPLATE ?? 'blood_request_alert',
            requestReceivedTemplate:
              vars.WHATSAPP_REQUEST_RECEIVED_TEMPLATE ?? 'blood_request_received',
            donorComingTemplate:
              vars.WHATSAPP_DONOR_COMING_TEMPLATE ?? 'blood_request_donor_coming',
            codeTemplate: vars.WHATSAPP_CODE_TEMPLATE ?? 'phone_code',
          }
        : null,
  });
}
