import { randomUUID } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  createAccessTokens,
  digestsEqual,
  generateOpaqueToken,
  generateOtpCode,
  hashOpaqueToken,
  hashOtpCode,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
} from './tokens';

const SECRET = 'a-test-secret-that-is-at-least-32-characters';
const subject = { id: randomUUID(), role: 'donor' as const, tokenVersion: 2 };

function decodePayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

describe('access tokens', () => {
  it('signs HS256 JWTs carrying sub, role, ver, iss, aud, iat and a 1-hour exp', async () => {
    const now = Date.UTC(2026, 10, 21, 10, 0, 0);
    const tokens = createAccessTokens({ secret: SECRET, now: () => now });
    const token = await tokens.sign(subject);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = decodePayload(token);
    expect(payload).toEqual({
      sub: subject.id,
      role: 'donor',
      ver: 2,
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
      iat: now / 1000,
      exp: now / 1000 + 3600,
    });
    expect(tokens.ttlSeconds).toBe(3600);
    expect(await tokens.verify(token)).toEqual({
      sub: subject.id,
      role: 'donor',
      ver: 2,
      iat: now / 1000,
      exp: now / 1000 + 3600,
    });
  });

  it('refuses a token once it has expired', async () => {
    let now = Date.now();
    const tokens = createAccessTokens({ secret: SECRET, now: () => now });
    const token = await tokens.sign(subject);
    now += 3599_000;
    expect(await tokens.verify(token)).not.toBeNull();
    now += 2_000;
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses tokens signed with another key, unsigned (alg none) or tampered with', async () => {
    const tokens = createAccessTokens({ secret: SECRET });
    const other = createAccessTokens({ secret: 'another-secret-that-is-at-least-32-chars' });
    expect(await tokens.verify(await other.sign(subject))).toBeNull();

    const unsecured = new UnsecuredJWT({ role: 'admin', ver: 0 })
      .setSubject(subject.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    expect(await tokens.verify(unsecured)).toBeNull();

    const genuine = await tokens.sign(subject);
    const [header, , signature] = genuine.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...decodePayload(genuine), role: 'admin' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await tokens.verify('not-a-jwt')).toBeNull();
    expect(await tokens.verify('')).toBeNull();
  });

  it('refuses tokens for another issuer or audience, or with odd claims', async () => {
    const tokens = createAccessTokens({ secret: SECRET });
    const key = new TextEncoder().encode(SECRET);
    const build = (claims: Record<string, unknown>, sub: string, iss: string, aud: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    const ok = { role: 'donor', ver: 0 };
    expect(
      await tokens.verify(await build(ok, subject.id, TOKEN_ISSUER, TOKEN_AUDIENCE)),
    ).not.toBeNull();
    expect(
      await tokens.verify(await build(ok, subject.id, 'someone-else', TOKEN_AUDIENCE)),
    ).toBeNull();
    expect(await tokens.verify(await build(ok, subject.id, TOKEN_ISSUER, 'other-api'))).toBeNull();
    expect(
      await tokens.verify(await build(ok, 'not-a-uuid', TOKEN_ISSUER, TOKEN_AUDIENCE)),
    ).toBeNull();
    expect(
      await tokens.verify(
        await build({ role: 'root', ver: 0 }, subject.id, TOKEN_ISSUER, TOKEN_AUDIENCE),
      ),
    ).toBeNull();
    expect(
      await tokens.verify(await build({ role: 'donor' }, subject.id, TOKEN_ISSUER, TOKEN_AUDIENCE)),
    ).toBeNull();
    // HS512 with the same secret is still not the pinned algorithm.
    const hs512 = await new SignJWT(ok)
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(subject.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect(await tokens.verify(hs512)).toBeNull();
  });
});

describe('opaque tokens and codes', () => {
  it('makes 32-byte base64url tokens, stored as SHA-256 hex', () => {
    const token = generateOpaqueToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateOpaqueToken()).not.toBe(token);
    expect(hashOpaqueToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOpaqueToken(token)).toBe(hashOpaqueToken(token));
    expect(hashOpaqueToken(token)).not.toContain(token);
  });

  it('makes 6-digit codes, keeping leading zeros', () => {
    const codes = Array.from({ length: 200 }, generateOtpCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });

  it('hashes codes with a key, bound to the user and purpose', () => {
    const hash = hashOtpCode(SECRET, 'user-1', 'login', '012345');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOtpCode(SECRET, 'user-1', 'login', '012345')).toBe(hash);
    expect(hashOtpCode(SECRET, 'user-2', 'login', '012345')).not.toBe(hash);
    expect(hashOtpCode('other-secret', 'user-1', 'login', '012345')).not.toBe(hash);
    expect(digestsEqual(hash, hashOtpCode(SECRET, 'user-1', 'login', '012345'))).toBe(true);
    expect(digestsEqual(hash, hashOtpCode(SECRET, 'user-1', 'login', '012346'))).toBe(false);
    expect(digestsEqual(hash, '')).toBe(false);
  });
});
