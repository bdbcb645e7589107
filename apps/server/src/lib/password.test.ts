import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

describe('hashPassword / verifyPassword', () => {
  it('hashes with argon2id at m=19456, t=2, p=1', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash).not.toContain('correct horse');
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('पासवर्ड-with-unicode');
    expect(await verifyPassword(hash, 'पासवर्ड-with-unicode')).toBe(true);
    expect(await verifyPassword(hash, 'पासवर्ड-with-unicodE')).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
  });

  it('refuses instead of throwing for a malformed stored hash', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(await verifyPassword('', 'anything')).toBe(false);
  });
});
