import { describe, expect, it } from 'vitest';
import { deobfuscate, obfuscate } from './obfuscation';

describe('token obfuscation (not encryption)', () => {
  it.each([
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJl'],
    ['an opaque refresh token', 'Zq3-_x9Lk2mPq8vR0sT1uV4wX7yZ'],
    ['text beyond ASCII', 'टोकन-ñ-✓'],
    ['an empty string', ''],
  ])('round-trips %s', (_name, token) => {
    expect(deobfuscate(obfuscate(token))).toBe(token);
  });

  it('does not store the token as readable text', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';
    const stored = obfuscate(token);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('payload');
    expect(stored.startsWith('o1:')).toBe(true);
  });

  it('reads anything else as nothing', () => {
    expect(deobfuscate('plain-token')).toBeNull();
    expect(deobfuscate('o1:%%%not base64%%%')).toBeNull();
    expect(deobfuscate(undefined)).toBeNull();
    expect(deobfuscate(42)).toBeNull();
  });
});
