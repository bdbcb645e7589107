import { describe, expect, it } from 'vitest';
import { maskPhone, normalizeIndianPhone } from './phone';

describe('normalizeIndianPhone', () => {
  it.each([
    ['9876543210', '+919876543210'],
    ['+91 98765 43210', '+919876543210'],
    ['919876543210', '+919876543210'],
    ['09876543210', '+919876543210'],
    ['(987) 654-3210', '+919876543210'],
    ['6000000000', '+916000000000'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeIndianPhone(input)).toBe(expected);
  });

  it.each(['5876543210', '987654321', '98765432101', '+1 9876543210', 'abcdefghij', '', '+91'])(
    'rejects %s',
    (input) => {
      expect(normalizeIndianPhone(input)).toBeNull();
    },
  );
});

describe('maskPhone', () => {
  it('keeps only the country code and the last three digits', () => {
    expect(maskPhone('+919876543210')).toBe('+91 ••••• ••210');
  });
});
