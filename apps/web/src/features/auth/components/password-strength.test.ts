import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password-strength';

describe('passwordStrength', () => {
  it.each([
    ['', null],
    ['Ab1!', 'weak'],
    ['aaaaaaaaaaaa', 'weak'],
    ['password', 'weak'],
    ['abcdefghijkl', 'fair'],
    ['Password1', 'good'],
    ['Blood-Donor-2026', 'strong'],
    ['correct horse battery staple', 'strong'],
  ] as const)('%j is %s', (password, level) => {
    expect(passwordStrength(password)).toBe(level);
  });
});
