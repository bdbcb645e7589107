import type { FastifyRequest } from 'fastify';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../config/env';

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

export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
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
