import { describe, expect, it } from 'vitest';
import { afterSignInPath } from './redirect';

describe('afterSignInPath', () => {
  it('returns to the remembered origin, with its query and hash', () => {
    expect(
      afterSignInPath(
        { from: { pathname: '/notifications', search: '?page=2', hash: '#new' } },
        { role: 'donor' },
      ),
    ).toBe('/notifications?page=2#new');
  });

  it("otherwise goes to the role's home", () => {
    expect(afterSignInPath(null, { role: 'admin' })).toBe('/admin');
    expect(afterSignInPath({}, { role: 'donor' })).toBe('/dashboard');
    expect(afterSignInPath(undefined, { role: 'hospital' })).toBe('/hospital/dashboard');
  });

  it('never returns to a sign-in page or leaves the site', () => {
    expect(afterSignInPath({ from: { pathname: '/admin/login' } }, { role: 'admin' })).toBe(
      '/admin',
    );
    expect(afterSignInPath({ from: { pathname: '//evil.example' } }, { role: 'donor' })).toBe(
      '/dashboard',
    );
    expect(afterSignInPath({ from: { pathname: 'https://x' } }, { role: 'donor' })).toBe(
      '/dashboard',
    );
  });
});
