import type { DonorStatus, Role } from '@bdms/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { AccessTokens } from '../lib/tokens';

/** Who is calling, as `authenticate` found them. */
export interface AuthUser {
  id: string;
  role: Role;
  status: DonorStatus;
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
export const FORBIDDEN_MESSAGE = 'You do not have permission to do this.';
export const SUSPENDED_MESSAGE =
  'Your account is suspended, so this is not available. Contact support if you think this is a mistake.';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` (or `app.identify`); null for guests. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 UNAUTHENTICATED unless a valid access token of a live account is sent. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: like `authenticate`, but a missing or bad token just leaves `request.user` null. */
    identify: (request: FastifyRequest) => Promise<void>;
  }
}

const unauthenticated = () => new AppError('UNAUTHENTICATED', SESSION_EXPIRED_MESSAGE);

/** The token of `Authorization: Bearer <token>`; null for a missing or malformed header. */
export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

export interface AuthPluginOptions {
  accessTokens: AccessTokens;
  db: Db;
}

/**
 * Every way a token can be bad (missing, malformed, expired, wrong signature, `alg: none`, an
 * account deleted since, a token older than the last password change) gets the same 401, so the
 * client's one rule applies: refresh, else sign in again.
 *
 * Suspended donors are authenticated: they may sign in and read their own account to see the
 * suspension. Routes that act on anything else add `requireActiveAccount`.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { accessTokens, db }: AuthPluginOptions) => {
    // Every signed-in call runs it: prepared once (built once here; on PostgreSQL, parsed and
    // planned once per connection).
    const findCaller = db
      .select({
        id: users.id,
        role: users.role,
        status: users.status,
        deletedAt: users.deletedAt,
        tokenVersion: users.tokenVersion,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare('auth_find_caller');

    async function resolve(request: FastifyRequest): Promise<AuthUser | null> {
      const token = bearerToken(request);
      if (!token) return null;
      const claims = await accessTokens.verify(token);
      if (!claims) return null;
      const [row] = await findCaller.execute({ id: claims.sub });
      if (!row || row.deletedAt || row.tokenVersion !== claims.ver) return null;
      // The role comes from the database: a role change takes effect at once.
      return { id: row.id, role: row.role, status: row.status };
    }

    app.decorateRequest('user', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const user = await resolve(request);
      if (!user) throw unauthenticated();
      request.user = user;
    });
    app.decorate('identify', async (request: FastifyRequest) => {
      request.user = await resolve(request);
    });
  },
  { name: 'bdms-auth' },
);

/** The caller set by `authenticate`; throws 401 if the route forgot to authenticate. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

/** preHandler (after `authenticate`): 403 FORBIDDEN unless the caller has one of `roles`. */
export function requireRole(...roles: Role[]) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!roles.includes(currentUser(request).role)) {
      throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
    }
  };
}

/** preHandler (after `authenticate`): 403 FORBIDDEN for a suspended account. */
export async function requireActiveAccount(request: FastifyRequest): Promise<void> {
  if (currentUser(request).status === 'suspended') {
    throw new AppError('FORBIDDEN', SUSPENDED_MESSAGE);
  }
}
