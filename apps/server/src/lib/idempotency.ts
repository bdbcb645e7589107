import { createHmac } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { AppError } from './app-error';

/** How long a stored reply is replayed; older keys are pruned. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredReply {
  statusCode: number;
  body: unknown;
}

export interface WorkReply extends StoredReply {
  /**
   * What is kept for replays when it must differ from `body`: a reply carrying credentials keeps
   * only what the caller needs to rebuild it (registration keeps the user's id, and a retry gets
   * a new session). Defaults to `body`.
   */
  stored?: unknown;
}

export interface IdempotentResult extends StoredReply {
  /** True when this is the stored reply of an earlier request (then `body` is what was stored). */
  replayed: boolean;
}

/** Keys whose values sign someone in or set a password: never kept at rest in a stored reply. */
const CREDENTIAL_KEYS = new Set(['tokens', 'accessToken', 'refreshToken', 'password', 'token']);

/** The path of the first credential-bearing key in `value`, or null. */
export function findCredential(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findCredential(item, `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (CREDENTIAL_KEYS.has(key)) return `${path}.${key}`;
      const found = findCredential(child, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * A stable fingerprint of a parsed body (keys sorted, so property order does not matter). Keyed
 * with a server secret because bodies may hold a password: a plain hash of a body whose other
 * fields are in the users table would be an unsalted password hash.
 */
export function fingerprint(value: unknown, secret: string): string {
  const canonical = (input: unknown): unknown => {
    if (Array.isArray(input)) return input.map(canonical);
    if (input && typeof input === 'object') {
      return Object.fromEntries(
        Object.keys(input as Record<string, unknown>)
          .sort()
          .map((key) => [key, canonical((input as Record<string, unknown>)[key])]),
      );
    }
    return input;
  };
  return createHmac('sha256', secret)
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

class AlreadyClaimed extends Error {}

const reusedKey = () =>
  new AppError(
    'CONFLICT',
    'This X-Request-ID was already used for a different request. Send a new X-Request-ID.',
  );
const stillRunning = () =>
  new AppError(
    'CONFLICT',
    'A request with this X-Request-ID is still being processed. Try again in a moment.',
  );

/**
 * API.md: a retried POST that creates something, with the same X-Request-ID, returns the first
 * result and creates nothing new. The key row is inserted in the same transaction as the work,
 * so on PostgreSQL a concurrent duplicate waits on the key's unique index and then replays the
 * committed reply; a failed first attempt leaves no row and the retry runs afresh. Only
 * successes are stored: a retried failure simply fails again the same way.
 */
export function createIdempotency(db: Db, now: () => number = Date.now) {
  async function find(key: string, route: string) {
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.route, route)))
      .limit(1);
    if (!row || row.createdAt.getTime() < now() - IDEMPOTENCY_TTL_MS) return undefined;
    return row;
  }

  function replay(row: NonNullable<Awaited<ReturnType<typeof find>>>, requestHash: string) {
    if (row.requestHash !== requestHash) throw reusedKey();
    if (row.statusCode === null) throw stillRunning();
    return { statusCode: row.statusCode, body: row.body, replayed: true };
  }

  return {
    async run(
      key: { key: string; route: string; requestHash: string },
      work: (tx: Db) => Promise<WorkReply>,
    ): Promise<IdempotentResult> {
      const existing = await find(key.key, key.route);
      if (existing) return replay(existing, key.requestHash);
      await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, new Date(now() - IDEMPOTENCY_TTL_MS)));
      try {
        return await db.transaction(async (tx) => {
          const [claimed] = await tx
            .insert(idempotencyKeys)
            .values({ ...key, createdAt: new Date(now()) })
            .onConflictDoNothing()
            .returning({ key: idempotencyKeys.key });
          if (!claimed) throw new AlreadyClaimed();
          const { stored, ...reply } = await work(tx);
          const kept = stored === undefined ? reply.body : stored;
          // Issue #14: a copy of the database must sign nobody in. A route that would store
          // tokens is a programming error, refused before anything is committed.
          const credential = findCredential(kept);
          if (credential) {
            throw new Error(
              `idempotency: refusing to store a reply with a credential (${credential})`,
            );
          }
          await tx
            .update(idempotencyKeys)
            .set({ statusCode: reply.statusCode, body: kept })
            .where(and(eq(idempotencyKeys.key, key.key), eq(idempotencyKeys.route, key.route)));
          return { ...reply, replayed: false };
        });
      } catch (error) {
        if (!(error instanceof AlreadyClaimed)) throw error;
        const row = await find(key.key, key.route);
        if (!row) throw stillRunning();
        return replay(row, key.requestHash);
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
