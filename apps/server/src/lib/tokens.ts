import {
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
  webcrypto,
} from 'node:crypto';
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
  /** How many verified tokens are remembered (see `verify`); 0 turns the memory off. */
  verifiedCacheSize?: number;
}

/** Enough for every token signed-in clients send within an hour on one busy instance. */
const VERIFIED_CACHE_SIZE = 10_000;

interface VerifiedToken {
  claims: AccessTokenClaims;
  /** `nbf` of the payload, when it had one (ours do not; a token from elsewhere might). */
  notBefore: number | null;
}

/**
 * Access tokens are JWTs signed with HS256 and JWT_SECRET. Verification pins the algorithm, so a
 * token with `alg: none` or an asymmetric algorithm is refused, and checks `iss`, `aud` and `exp`.
 */
export function createAccessTokens(options: AccessTokenOptions) {
  const secret = new TextEncoder().encode(options.secret);
  // Imported once: given raw bytes, jose imports a new WebCrypto key on every call (issue #20's
  // profile: a tenth of a signed-in call's CPU time went to that and the verification).
  let imported: Promise<webcrypto.CryptoKey> | null = null;
  const key = () => {
    if (!imported) {
      const importing = webcrypto.subtle.importKey(
        'raw',
        secret,
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      );
      imported = importing;
      // A failed import is not kept: the next call tries again.
      importing.catch(() => {
        if (imported === importing) imported = null;
      });
    }
    return imported;
  };
  const now = options.now ?? Date.now;
  const ttlSeconds = options.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  const cacheSize = options.verifiedCacheSize ?? VERIFIED_CACHE_SIZE;
  /**
   * Tokens whose signature and claims were verified, by their exact text: the same bytes verify
   * the same way again, so only the time checks (`exp`, `nbf`) are repeated. The oldest entry
   * goes first when it is full (a Map keeps insertion order).
   */
  const verified = new Map<string, VerifiedToken>();

  function remember(token: string, entry: VerifiedToken) {
    if (cacheSize <= 0) return;
    if (verified.size >= cacheSize) {
      const oldest = verified.keys().next();
      if (!oldest.done) verified.delete(oldest.value);
    }
    verified.set(token, entry);
  }

  /** jose's time rules (no clock tolerance): expired when `exp` ≤ now, early when `nbf` > now. */
  function inTime(entry: VerifiedToken): boolean {
    const seconds = Math.floor(now() / 1000);
    return entry.claims.exp > seconds && (entry.notBefore === null || entry.notBefore <= seconds);
  }

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
        .sign(await key());
    },

    /** The claims of a valid token; null for anything else (expired, forged, malformed). */
    async verify(token: string): Promise<AccessTokenClaims | null> {
      const known = verified.get(token);
      if (known) return inTime(known) ? known.claims : null;
      try {
        const { payload } = await jwtVerify(token, await key(), {
          algorithms: [ACCESS_TOKEN_ALGORITHM],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          requiredClaims: ['sub', 'iat', 'exp'],
          currentDate: new Date(now()),
        });
        const claims = claimsSchema.safeParse(payload);
        if (!claims.success) return null;
        remember(token, {
          claims: claims.data,
          notBefore: typeof payload.nbf === 'number' ? payload.nbf : null,
        });
        return claims.data;
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
