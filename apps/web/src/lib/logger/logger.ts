import {
  CLIENT_LOG_LIMITS,
  LOGGING,
  PWA_STORAGE_KEYS,
  type ClientLogBatch,
  type ClientLogEntry,
  type ClientLogLevel,
} from '@bdms/shared';

/**
 * The client logger (product spec section 9, "Logging and performance"): every entry goes to an
 * in-memory buffer of 1000 (the oldest dropped); entries worth sending (info and above) also wait
 * in local storage, at most 100, and are sent to `POST /api/v1/client-logs` every 30 s and when
 * the page is hidden. Entries the server refused as invalid are dropped; those that could not be
 * sent (offline, rate-limited) wait for the next flush, even after a reload.
 */

export type LogLevel = ClientLogLevel;
export type LogEntry = ClientLogEntry;

const LEVEL_RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface LogExtras {
  category?: string;
  stack?: string;
  context?: Record<string, unknown>;
}

/** What became of a batch: sent, refused for good (dropped), or to be retried. */
export type SendResult = 'sent' | 'rejected' | 'retry';

export interface LogTransport {
  send(batch: ClientLogBatch, options: { keepalive: boolean }): Promise<SendResult>;
}

export interface LogStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface LoggerTimers {
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
}

export interface LoggerOptions {
  transport: LogTransport;
  storage?: LogStorage | null;
  timers?: LoggerTimers;
  now?: () => number;
  /** The page's path (query strings are never logged: they may hold tokens). */
  currentPath?: () => string;
  sessionId?: string;
  clientVersion?: string;
  /** Entries below this level stay in the buffer only. */
  sendLevel?: LogLevel;
}

const GLOBAL_TIMERS: LoggerTimers = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
};

function clip(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** Context that fits the server's limit, or a note that it was too large. */
function fitContext(context: Record<string, unknown> | undefined) {
  if (!context) return undefined;
  try {
    const json = JSON.stringify(context);
    if (json.length <= CLIENT_LOG_LIMITS.contextMaxBytes)
      return JSON.parse(json) as Record<string, unknown>;
    return { truncated: true };
  } catch {
    return { unserialisable: true };
  }
}

function isEntry(value: unknown): value is LogEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.message === 'string' &&
    typeof entry.timestamp === 'string' &&
    typeof entry.level === 'string' &&
    entry.level in LEVEL_RANK
  );
}

export function createLogger(options: LoggerOptions) {
  const { transport } = options;
  const storage = options.storage ?? null;
  const timers = options.timers ?? GLOBAL_TIMERS;
  const now = options.now ?? Date.now;
  const currentPath = options.currentPath ?? (() => '');
  let sendLevel: LogLevel = options.sendLevel ?? 'info';
  let sendRank = LEVEL_RANK[sendLevel];

  const buffer: LogEntry[] = [];
  let pending: LogEntry[] = [];
  let flushing: Promise<void> | null = null;
  let interval: unknown = null;

  const persist = () => {
    if (!storage) return;
    try {
      if (pending.length === 0) storage.removeItem(PWA_STORAGE_KEYS.clientLogs);
      else storage.setItem(PWA_STORAGE_KEYS.clientLogs, JSON.stringify(pending));
    } catch {
      // Storage full or unavailable: the entries wait in memory only.
    }
  };

  const loadStored = () => {
    if (!storage) return;
    try {
      const value: unknown = JSON.parse(storage.getItem(PWA_STORAGE_KEYS.clientLogs) ?? '[]');
      if (Array.isArray(value)) {
        pending = [...value.filter(isEntry), ...pending].slice(-LOGGING.storedLogsMax);
      }
    } catch {
      pending = [...pending];
    }
  };

  const log = (level: LogLevel, message: string, extras: LogExtras = {}): LogEntry => {
    const path = currentPath();
    const entry: LogEntry = {
      level,
      message: clip(message || '(empty message)', CLIENT_LOG_LIMITS.messageMax),
      timestamp: new Date(now()).toISOString(),
      ...(extras.category
        ? { category: clip(extras.category, CLIENT_LOG_LIMITS.categoryMax) }
        : {}),
      ...(path ? { url: clip(path.split(/[?#]/)[0] ?? '', CLIENT_LOG_LIMITS.urlMax) } : {}),
      ...(extras.stack ? { stack: clip(extras.stack, CLIENT_LOG_LIMITS.stackMax) } : {}),
      ...(extras.context ? { context: fitContext(extras.context) } : {}),
    };
    buffer.push(entry);
    if (buffer.length > LOGGING.bufferSize) buffer.splice(0, buffer.length - LOGGING.bufferSize);
    if (LEVEL_RANK[level] >= sendRank) {
      pending.push(entry);
      if (pending.length > LOGGING.storedLogsMax) {
        pending.splice(0, pending.length - LOGGING.storedLogsMax);
      }
      persist();
    }
    return entry;
  };

  /**
   * The next entries to send: at most `maxEntries`, and small enough together for the server's
   * per-report size cap (a larger report would be refused with 413 and lost).
   */
  const nextEntries = (): LogEntry[] => {
    const entries: LogEntry[] = [];
    // Room for the envelope, the session id and the client version.
    let bytes = 512;
    for (const entry of pending) {
      if (entries.length >= CLIENT_LOG_LIMITS.maxEntries) break;
      const size = new TextEncoder().encode(JSON.stringify(entry)).length + 1;
      if (entries.length > 0 && bytes + size > CLIENT_LOG_LIMITS.bodyMaxBytes) break;
      entries.push(entry);
      bytes += size;
    }
    return entries;
  };

  const sendBatch = async (keepalive: boolean): Promise<void> => {
    while (pending.length > 0) {
      const entries = nextEntries();
      const batch: ClientLogBatch = {
        entries,
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
        ...(options.clientVersion ? { clientVersion: options.clientVersion } : {}),
      };
      let result: SendResult;
      try {
        result = await transport.send(batch, { keepalive });
      } catch {
        result = 'retry';
      }
      if (result === 'retry') return;
      // Sent, or refused for good: either way these entries are done.
      pending = pending.filter((entry) => !entries.includes(entry));
      persist();
      if (keepalive) return;
    }
  };

  const flush = (keepalive = false): Promise<void> => {
    if (flushing) return flushing;
    if (pending.length === 0) return Promise.resolve();
    flushing = sendBatch(keepalive).finally(() => {
      flushing = null;
    });
    return flushing;
  };

  return {
    log,
    debug: (message: string, extras?: LogExtras) => log('debug', message, extras),
    info: (message: string, extras?: LogExtras) => log('info', message, extras),
    warn: (message: string, extras?: LogExtras) => log('warn', message, extras),
    error: (message: string, extras?: LogExtras) => log('error', message, extras),
    flush,
    /** Loads what an earlier visit could not send, and flushes every 30 s. */
    start(): void {
      loadStored();
      if (interval === null)
        interval = timers.setInterval(() => void flush(), LOGGING.flushIntervalMs);
    },
    stop(): void {
      if (interval !== null) timers.clearInterval(interval);
      interval = null;
    },
    /** The in-memory buffer (newest last), for debugging and bug reports. */
    getBuffer: (): readonly LogEntry[] => [...buffer],
    /** Entries waiting to be sent. */
    getPending: (): readonly LogEntry[] => [...pending],
    /** The lowest level sent to the server (the debug panel changes it for this browser). */
    getSendLevel: (): LogLevel => sendLevel,
    setSendLevel(level: LogLevel): void {
      sendLevel = level;
      sendRank = LEVEL_RANK[level];
    },
  };
}

export type Logger = ReturnType<typeof createLogger>;
