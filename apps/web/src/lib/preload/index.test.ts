import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRELOAD } from '@bdms/shared';
import type { RouteObject } from 'react-router';
import { startPreloading, type RouterLike } from './index';

function lazyRoute(path: string) {
  const preload = vi.fn(() => Promise.resolve());
  return { route: { path, handle: { preload } } satisfies RouteObject, preload };
}

function fakeRouter(pathname: string) {
  const listeners = new Set<(state: { location: { pathname: string } }) => void>();
  const router: RouterLike & { go(path: string): void } = {
    state: { location: { pathname } },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    go(path) {
      router.state = { location: { pathname: path } };
      for (const listener of listeners) listener(router.state);
    },
  };
  return router;
}

function memory() {
  const data = new Map<string, string>();
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe('navigation preloading', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  const home = lazyRoute('/');
  const emergency = lazyRoute('/emergency');
  const login = lazyRoute('/login');
  const register = lazyRoute('/register');
  const about = lazyRoute('/about');
  const dashboard = lazyRoute('/donor/dashboard');
  const routes = [home, emergency, login, register, about, dashboard].map((entry) => entry.route);

  beforeEach(() => {
    for (const entry of [home, emergency, login, register, about, dashboard])
      entry.preload.mockClear();
  });

  it('on the home page, downloads the likely next screens when the user is idle, never at once', async () => {
    const stop = startPreloading({
      routes,
      router: fakeRouter('/'),
      storage: memory(),
      isConstrained: () => false,
    });
    await vi.advanceTimersByTimeAsync(PRELOAD.idleAfterMs - 1);
    expect(emergency.preload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1 + 2 * PRELOAD.idleGapMs);
    // One idle run: 3 screens, the hinted ones (priority 3) first.
    expect(emergency.preload).toHaveBeenCalledTimes(1);
    expect(login.preload).toHaveBeenCalledTimes(1);
    expect(register.preload).not.toHaveBeenCalled();
    expect(home.preload).not.toHaveBeenCalled();
    stop();
  });

  it('queues the next page hints after a navigation, and learns it', async () => {
    const router = fakeRouter('/');
    const storage = memory();
    const stop = startPreloading({ routes, router, storage, isConstrained: () => false });
    router.go('/login');
    await vi.advanceTimersByTimeAsync(PRELOAD.idleAfterMs * 4);
    expect(dashboard.preload).toHaveBeenCalledTimes(1);
    expect(JSON.parse(storage.getItem('bdms-preload-hints')!)).toEqual({ '/': ['/login'] });
    stop();
  });

  it('fetches a link hovered for 100 ms at once, not one merely passed over', async () => {
    document.body.innerHTML = '<a href="/about">About Us</a><a href="/register">Register</a>';
    const stop = startPreloading({
      routes,
      router: fakeRouter('/donor/dashboard'),
      storage: memory(),
      isConstrained: () => false,
    });
    const [aboutLink, registerLink] = [...document.querySelectorAll('a')];
    registerLink!.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    await vi.advanceTimersByTimeAsync(50);
    registerLink!.dispatchEvent(
      new MouseEvent('mouseout', { bubbles: true, relatedTarget: document.body }),
    );
    aboutLink!.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    await vi.advanceTimersByTimeAsync(PRELOAD.hoverDelayMs - 1);
    expect(about.preload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(about.preload).toHaveBeenCalledTimes(1);
    expect(register.preload).not.toHaveBeenCalled();
    stop();
  });

  it('downloads nothing ahead on Save-Data or 2G', async () => {
    document.body.innerHTML = '<a href="/about">About Us</a>';
    const stop = startPreloading({
      routes,
      router: fakeRouter('/'),
      storage: memory(),
      isConstrained: () => true,
    });
    document.querySelector('a')!.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    await vi.advanceTimersByTimeAsync(PRELOAD.idleAfterMs * 5);
    for (const entry of [home, emergency, login, register, about, dashboard]) {
      expect(entry.preload).not.toHaveBeenCalled();
    }
    stop();
  });
});
