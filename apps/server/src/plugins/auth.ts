import type { DonorStatus, Role } from '@bdms/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { cachedRead } from '../db/read-cache';
import { hospitals, users } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { AccessTokens } from '../lib/tokens';

/** Who is calling, as `authenticate` found them. */
export interface AuthUser {
  id: string;
  role: Role;
  status: DonorStatus;
  /**
   * Hospital accounts linked to an organisation that is not verified (self-registered, waiting
   * or rejected) or is disabled: true. Such a caller is refused everywhere but on the routes
   * marked `config: { allowUnverifiedHospital: true }` (see `authenticate`).
   */
  isHospitalOnHold?: boolean;
}

export const HOSPITAL_NOT_VERIFIED_MESSAGE =
  'Your blood centre’s registration is not verified yet, so this is not available. An administrator checks it against the directory and the licence; you will get an e-mail.';

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
export const FORBIDDEN_MESSAGE = 'You do not have permission to do this.';
export const SUSPENDED_MESSAGE =
  'Your account is suspended, so this is not available. Contact support if you think this is a mistake.';

/**
 * What authentication needs of the caller's row. A route whose own single statement already
 * reads the caller's users row (`/auth/me`) hands these over through `authenticateWith`, so
 * the call costs one statement instead of two (issue #20).
 */
export interface CallerFacts {
  id: string;
  role: Role;
  status: DonorStatus;
  deletedAt: Date | null;
  tokenVersion: number;
  /** The linked hospital's verification status; null without a linked hospital. */
  hospitalStatus: 'pending' | 'verified' | 'rejected' | null;
  hospitalDisabled: boolean;
}

/**
 * The columns CallerFacts come from: `users` left-joined to `hospitals` on `users.hospital_id`.
 * A route's own statement selects them (`caller: CALLER_COLUMNS`) to authenticate with it.
 */
export const CALLER_COLUMNS = {
  id: users.id,
  role: users.role,
  status: users.status,
  deletedAt: users.deletedAt,
  tokenVersion: users.tokenVersion,
  hospitalStatus: hospitals.verificationStatus,
  hospitalDisabledAt: hospitals.disabledAt,
};

/** CallerFacts from a row selected with CALLER_COLUMNS. */
export function callerFactsFrom({
  hospitalDisabledAt,
  ...row
}: Omit<CallerFacts, 'hospitalDisabled'> & { hospitalDisabledAt: Date | null }): CallerFacts {
  return { ...row, hospitalDisabled: hospitalDisabledAt !== null };
}

