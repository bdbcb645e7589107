import { describe, expect, it } from 'vitest';
import {
  formatIndianPhone,
  maskPhone,
  normalizeIndianContactPhone,
  normalizeIndianPhone,
} from './phone';
import { contactPhoneSchema, phoneSchema } from './auth';

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

describe("normalizeIndianPhone (a donor's own number: mobiles only, they receive SMS)", () => {
  it.each(['040-2345 6789', '04023456789', '+91 40 2345 6789', '011 2345 6789'])(
    'refuses the landline %s',
    (input) => {
      expect(normalizeIndianPhone(input)).toBeNull();
      expect(phoneSchema.safeParse(input).success).toBe(false);
    },
  );
});

describe("normalizeIndianContactPhone (a hospital's or a request's contact)", () => {
  it.each([
    ['040-2345 6789', '+914023456789'], // Hyderabad, 2-digit STD code
    ['(011) 2345-6789', '+911123456789'], // Delhi
    ['0891 2345678', '+918912345678'], // Visakhapatnam, 3-digit STD code
    ['03192-234567', '+913192234567'], // Port Blair, 4-digit STD code
    ['+91 40 2345 6789', '+914023456789'],
    ['914023456789', '+914023456789'],
    ['98765 43210', '+919876543210'], // a mobile is a contact too
    ['+91 98765 43210', '+919876543210'],
  ])('accepts %s as %s', (input, expected) => {
    expect(normalizeIndianContactPhone(input)).toBe(expected);
    expect(contactPhoneSchema.parse(input)).toBe(expected);
  });

  it.each([
    ['2345 6789', 'a local number without its STD code'],
    ['040-2345 678', 'one digit short'],
    ['040-2345 67890', 'one digit too many'],
    ['00-2345 67890', 'an STD code starting with 0 after the trunk 0'],
    ['0000000000', 'zeros'],
    ['+1 040 2345 6789', 'another country'],
    ['040-ABCD-6789', 'letters'],
  ])('refuses %s (%s)', (input) => {
    expect(normalizeIndianContactPhone(input)).toBeNull();
    expect(contactPhoneSchema.safeParse(input).success).toBe(false);
  });
});

describe('formatIndianPhone', () => {
  it.each([
    ['+919876543210', '+91 98765 43210'],
    ['+914023456789', '+91 40 2345 6789'],
    ['+911123456789', '+91 11 2345 6789'],
    ['+918912345678', '+91 89123 45678'],
    ['+14155550100', '+14155550100'],
    ['', ''],
    [null, ''],
  ])('writes %s as %s', (input, expected) => {
    expect(formatIndianPhone(input)).toBe(expected);
  });
});
