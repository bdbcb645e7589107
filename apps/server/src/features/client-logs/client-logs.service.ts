import { createHmac } from 'node:crypto';
import {
  CLIENT_LOG_LIMITS,
  DAY,
  type ClientLog,
  type ClientLogBatch,
  type ClientLogPage,
  type ClientLogReceipt,
  type ListClientLogsQuery,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { ClientLogRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { createUsageCounter, secondsUntil } from '../../lib/usage-counter';
import { createClientLogsRepository, type NewClientLog } from './client-logs.repository';

export const CLIENT_LOG_RETENTION_MS = CLIENT_LOG_LIMITS.retentionDays * DAY;
const USER_AGENT_MAX = 512;

/** The sender's address as a keyed hash: repeated reports from one place show, the address does not. */
export function hashLogAddress(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`client-log-ip:${address}`).digest('hex');
}

/**
 * Only the path of a page address: query strings and fragments can hold tokens (a password reset
 * link) or personal data, and the path is what an administrator needs.
 */
export function pathOnly(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, 'http://client.invalid');
    return url.pathname;
  } catch {
    return value.split(/[?#]/)[0] ?? null;
  }
}

export interface ClientLogsServiceDeps {
  db: Db;
  /** Keys the address hash (the server's JWT secret). */
  secret: string;
  now?: () => number;
}

export interface ClientLogSender {
  ip: string;
  userAgent: string | null;
  userId: string | null;
  /** The size of the report's body. */
  bytes: number;
}

/** The shared budget of anonymous reports (usage_counters key). */
export const ANONYMOUS_BUDGET_KEY = 'client-logs:anonymous-bytes';
const MINUTE_MS = 60_000;

function toClientLog(row: ClientLogRow): ClientLog {
  return {
    id: row.id,
    level: row.level,
    message: row.message,
    category: row.category,
    url: row.url,
    stack: row.stack,
    context: row.context ?? null,
    sessionId: row.sessionId,
    clientVersion: row.clientVersion,
    userAgent: row.userAgent,
    userId: row.userId,
    occurredAt: row.occurredAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
  };
}

export function createClientLogsService(deps: ClientLogsServiceDeps) {
  const repository = createClientLogsRepository(deps.db);
  const usage = createUsageCounter(deps.db);
  const now = deps.now ?? Date.now;

  /**
   * Anonymous reports draw on one budget for all senders together, counted in the database so
   * every server process agrees: 429 RATE_LIMITED with Retry-After (the minute's end) once it is
   * spent. Signed-in reports are tied to an account and only have the per-address limit.
   */
  async function spendAnonymousBudget(bytes: number): Promise<void> {
    const at = now();
    const window = await usage.add(ANONYMOUS_BUDGET_KEY, bytes, MINUTE_MS, at);
    if (window.used <= CLIENT_LOG_LIMITS.anonymousBytesPerMinute) return;
    const seconds = secondsUntil(window.windowEnd, at);
    throw new AppError(
      'RATE_LIMITED',
      `Too many reports from browsers right now. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      undefined,
      { 'retry-after': String(seconds) },
    );
  }

  return {
    /** Stores a batch from a browser; entries older than the retention period go at the same time. */
    async record(batch: ClientLogBatch, sender: ClientLogSender): Promise<ClientLogReceipt> {
      if (sender.userId === null) await spendAnonymousBudget(sender.bytes);
      const receivedAt = new Date(now());
      const ipHash = hashLogAddress(sender.ip, deps.secret);
      const userAgent = sender.userAgent?.slice(0, USER_AGENT_MAX) ?? null;
      const rows: NewClientLog[] = batch.entries.map((entry) => {
        const occurredAt = new Date(entry.timestamp);
        return {
          level: entry.level,
          message: entry.message,
          category: entry.category ?? null,
          url: pathOnly(entry.url),
          stack: entry.stack ?? null,
          context: entry.context ?? null,
          sessionId: batch.sessionId ?? null,
          clientVersion: batch.clientVersion ?? null,
          userAgent,
          userId: sender.userId,
          ipHash,
          // A device clock in the future would sort above everything else: cap it at arrival.
          occurredAt: occurredAt > receivedAt ? receivedAt : occurredAt,
          receivedAt,
        };
      });
      await repository.deleteReceivedBefore(new Date(now() - CLIENT_LOG_RETENTION_MS));
      return { accepted: await repository.insertMany(rows) };
    },

    async list(query: ListClientLogsQuery): Promise<ClientLogPage> {
      const { rows, total } = await repository.list(query);
      return {
        items: rows.map(toClientLog),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },
  };
}

export type ClientLogsService = ReturnType<typeof createClientLogsService>;
