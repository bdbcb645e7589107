import { describe, expect, it } from 'vitest';
import {
  CACHE_NAMES,
  buildVersion,
  isCacheablePublicRequest,
  isConfigRequest,
  notificationFromPush,
  resolveNotificationUrl,
  visitKey,
} from './sw-rules';

const ORIGIN = 'https://blood.example.in';

function request(path: string, init: { method?: string; authorization?: string } = {}) {
  const headers = new Headers();
  if (init.authorization) headers.set('Authorization', init.authorization);
  return { request: { method: init.method ?? 'GET', headers }, url: new URL(path, ORIGIN) };
}

describe('what the service worker may cache', () => {
  it.each([
    ['/api/public/education/content/before-donating', CACHE_NAMES.publicContent],
    ['/api/public/education/faqs?category=eligibility', CACHE_NAMES.publicContent],
    ['/api/public/pages/privacy', CACHE_NAMES.publicContent],
    ['/api/v1/public/facilities/directory?state=Goa', CACHE_NAMES.publicDirectory],
    ['/api/v1/public/facilities/bb-1024', CACHE_NAMES.publicDirectory],
    ['/api/v1/public/stats', CACHE_NAMES.publicDirectory],
  ])('caches GET %s in %s', (path, cache) => {
    const { request: sent, url } = request(path);
    expect(isCacheablePublicRequest(sent, url, ORIGIN)).toBe(cache);
  });

  it.each([
    '/api/v1/auth/me',
    '/api/v1/notifications',
    '/api/v1/users/u-1',
    '/api/v1/admin/donors',
    '/api/v1/blood-requests',
    '/api/v1/config',
  ])('never caches %s in the content caches', (path) => {
    const { request: sent, url } = request(path);
    expect(isCacheablePublicRequest(sent, url, ORIGIN)).toBeNull();
  });

  it('never caches a reply to a request that carries credentials, or anything but GET', () => {
    const signedIn = request('/api/public/education/content/a', { authorization: 'Bearer t' });
    expect(isCacheablePublicRequest(signedIn.request, signedIn.url, ORIGIN)).toBeNull();
    const post = request('/api/public/education/content/a/download', { method: 'POST' });
    expect(isCacheablePublicRequest(post.request, post.url, ORIGIN)).toBeNull();
    const config = request('/api/v1/config', { authorization: 'Bearer t' });
    expect(isConfigRequest(config.request, config.url, ORIGIN)).toBe(false);
    const anonymousConfig = request('/api/v1/config');
    expect(isConfigRequest(anonymousConfig.request, anonymousConfig.url, ORIGIN)).toBe(true);
  });

  it('never caches another origin', () => {
    const { request: sent } = request('/api/public/education/content/a');
    expect(
      isCacheablePublicRequest(sent, new URL('https://cdn.example/api/public/education/x'), ORIGIN),
    ).toBeNull();
  });
});

describe('visited pages', () => {
  it('are remembered by path, without query, fragment or trailing slash', () => {
    expect(visitKey('/articles/a?ref=home#top')).toBe('/articles/a');
    expect(visitKey('/education/')).toBe('/education');
    expect(visitKey('/')).toBe('/');
    expect(visitKey('/api/v1/config')).toBeNull();
    expect(visitKey('https://evil.example/')).toBeNull();
  });
});

describe('versions', () => {
  it('combine the app version with the shell revision', () => {
    const manifest = [{ url: 'index.html', revision: 'abcdef1234567890' }, 'assets/x-1.js'];
    expect(buildVersion('1.2.0', manifest, '/index.html')).toBe('1.2.0+abcdef12');
    expect(buildVersion('1.2.0', [], '/index.html')).toBe('1.2.0');
  });
});

describe('push notifications', () => {
  it("shows the server's payload and opens its link", () => {
    expect(
      notificationFromPush(
        {
          id: 'n-1',
          type: 'blood_request.matched',
          title: 'A patient near you needs O+ blood',
          message: 'Open the app to respond.',
          link: '/donor/dashboard',
        },
        ORIGIN,
      ),
    ).toEqual({
      title: 'A patient near you needs O+ blood',
      body: 'Open the app to respond.',
      tag: 'n-1',
      url: `${ORIGIN}/donor/dashboard`,
    });
  });

  it('falls back to the app name and the notifications page', () => {
    expect(notificationFromPush('Plain text', ORIGIN)).toEqual({
      title: 'Blood Donation Management System',
      body: 'Plain text',
      tag: undefined,
      url: `${ORIGIN}/notifications`,
    });
    expect(notificationFromPush(null, ORIGIN).title).toBe('Blood Donation Management System');
  });

  it('opens only pages of the app itself', () => {
    expect(resolveNotificationUrl('https://evil.example/phish', ORIGIN)).toBe(
      `${ORIGIN}/notifications`,
    );
    expect(resolveNotificationUrl('//evil.example/x', ORIGIN)).toBe(`${ORIGIN}/notifications`);
    expect(resolveNotificationUrl('javascript:alert(1)', ORIGIN)).toBe(`${ORIGIN}/notifications`);
    expect(resolveNotificationUrl(`${ORIGIN}/blood-requests/r-1`, ORIGIN)).toBe(
      `${ORIGIN}/blood-requests/r-1`,
    );
  });
});
