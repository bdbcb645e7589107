import { describe, expect, it } from 'vitest';
import { loginOtpSchema, registerSchema, resetPasswordSchema, updateProfileSchema } from './auth';

const validRegistration = {
  email: ' Asha.Rao@Example.org ',
  password: 'a-long-password',
  fullName: 'Asha Rao',
  phone: '98765 43210',
  bloodType: 'O-',
  dateOfBirth: '1995-06-15',
  gender: 'female',
  city: 'Hyderabad',
  state: 'Telangana',
  pincode: '500001',
  consent: true,
};

describe('registerSchema', () => {
  it('normalises the e-mail and the phone', () => {
    const parsed = registerSchema.parse(validRegistration);
    expect(parsed.email).toBe('asha.rao@example.org');
    expect(parsed.phone).toBe('+919876543210');
  });

  it('requires consent', () => {
    const result = registerSchema.safeParse({ ...validRegistration, consent: false });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['consent']);
  });

  it('refuses donors younger than 18 or older than 65', () => {
    const today = new Date();
    const years = (n: number) =>
      `${today.getUTCFullYear() - n}-${String(today.getUTCMonth() + 1).padStart(2, '0')}-${String(today.getUTCDate()).padStart(2, '0')}`;
    expect(registerSchema.safeParse({ ...validRegistration, dateOfBirth: years(18) }).success).toBe(
      true,
    );
    expect(registerSchema.safeParse({ ...validRegistration, dateOfBirth: years(17) }).success).toBe(
      false,
    );
    expect(registerSchema.safeParse({ ...validRegistration, dateOfBirth: years(65) }).success).toBe(
      true,
    );
    expect(registerSchema.safeParse({ ...validRegistration, dateOfBirth: years(66) }).success).toBe(
      false,
    );
  });

  it('rejects passwords shorter than 8 or longer than 128 characters', () => {
    expect(registerSchema.safeParse({ ...validRegistration, password: 'short' }).success).toBe(
      false,
    );
    expect(
      registerSchema.safeParse({ ...validRegistration, password: 'x'.repeat(129) }).success,
    ).toBe(false);
    expect(
      registerSchema.safeParse({ ...validRegistration, password: 'x'.repeat(128) }).success,
    ).toBe(true);
  });

  it('rejects an unknown blood type and a malformed PIN code', () => {
    expect(registerSchema.safeParse({ ...validRegistration, bloodType: 'O' }).success).toBe(false);
    expect(registerSchema.safeParse({ ...validRegistration, pincode: '012345' }).success).toBe(
      false,
    );
  });
});

describe('loginOtpSchema', () => {
  it('accepts a request for a code and a code', () => {
    expect(loginOtpSchema.safeParse({ email: 'a@b.in' }).success).toBe(true);
    expect(loginOtpSchema.safeParse({ email: 'a@b.in', code: '123456' }).success).toBe(true);
    expect(loginOtpSchema.safeParse({ email: 'a@b.in', code: '12345' }).success).toBe(false);
  });
});

describe('resetPasswordSchema', () => {
  it('accepts either an e-mail or a token with a password', () => {
    expect(resetPasswordSchema.safeParse({ email: 'a@b.in' }).success).toBe(true);
    expect(
      resetPasswordSchema.safeParse({ token: 'x'.repeat(43), password: 'new-password' }).success,
    ).toBe(true);
  });
  it('names the missing field', () => {
    const result = resetPasswordSchema.safeParse({ token: 'x'.repeat(43) });
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['password']);
    expect(resetPasswordSchema.safeParse({}).error?.issues[0]?.path).toEqual(['email']);
  });
});

describe('updateProfileSchema', () => {
  it('rejects an empty change and unknown fields', () => {
    expect(updateProfileSchema.safeParse({}).success).toBe(false);
    expect(updateProfileSchema.safeParse({ role: 'admin' }).success).toBe(false);
    expect(updateProfileSchema.safeParse({ city: 'Pune' }).success).toBe(true);
  });
});
