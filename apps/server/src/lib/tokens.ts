import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH, ROLES, SESSION, type Role } from '@bdms/shared';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';

/** `iss` and `aud` of every access token: a token minted for another service is refused. */
export const TOKEN_ISSUER = 'bdms-server';
export const TOKEN_AUDIENCE = 'bdms-api';
export const ACCESS_TOKEN_TTL_SECONDS = SESSION.accessTokenTtlSeconds;
export const ACCESS_TOKEN_ALGORITHM = 'HS256';

export interface AccessTokenClaims {
  /** The user id (`sub`). */
  sub: string;
  role: Role;
  /** The user's token version when issued (users.token_version); older versions are refused. */
  ver: number;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
}

const claimsSchema = z.object({
  // Checked as a UUID so a forged-but-signed oddity can never reach a uuid column as text.
  sub: z.guid(),
  role: z.enum(ROLES),
  ver: z.number().int().min(0),
  iat: z.number().int(),
  exp: z.number().int(),
});

export interface TokenSubject {
  id: string;
  role: Role;
  tokenVersion: number;
}

export interface AccessTokenOptions {
  secret: string;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  ttlSeconds?: number;
}

/**
 * Access tokens are JWTs signed with HS256 and JWT_SECRET. Verification pins the algorithm, so a
 * token with `alg: none` or an asymmetric algorithm is refused, and checks `iss`, `aud` and `exp`.
 */
export function createAccessTokens(options: AccessTokenOptions) {
  const key = new TextEncoder().encode(options.secret);
  const now = options.now ?? Date.now;
  const ttlSeconds = options.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;

  return {
    ttlSeconds,

    async sign(subject: TokenSubject): Promise<string> {
      const issuedAt = Math.floor(now() / 1000);
      return new SignJWT({ role: subject.role, ver: subject.tokenVersion })
        .setProtectedHeader({ alg: ACCESS_TOKEN_ALGORITHM, typ: 'JWT' })
        .setSubject(subject.id)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(key);
    },

    /** The claims of a valid token; null for anything else (expired, forged, malformed). */
    async verify(token: string): Promise<AccessTokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ACCESS_TOKEN_ALGORITHM],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          requiredClaims: ['sub', 'iat', 'exp'],
          currentDate: new Date(now()),
        });
        const claims = claimsSchema.safeParse(payload);
        return claims.success ? claims.data : null;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;

/** 32 random bytes, base64url: refresh tokens and reset-link tokens. */
export function generateOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of an opaque token: enough to find it, useless to present. */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A uniformly random code of OTP_LENGTH digits, leading zeros kept. */
export function generateOtpCode(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/**
 * One-time codes are keyed hashes (HMAC-SHA-256 with the server secret, bound to the user and
 * purpose): a million possible codes make an unkeyed hash trivial to reverse.
 */
export function hashOtpCode(secret: string, userId: string, purpose: string, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${userId}:${code}`).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/**
 * A keyed digest of something personal kept only to be compared or counted (an e-mail address
 * in a counter's key, the client address that asked for a code): equal inputs give equal
 * digests, and a copy of the database does not reveal the inputs.
 */
export function keyedDigest(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('hex');
}
