import { CLIENT_LOG_LEVELS, PWA_STORAGE_KEYS } from '@bdms/shared';
import { api, isApiError } from '../api-client';
import { env } from '../../config/env';
import { createLogger, type LogLevel, type LogTransport, type Logger } from './logger';
import { startVitals } from './vitals';

export { createLogger, type Logger, type LogEntry, type LogLevel } from './logger';
export { rateVital, type VitalName, type VitalRating, type VitalReport } from './vitals';

/** `POST /api/v1/client-logs` through the API client (its headers, and the user's token if any). */
export const httpLogTransport: LogTransport = {
  async send(batch, { keepalive }) {
    try {
      await api.post('/client-logs', batch, {
        transport: (url, init) => fetch(url, { ...init, keepalive }),
      });
      return 'sent';
    } catch (error) {
      // A refusal of this batch itself (invalid, too large) will not change on a retry.
      const status = isApiError(error) ? error.status : 0;
      return status >= 400 && status < 500 && status !== 408 && status !== 429
        ? 'rejected'
        : 'retry';
    }
  },
};

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

let active: Logger | null = null;

/** The level chosen in the debug panel for this browser, if any (issue #21, debugMode). */
function storedLogLevel(win: Window): LogLevel | undefined {
  try {
    const value = win.localStorage.getItem(PWA_STORAGE_KEYS.clientLogLevel);
    return CLIENT_LOG_LEVELS.find((level) => level === value);
  } catch {
    return undefined;
  }
}

/** Sets the client log level for this browser (the debug panel), now and after a reload. */
export function setClientLogLevel(level: LogLevel, win: Window = window): void {
  active?.setSendLevel(level);
  try {
    win.localStorage.setItem(PWA_STORAGE_KEYS.clientLogLevel, level);
  } catch {
    // Storage unavailable: the level holds for this visit only.
  }
}

/** The running logger (null before `startClientLogging`, e.g. in tests). */
export function getLogger(): Logger | null {
  return active;
}

/**
 * Starts the app's logger: uncaught errors, unhandled rejections, console warnings and errors,
 * and the web vitals are logged and sent to the server. Started once, after the first page load.
 */
export function startClientLogging(win: Window = window): Logger {
  if (active) return active;
  const logger = createLogger({
    sendLevel: storedLogLevel(win),
    transport: httpLogTransport,
    storage: (() => {
      try {
        return win.localStorage;
      } catch {
        return null;
      }
    })(),
    currentPath: () => win.location.pathname,
    sessionId: crypto.randomUUID(),
    clientVersion: env.appVersion,
  });
  active = logger;
  logger.start();

  win.addEventListener('error', (event: ErrorEvent) => {
    const where = event.filename ? ` (${event.filename}:${event.lineno}:${event.colno})` : '';
    logger.error(`${event.message || describe(event.error)}${where}`, {
      category: 'error',
      stack: event.error instanceof Error ? event.error.stack : undefined,
    });
  });
  win.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    logger.error(describe(event.reason), {
      category: 'unhandledrejection',
      stack: event.reason instanceof Error ? event.reason.stack : undefined,
    });
  });

  // What the app already reports to the console (error boundaries, the session layer) is kept.
  for (const level of ['warn', 'error'] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      original(...args);
      const error = args.find((arg): arg is Error => arg instanceof Error);
      logger.log(level, args.map(describe).join(' '), { category: 'console', stack: error?.stack });
    };
  }

  const flushNow = () => void logger.flush(true);
  win.addEventListener('pagehide', flushNow);
  win.document.addEventListener('visibilitychange', () => {
    if (win.document.visibilityState === 'hidden') flushNow();
  });

  // Good measurements stay on the device; slow ones reach the server (poor ones as warnings).
  void startVitals((vital) => {
    const level = vital.rating === 'good' ? 'debug' : vital.rating === 'poor' ? 'warn' : 'info';
    logger.log(level, `${vital.name} ${Math.round(vital.value * 1000) / 1000} (${vital.rating})`, {
      category: 'web-vitals',
      context: { name: vital.name, value: vital.value, rating: vital.rating },
    });
  }).catch(() => undefined);
  // Anything left from an earlier visit goes now rather than in 30 s.
  void logger.flush();
  return logger;
}
