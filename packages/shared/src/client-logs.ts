import { z } from 'zod';
import { paginated, paginationQuerySchema } from './api';

/**
 * Extension (not in API.md): the web app's logger sends what went wrong on people's phones to
 * `POST /api/v1/client-logs`, so administrators can see errors in the field
 * (`GET /api/v1/admin/client-logs`). Product spec section 9, "Logging and performance".
 */

export const CLIENT_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type ClientLogLevel = (typeof CLIENT_LOG_LEVELS)[number];

/** Size limits of one batch: what a phone could send in one flush, and no more. */
export const CLIENT_LOG_LIMITS = {
  /** Entries in one batch. */
  maxEntries: 50,
  messageMax: 2000,
  stackMax: 8000,
  urlMax: 2048,
  categoryMax: 64,
  sessionIdMax: 64,
  clientVersionMax: 64,
  /** `context` serialised as JSON. */
  contextMaxBytes: 4096,
  /** The whole request body (413 beyond); the web app packs its batches below it. */
  bodyMaxBytes: 64 * 1024,
  /**
   * All anonymous reports together, per minute, in bytes of their bodies (429 beyond until the
   * minute ends): many addresses, each under its own limit, cannot fill the table.
   */
  anonymousBytesPerMinute: 512 * 1024,
  /** Batches per client address per minute (a client flushes every 30 s). */
  ratePerMinute: 20,
  /** Stored entries are deleted after this long. */
  retentionDays: 30,
} as const;

const contextSchema = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= CLIENT_LOG_LIMITS.contextMaxBytes, {
    message: `At most ${CLIENT_LOG_LIMITS.contextMaxBytes} characters of context.`,
  });

export const clientLogEntrySchema = z
  .object({
    level: z.enum(CLIENT_LOG_LEVELS),
    message: z.string().min(1).max(CLIENT_LOG_LIMITS.messageMax),
    /** When it happened on the device (ISO-8601); the server also records when it arrived. */
    timestamp: z.iso.datetime({ offset: true }),
    /** A short grouping word: `error`, `unhandledrejection`, `web-vitals`, `console`, ... */
    category: z.string().min(1).max(CLIENT_LOG_LIMITS.categoryMax).optional(),
    /** The page's path (the client drops query strings: they may hold tokens). */
    url: z.string().max(CLIENT_LOG_LIMITS.urlMax).optional(),
    stack: z.string().max(CLIENT_LOG_LIMITS.stackMax).optional(),
    /** Small structured details (a metric's value and rating, an error id). */
    context: contextSchema.optional(),
  })
  .strict();
export type ClientLogEntry = z.infer<typeof clientLogEntrySchema>;

export const clientLogBatchSchema = z
  .object({
    entries: z.array(clientLogEntrySchema).min(1).max(CLIENT_LOG_LIMITS.maxEntries),
    /** One id per page load, to group a visit's entries. */
    sessionId: z.string().min(1).max(CLIENT_LOG_LIMITS.sessionIdMax).optional(),
    clientVersion: z.string().min(1).max(CLIENT_LOG_LIMITS.clientVersionMax).optional(),
  })
  .strict();
export type ClientLogBatch = z.infer<typeof clientLogBatchSchema>;

export const clientLogReceiptSchema = z.object({ accepted: z.number().int() });
export type ClientLogReceipt = z.infer<typeof clientLogReceiptSchema>;

export const listClientLogsQuerySchema = paginationQuerySchema.extend({
  /** Only this level. */
  level: z.enum(CLIENT_LOG_LEVELS).optional(),
});
export type ListClientLogsQuery = z.infer<typeof listClientLogsQuerySchema>;

export const clientLogSchema = z.object({
  id: z.string(),
  level: z.enum(CLIENT_LOG_LEVELS),
  message: z.string(),
  category: z.string().nullable(),
  url: z.string().nullable(),
  stack: z.string().nullable(),
  context: z.record(z.string(), z.unknown()).nullable(),
  sessionId: z.string().nullable(),
  clientVersion: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The signed-in user who sent it, when a valid access token came with the batch. */
  userId: z.string().nullable(),
  occurredAt: z.string(),
  receivedAt: z.string(),
});
export type ClientLog = z.infer<typeof clientLogSchema>;

export const clientLogPageSchema = paginated(clientLogSchema);
export type ClientLogPage = z.infer<typeof clientLogPageSchema>;