/** Reads a user's row for authentication with what a route shows of it; undefined: no row. */
export type SelfLoader<T> = (
  userId: string,
) => Promise<{ caller: CallerFacts; value: T } | undefined>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A hospital account on hold (not verified, or disabled) may call this route: signing out,
     * reading its own account and registration, confirming its e-mail and phone.
     */
    allowUnverifiedHospital?: boolean;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate` (or `app.identify`); null for guests. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 UNAUTHENTICATED unless a valid access token of a live account is sent. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: like `authenticate`, but a missing or bad token just leaves `request.user` null. */
    identify: (request: FastifyRequest) => Promise<void>;
    /**
     * `authenticate` inside a handler, with the caller's row read by `load` (called with the
     * token's subject) instead of by a statement of its own: the same checks and the same 401
     * and 403 answers; resolves with what `load` read. For routes reading only the caller.
     */
    authenticateWith: <T>(request: FastifyRequest, load: SelfLoader<T>) => Promise<T>;
    /**
     * `authenticate` inside a handler of a route about user `targetId`: when the caller is that
     * user, their row is read by `loadSelf` with what the route shows of it (one statement,
     * `self` is set); otherwise as `authenticate` does, and `self` is undefined. The same checks
     * and answers either way.
     */
    authenticateSelf: <T>(
      request: FastifyRequest,
      targetId: string,
      loadSelf: SelfLoader<T>,
    ) => Promise<{ caller: AuthUser; self: T | undefined }>;
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
    const findCallerQuery = db
      .select(CALLER_COLUMNS)
      .from(users)
      .leftJoin(hospitals, eq(hospitals.id, users.hospitalId))
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare('auth_find_caller');
    // Served from memory while users and hospitals were not written (db/read-cache.ts): the
    // token version, deletion, role and hospital standing are as fresh as a read.
    const findCaller = cachedRead(db, 'auth_find_caller', findCallerQuery);

    /** The claims of the request's bearer token; null for a missing or bad one. */
    async function claimsOf(request: FastifyRequest) {
      const token = bearerToken(request);
      return token ? accessTokens.verify(token) : null;
    }

    /** The caller, when the row is of a live account and the token is not older than it. */
    function callerOf(row: CallerFacts | undefined, claims: { ver: number }): AuthUser | null {
      if (!row || row.deletedAt || row.tokenVersion !== claims.ver) return null;
      // The role comes from the database: a role change takes effect at once, and so does a
      // hospital's verification (or its rejection, or its being disabled).
      const isHospitalOnHold =
        row.role === 'hospital' &&
        row.hospitalStatus !== null &&
        (row.hospitalStatus !== 'verified' || row.hospitalDisabled);
      return {
        id: row.id,
        role: row.role,
        status: row.status,
        ...(isHospitalOnHold ? { isHospitalOnHold } : {}),
      };
    }

    async function resolve(request: FastifyRequest): Promise<AuthUser | null> {
      const claims = await claimsOf(request);
      if (!claims) return null;
      return callerOf(await readCaller(claims.sub), claims);
    }

    async function readCaller(userId: string): Promise<CallerFacts | undefined> {
      const [row] = await findCaller({ id: userId });
      return row && callerFactsFrom(row);
    }

    /**
     * Issue #17: a hospital account on hold may sign in and see where its registration stands,
     * and nothing more: every other route refuses it here, before any handler, so no hospital
     * action (stock, verifying a request, recording a donation, a request made as staff) can
     * slip through a route that forgot to ask.
     */
    function refuseOnHold(request: FastifyRequest, user: AuthUser | null): void {
      if (user?.isHospitalOnHold && !request.routeOptions.config?.allowUnverifiedHospital) {
        throw new AppError('HOSPITAL_NOT_VERIFIED', HOSPITAL_NOT_VERIFIED_MESSAGE);
      }
    }

    app.decorateRequest('user', null);
    app.decorate('identify', async (request: FastifyRequest) => {
      const user = await resolve(request);
      refuseOnHold(request, user);
      request.user = user;
    });

    /** Checks the caller found by `read` as `authenticate` does, and keeps what it read. */
    async function authenticateBy<T>(
      request: FastifyRequest,
      read: (userId: string) => Promise<{ caller: CallerFacts | undefined; value?: T }>,
    ): Promise<{ caller: AuthUser; value: T | undefined }> {
      const claims = await claimsOf(request);
      if (!claims) throw unauthenticated();
      const found = await read(claims.sub);
      const user = callerOf(found.caller, claims);
      if (!user) throw unauthenticated();
      refuseOnHold(request, user);
      request.user = user;
      return { caller: user, value: found.value };
    }

    app.decorate('authenticate', async (request: FastifyRequest) => {
      await authenticateBy(request, async (userId) => ({ caller: await readCaller(userId) }));
    });
    app.decorate(
      'authenticateWith',
      async <T>(request: FastifyRequest, load: SelfLoader<T>): Promise<T> => {
        const { value } = await authenticateBy(
          request,
          async (userId) => (await load(userId)) ?? { caller: undefined },
        );
        // A caller that passed the checks was found, so `load` returned its value.
        return value as T;
      },
    );
    app.decorate(
      'authenticateSelf',
      async <T>(request: FastifyRequest, targetId: string, loadSelf: SelfLoader<T>) => {
        const { caller, value } = await authenticateBy(request, async (userId) =>
          userId === targetId
            ? ((await loadSelf(userId)) ?? { caller: undefined })
            : { caller: await readCaller(userId) },
        );
        return { caller, self: value };
      },
    );
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
