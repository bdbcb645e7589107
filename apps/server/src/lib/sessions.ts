import { SESSION, type AuthTokens } from '@bdms/shared';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { refreshTokens, users } from '../db/schema';
import {
  generateOpaqueToken,
  hashOpaqueToken,
  type AccessTokens,
  type TokenSubject,
} from './tokens';

export interface SessionContext {
  ip?: string | null;
  userAgent?: string | null;
}

export const REVOKE_REASONS = {
  logout: 'logout',
  passwordReset: 'password_reset',
  passwordChange: 'password_change',
  suspension: 'suspension',
  accountDisabled: 'account_disabled',
} as const;
export type RevokeReason = (typeof REVOKE_REASONS)[keyof typeof REVOKE_REASONS];

const MAX_USER_AGENT = 512;

export interface SessionsDeps {
  db: Db;
  accessTokens: AccessTokens;
  now?: () => number;
  refreshTokenTtlMs?: number;
}

/**
 * Sign-in sessions: an access token (JWT, 1 hour) plus an opaque refresh token (30 days) whose
 * SHA-256 is stored in `refresh_tokens`. Used by auth (sign-in, refresh, logout, reset) and by
 * any feature that must sign someone out (password change, suspension).
 */
export function createSessions(deps: SessionsDeps) {
  const now = deps.now ?? Date.now;
  const refreshTtlMs = deps.refreshTokenTtlMs ?? SESSION.refreshTokenTtlMs;

  return {
    /** A new session for the user; pass a transaction as `db` to create it atomically. */
    async issue(
      user: TokenSubject,
      context: SessionContext = {},
      db: Db = deps.db,
    ): Promise<AuthTokens> {
      const refreshToken = generateOpaqueToken();
      const at = now();
      await db.insert(refreshTokens).values({
        userId: user.id,
        tokenHash: hashOpaqueToken(refreshToken),
        createdAt: new Date(at),
        expiresAt: new Date(at + refreshTtlMs),
        userAgent: context.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
        ip: context.ip ?? null,
      });
      return {
        accessToken: await deps.accessTokens.sign(user),
        refreshToken,
        expiresIn: deps.accessTokens.ttlSeconds,
      };
    },

    /**
     * A new access token for a live refresh token of an existing account, with the account's
     * current role; null when the token is unknown, expired or revoked. The refresh token is
     * not rotated (the client keeps it).
     */
    async refresh(
      refreshToken: string,
    ): Promise<{ accessToken: string; expiresIn: number } | null> {
      const at = new Date(now());
      const [row] = await deps.db
        .select({
          id: refreshTokens.id,
          userId: users.id,
          role: users.role,
          tokenVersion: users.tokenVersion,
        })
        .from(refreshTokens)
        .innerJoin(users, eq(users.id, refreshTokens.userId))
        .where(
          and(
            eq(refreshTokens.tokenHash, hashOpaqueToken(refreshToken)),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, at),
            isNull(users.deletedAt),
          ),
        )
        .limit(1);
      if (!row) return null;
      await deps.db
        .update(refreshTokens)
        .set({ lastUsedAt: at })
        .where(eq(refreshTokens.id, row.id));
      return {
        accessToken: await deps.accessTokens.sign({
          id: row.userId,
          role: row.role,
          tokenVersion: row.tokenVersion,
        }),
        expiresIn: deps.accessTokens.ttlSeconds,
      };
    },

    /**
     * Revokes one refresh token. With `onlyUserId`, only if it belongs to that user. Unknown or
     * already revoked tokens are ignored. Returns the owner's id when something was revoked.
     */
    async revoke(
      refreshToken: string,
      reason: RevokeReason,
      onlyUserId?: string,
    ): Promise<string | null> {
      const conditions = [
        eq(refreshTokens.tokenHash, hashOpaqueToken(refreshToken)),
        isNull(refreshTokens.revokedAt),
      ];
      if (onlyUserId) conditions.push(eq(refreshTokens.userId, onlyUserId));
      const [row] = await deps.db
        .update(refreshTokens)
        .set({ revokedAt: new Date(now()), revokedReason: reason })
        .where(and(...conditions))
        .returning({ userId: refreshTokens.userId });
      return row?.userId ?? null;
    },

    /**
     * Ends every access token of the user already issued (token version raised; the auth plugin
     * compares it on each request). Refresh tokens stay valid: another device signed in gets a
     * new access token at its next refresh, with the new version.
     */
    async endAccessTokens(userId: string, db: Db = deps.db): Promise<void> {
      await db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, userId));
    },

    /**
     * Signs the user out everywhere: every refresh token is revoked and the token version is
     * raised, so access tokens already issued stop working too. Returns the new version, for
     * issuing the session that replaces the current one.
     */
    async revokeAll(userId: string, reason: RevokeReason, db: Db = deps.db): Promise<number> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date(now()), revokedReason: reason })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
      const [row] = await db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, userId))
        .returning({ tokenVersion: users.tokenVersion });
      return row?.tokenVersion ?? 0;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
