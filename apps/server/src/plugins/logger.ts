import type { FastifyRequest } from 'fastify';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../config/env';
import { databaseErrorSummary } from '../lib/db-errors';

/** Fields that carry secrets or personal data; they never reach a log line. */
export const SENSITIVE_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'code',
  'otp',
  'phone',
  'phoneNumber',
  'contactPhone',
  'email',
  'contactEmail',
] as const;

const HEADER_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];

// Top level, and up to three levels down (`{body:{user:{email}}}`), which covers the objects we log.
export const REDACT_PATHS = [
  ...HEADER_PATHS,
  ...SENSITIVE_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]),
];

const SENSITIVE_QUERY = new Set<string>(
  [...SENSITIVE_FIELDS, 'q'].map((name) => name.toLowerCase()),
);

/** Query strings end up in `req.url`; blank out the values of sensitive parameters. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const [name = ''] = pair.split('=', 1);
      return SENSITIVE_QUERY.has(decodeSafe(name).toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function serializeError(error: unknown): unknown {
  const summary = databaseErrorSummary(error);
  if (summary) return summary;
  return error instanceof Error ? pino.stdSerializers.err(error) : error;
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      // A failed statement's message and fields carry its parameters (e-mail addresses, phones),
      // which the path redaction above cannot see: log its SQLSTATE and statement fingerprint
      // instead (#32 item 18). Any other error is logged as pino does.
      err: serializeError,
      error: serializeError,
      // Fastify's default minus nothing we need, plus URL redaction. Bodies are never logged.
      req(request: FastifyRequest) {
        // Anything else logged under `req` passes through (redaction still applies).
        if (typeof request?.url !== 'string' || typeof request.method !== 'string') return request;
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino(loggerOptions(config));
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<Logger['info']>;

/**
 * A request's logger (Fastify makes one per request, with its id) whose pino child is made only
 * when the request logs at an enabled level: making a pino child runs the redaction over its
 * bindings, 8 % of the CPU of a cached public read while nothing is logged. What is logged is
 * the same: the real child's lines.
 */
export class LazyChildLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: pino.Bindings,
    private readonly options: pino.ChildLoggerOptions,
  ) {}

  #real(): Logger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  #log(level: Level, args: LogArgs): void {
    if (this.parent.isLevelEnabled(level)) this.#real()[level](...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(value: string) {
    this.#real().level = value;
  }

  fatal(...args: LogArgs): void {
    this.#log('fatal', args);
  }
  error(...args: LogArgs): void {
    this.#log('error', args);
  }
  warn(...args: LogArgs): void {
    this.#log('warn', args);
  }
  info(...args: LogArgs): void {
    this.#log('info', args);
  }
  debug(...args: LogArgs): void {
    this.#log('debug', args);
  }
  trace(...args: LogArgs): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.#real().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: see LazyChildLogger. */
export function lazyChildLoggerFactory(
  logger: Logger,
  bindings: pino.Bindings,
  options: pino.ChildLoggerOptions,
): Logger {
  return new LazyChildLogger(logger, bindings, options) as unknown as Logger;
}
