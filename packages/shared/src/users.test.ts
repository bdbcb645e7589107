import { describe, expect, it } from 'vitest';
import {
  donorDisplayName,
  headerDisplayName,
  isDonorApproved,
  isOnboardingCompleted,
  roleHome,
} from './users';

describe('headerDisplayName', () => {
  it('prefers name, then first and last name, then the e-mail local part, then "User"', () => {
    expect(headerDisplayName({ name: 'Asha Rao', firstName: 'A', email: 'x@y.in' })).toBe(
      'Asha Rao',
    );
    expect(headerDisplayName({ firstName: 'Asha', lastName: 'Rao', email: 'x@y.in' })).toBe(
      'Asha Rao',
    );
    expect(headerDisplayName({ firstName: 'Asha', email: 'x@y.in' })).toBe('Asha');
    expect(headerDisplayName({ email: 'asha.rao@example.org' })).toBe('asha.rao');
    expect(headerDisplayName({ name: '  ' })).toBe('User');
    expect(headerDisplayName(null)).toBe('User');
  });
});

describe('donorDisplayName', () => {
  it('skips a name that is only the e-mail local part', () => {
    expect(
      donorDisplayName({ name: 'asha.rao', fullName: 'Asha Rao', email: 'asha.rao@example.org' }),
    ).toBe('Asha Rao');
  });
  it('reads profile names too', () => {
    expect(
      donorDisplayName({ email: 'a@b.in', profile: { firstName: 'Ravi', lastName: 'K' } }),
    ).toBe('Ravi K');
  });
  it('falls back to the last four digits of the phone, then "User"', () => {
    expect(
      donorDisplayName({ name: 'asha', email: 'asha@example.org', phone: '+919876543210' }),
    ).toBe('Donor • 3210');
    expect(
      donorDisplayName({ email: 'asha@example.org', profile: { phoneNumber: '98765 40001' } }),
    ).toBe('Donor • 0001');
    expect(donorDisplayName({ email: 'asha@example.org' })).toBe('User');
  });
});

describe('isDonorApproved', () => {
  it('accepts any of the three signals and treats a missing status as pending', () => {
    expect(isDonorApproved({ isApproved: true })).toBe(true);
    expect(isDonorApproved({ status: 'approved' })).toBe(true);
    expect(isDonorApproved({ status: 'active' })).toBe(true);
    expect(isDonorApproved({ verification: { isVerified: true } })).toBe(true);
    expect(isDonorApproved({})).toBe(false);
    expect(isDonorApproved({ status: 'suspended' })).toBe(false);
  });
});

describe('isOnboardingCompleted', () => {
  it('counts the flag, any document or a completed questionnaire', () => {
    expect(isOnboardingCompleted({ onboardingCompleted: true })).toBe(true);
    expect(isOnboardingCompleted({ documents: [{}] })).toBe(true);
    expect(isOnboardingCompleted({ questionnaireCompleted: true })).toBe(true);
    expect(isOnboardingCompleted({ documents: [] })).toBe(false);
  });
});

describe('roleHome', () => {
  it('sends each role to its home', () => {
    expect(roleHome('admin')).toBe('/admin');
    expect(roleHome('donor')).toBe('/dashboard');
    expect(roleHome('hospital')).toBe('/hospital/dashboard');
    expect(roleHome('guest')).toBe('/');
  });
});
