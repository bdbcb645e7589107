import { describe, expect, it, vi } from 'vitest';
import { routes } from '../app/router';
import { createRoutePreloaders } from './route-preloaders';

describe("preloaders from the router's own routes", () => {
  it('finds the lazy screen behind a path, parameters included', () => {
    const preloaderFor = createRoutePreloaders(routes);
    expect(preloaderFor('/login')).toEqual(expect.any(Function));
    expect(preloaderFor('/articles/before-donating')).toEqual(expect.any(Function));
    expect(preloaderFor('/donor/dashboard')).toEqual(expect.any(Function));
    // /login and /signin are the same screen: one download.
    expect(preloaderFor('/signin')).toBe(preloaderFor('/login'));
    expect(preloaderFor('/login')).not.toBe(preloaderFor('/register'));
    // The not-found catch-all is never fetched ahead.
    expect(preloaderFor('/no/such/page')).toBeNull();
  });

  it('prefers a route handle, then a lazy Component', () => {
    const fromHandle = vi.fn(() => Promise.resolve());
    const fromComponent = Object.assign(() => null, { preload: vi.fn(() => Promise.resolve()) });
    const preloaderFor = createRoutePreloaders([
      { path: '/a', handle: { preload: fromHandle }, Component: fromComponent },
      { path: '/b', Component: fromComponent },
      { path: '/c', element: null },
    ]);
    expect(preloaderFor('/a')).toBe(fromHandle);
    expect(preloaderFor('/b')).toBe(fromComponent.preload);
    expect(preloaderFor('/c')).toBeNull();
  });
});
