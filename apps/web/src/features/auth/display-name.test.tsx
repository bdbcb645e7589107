import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { i18n } from '../../i18n';
import { makeUser } from '../../test/session';
import { useDisplayNames } from './display-name';

function names(overrides: Parameters<typeof makeUser>[0]) {
  return renderHook(() => useDisplayNames(makeUser(overrides))).result.current;
}

describe('display names (product spec section 3)', () => {
  it('header: name, then first + last name, then the e-mail local part, then "User"', () => {
    expect(names({ name: 'Asha Rao' }).header).toBe('Asha Rao');
    expect(names({ name: '', firstName: 'Ravi', lastName: 'K' }).header).toBe('Ravi K');
    expect(names({ name: '', email: 'ravi@example.in' }).header).toBe('ravi');
    expect(names({ name: '', email: '' }).header).toBe('User');
  });

  it('donor-facing: the first name that is not the e-mail local part, else "Donor • 1234"', () => {
    expect(names({ name: 'Asha Rao' }).donor).toBe('Asha Rao');
    expect(names({ name: 'asha', fullName: 'Asha Rao', email: 'asha@example.in' }).donor).toBe(
      'Asha Rao',
    );
    expect(
      names({ name: 'asha', fullName: 'ASHA', email: 'asha@example.in', phone: '+919876543210' })
        .donor,
    ).toBe('Donor • 3210');
    expect(names({ name: '', fullName: '', phone: null, phoneNumber: null }).donor).toBe('User');
  });

  it('translates the fallbacks', async () => {
    await i18n.changeLanguage('hi');
    expect(names({ name: '', email: '' }).header).toBe('उपयोगकर्ता');
    expect(names({ name: '', fullName: '', phone: '+919876543210' }).donor).toBe('रक्तदाता • 3210');
  });
});
