import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { DAY, HOUR, MINUTE, SECOND } from '@bdms/shared';
import { ApiError } from '../../../lib/api-client';
import { makeSession, makeUser } from '../../../test/session';
import type { SessionApi } from './session-api';
import { createSessionManager, type SessionEvent } from './session-manager';
import type { StoredSession } from './session-rules';
import type { SessionStore } from './session-store';

const START = Date.UTC(2026, 5, 1, 9, 0, 0);

function apiError(status: number, code: string): ApiError {
  return new ApiError({
    message: `HTTP ${status}: x`,
    status,
    statusText: 'x',
    code,
    requestId: 'r',
  });
}

/** A store in memory, holding what the manager wrote (tokens in clear). */
function memoryStore(initial: unknown = null) {
  const store = {
    value: initial,
    read: vi.fn(async () => store.value),
    write: vi.fn(async (session: StoredSession) => {
      store.value = session;
    }),
    clear: vi.fn(async () => {
      store.value = null;
    }),
  };
  return store satisfies SessionStore;
}

type MockedApi = { [Key in keyof SessionApi]: Mock<SessionApi[Key]> };

function fakeApi(overrides: Partial<SessionApi> = {}): MockedApi {
  return {
    refresh: vi.fn<SessionApi['refresh']>(async () => ({
      accessToken: 'access-2',
      expiresIn: 3600,
    })),
    me: vi.fn<SessionApi['me']>(async () => ({ user: makeUser() })),
    logout: vi.fn<SessionApi['logout']>(async () => ({ loggedOut: true })),
    ...overrides,
  } as MockedApi;
}

function setup({
  stored = makeSession(makeUser(), {}, START) as unknown,
  api = fakeApi(),
}: { stored?: unknown; api?: ReturnType<typeof fakeApi> } = {}) {
  const store = memoryStore(stored);
  const logger = { warn: vi.fn(), error: vi.fn() };
  const manager = createSessionManager({
    store,
    api,
    logger,
    now: () => Date.now(),
    window: null,
    newId: () => 'new-session',
    deviceInfo: () => ({ userAgent: navigator.userAgent, language: 'en', platform: '' }),
  });
  const events: SessionEvent[] = [];
  manager.subscribe((event) => events.push(event));
  return { manager, store, api, logger, events };
}

/** Lets pending promise callbacks run (fake timers do not advance them). */
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({
    now: START,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('restore (boot)', () => {
  it('restores a stored session and reports the user', async () => {
    const { manager, events, store } = setup();
    expect(await manager.restore()).toMatchObject({ id: 'u-1' });
    expect(events[0]).toEqual({ user: expect.objectContaining({ id: 'u-1' }) });
    expect(await manager.getAccessToken()).toBe('access-1');
    expect(store.value).toMatchObject({ lastAccessed: START });
    manager.dispose();
  });

  it('clears an expired session on read (30 days after creation)', async () => {
    const stored = makeSession(makeUser(), {}, START - 30 * DAY);
    const { manager, store, events } = setup({ stored });
    expect(await manager.restore()).toBeNull();
    expect(store.clear).toHaveBeenCalled();
    expect(store.value).toBeNull();
    expect(events).toEqual([{ user: null, reason: 'invalid' }]);
  });

  it('keeps a session that is one minute from its end', async () => {
    const stored = makeSession(makeUser(), {}, START - 30 * DAY + MINUTE);
    const { manager } = setup({ stored });
    expect(await manager.restore()).not.toBeNull();
    manager.dispose();
  });

  it.each([
    ['userId', { userId: undefined }],
    ['user', { user: undefined }],
    ['tokens', { tokens: undefined }],
    ['createdAt', { createdAt: undefined }],
    ['expiresAt', { expiresAt: undefined }],
    ['the access token', { tokens: { refreshToken: 'r', expiresIn: 3600 } }],
    ['the refresh token', { tokens: { accessToken: 'a', expiresIn: 3600 } }],
  ])('clears a session without %s and treats the user as signed out', async (_name, missing) => {
    const stored = { ...makeSession(makeUser(), {}, START), ...missing };
    const { manager, store, logger } = setup({ stored });
    expect(await manager.restore()).toBeNull();
    expect(store.value).toBeNull();
    expect(await manager.getAccessToken()).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('cleared (incomplete)'));
  });

  it('only warns when the device user agent changed', async () => {
    const stored = makeSession(makeUser(), {
      deviceInfo: { userAgent: 'Old Browser/1.0', language: 'en', platform: '' },
    });
    const { manager, logger } = setup({ stored });
    expect(await manager.restore()).not.toBeNull();
    expect(logger.warn).toHaveBeenCalledWith(
      '[session] The device user agent changed since sign-in',
    );
    manager.dispose();
  });

  it('reports "none" when nothing is stored', async () => {
    const { manager, events } = setup({ stored: null });
    expect(await manager.restore()).toBeNull();
    expect(events).toEqual([{ user: null, reason: 'none' }]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('signIn', () => {
  it('stores a session that expires 30 days after creation', async () => {
    const { manager, store } = setup({ stored: null });
    await manager.restore();
    const user = await manager.signIn({
      user: makeUser({ id: 'u-7' }),
      tokens: { accessToken: 'a-7', refreshToken: 'r-7', expiresIn: 3600 },
    });
    expect(user.id).toBe('u-7');
    expect(store.value).toMatchObject({
      id: 'new-session',
      userId: 'u-7',
      createdAt: START,
      expiresAt: START + 30 * DAY,
      tokens: { accessToken: 'a-7', refreshToken: 'r-7', expiresIn: 3600 },
      deviceInfo: { userAgent: navigator.userAgent },
    });
    manager.dispose();
  });

  it.each([
    ['without tokens', { user: makeUser() }],
    ['without a user', { tokens: { accessToken: 'a', refreshToken: 'r', expiresIn: 1 } }],
  ])('raises "Invalid login data provided" %s', async (_name, data) => {
    const { manager, store } = setup({ stored: null });
    await expect(manager.signIn(data)).rejects.toThrow('Invalid login data provided');
    expect(store.write).not.toHaveBeenCalled();
  });
});

describe('refreshTokens', () => {
  it('raises "No refresh token available" without a session', async () => {
    const { manager, api } = setup({ stored: null });
    await manager.restore();
    await expect(manager.refreshTokens()).rejects.toThrow('No refresh token available');
    expect(api.refresh).not.toHaveBeenCalled();
  });

  it('refuses a second refresh while one runs: "Refresh already in progress"', async () => {
    let answer: (value: unknown) => void = () => {};
    const api = fakeApi({ refresh: vi.fn(() => new Promise((resolve) => (answer = resolve))) });
    const { manager } = setup({ api });
    await manager.restore();
    api.refresh.mockClear();
    const first = manager.refreshTokens();
    await expect(manager.refreshTokens()).rejects.toThrow('Refresh already in progress');
    // The API client's path joins the running refresh instead.
    const shared = manager.refreshShared();
    answer({ accessToken: 'access-2', expiresIn: 3600 });
    await first;
    expect(await shared).toBe(true);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    manager.dispose();
  });

  it('stores the new access token and keeps the refresh token', async () => {
    const { manager, api, store } = setup();
    await manager.restore();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    await manager.refreshTokens();
    expect(api.refresh).toHaveBeenLastCalledWith('refresh-token-1');
    expect(store.value).toMatchObject({
      tokens: { accessToken: 'access-2', refreshToken: 'refresh-token-1', expiresIn: 3600 },
      tokenIssuedAt: START + 10 * MINUTE,
    });
    expect(await manager.getAccessToken()).toBe('access-2');
    manager.dispose();
  });

  it('clears the session and logs the error when the server refuses the refresh', async () => {
    const refused = apiError(401, 'INVALID_REFRESH_TOKEN');
    const api = fakeApi({ refresh: vi.fn(async () => Promise.reject(refused)) });
    const { manager, store, logger, events } = setup({ api });
    await manager.restore();
    await expect(manager.refreshTokens()).rejects.toBe(refused);
    expect(store.value).toBeNull();
    expect(logger.error).toHaveBeenCalledWith('[session] Token refresh failed', refused);
    expect(events.at(-1)).toEqual({ user: null, reason: 'expired' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps the session when the server cannot be reached (offline)', async () => {
    const offline = apiError(0, 'NETWORK_ERROR');
    const api = fakeApi({ refresh: vi.fn(async () => Promise.reject(offline)) });
    const { manager, store } = setup({ api });
    await manager.restore();
    await expect(manager.refreshTokens()).rejects.toBe(offline);
    expect(store.value).not.toBeNull();
    manager.dispose();
  });
});

describe('a refresh that gets no answer or a 5xx (docs/decisions/008-session-refresh.md)', () => {
  it.each([
    ['no answer (offline)', 0, 'NETWORK_ERROR'],
    ['a 502 from the proxy', 502, 'BAD_GATEWAY'],
    ['a 503 while the server restarts', 503, 'SERVICE_UNAVAILABLE'],
  ])('keeps the session on %s and tells the API client "unavailable"', async (_, status, code) => {
    const failure = apiError(status, code);
    const api = fakeApi({ refresh: vi.fn(async () => Promise.reject(failure)) });
    const { manager, store, events } = setup({ api });
    await manager.restore();
    await flush();
    await expect(manager.refreshShared()).resolves.toBe('unavailable');
    expect(store.value).not.toBeNull();
    expect(events.some((event) => event.user === null)).toBe(false);
    expect(await manager.getAccessToken()).toBe('access-1');
    manager.dispose();
  });

  it('ends the session when the refresh is refused (401), and tells the API client false', async () => {
    const refused = apiError(401, 'INVALID_REFRESH_TOKEN');
    const api = fakeApi({ refresh: vi.fn(async () => Promise.reject(refused)) });
    const { manager, store, events } = setup({ api });
    await manager.restore();
    await flush();
    await expect(manager.refreshShared()).resolves.toBe(false);
    expect(store.value).toBeNull();
    expect(events.at(-1)).toEqual({ user: null, reason: 'expired' });
  });

  it('tries again at the next 30-minute check once the server answers', async () => {
    const refresh = vi
      .fn<SessionApi['refresh']>()
      .mockRejectedValueOnce(apiError(503, 'SERVICE_UNAVAILABLE'))
      .mockResolvedValue({ accessToken: 'access-2', expiresIn: 3600 });
    const stored = makeSession(makeUser(), { tokenIssuedAt: START - 50 * MINUTE });
    const { manager, store } = setup({ stored, api: fakeApi({ refresh }) });
    await manager.restore();
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect((store.value as StoredSession).tokens.accessToken).toBe('access-1');
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect((store.value as StoredSession).tokens.accessToken).toBe('access-2');
    manager.dispose();
  });
});

describe('session refresh threshold (1 day): the session is not extended', () => {
  it('a refresh in the last day of the session leaves its end where it was', async () => {
    // Signed in 29 days and 12 hours ago: 12 hours left, under the 1-day threshold.
    const createdAt = START - 29 * DAY - 12 * HOUR;
    const stored = makeSession(makeUser(), { tokenIssuedAt: START - 50 * MINUTE }, createdAt);
    const { manager, store, api } = setup({ stored });
    await manager.restore();
    await flush();
    expect(api.refresh).toHaveBeenCalledTimes(1);
    const saved = store.value as StoredSession;
    expect(saved.tokens.accessToken).toBe('access-2');
    expect(saved.createdAt).toBe(createdAt);
    expect(saved.expiresAt).toBe(createdAt + 30 * DAY);
    manager.dispose();
  });

  it('does not refresh just because the session is in its last day', async () => {
    const createdAt = START - 29 * DAY - 12 * HOUR;
    const stored = makeSession(makeUser(), { tokenIssuedAt: START }, createdAt);
    const { manager, api } = setup({ stored });
    await manager.restore();
    await flush();
    expect(api.refresh).not.toHaveBeenCalled();
    manager.dispose();
  });

  it('ends the session at its 30 days even though every refresh succeeds', async () => {
    const createdAt = START - 29 * DAY - 12 * HOUR;
    const stored = makeSession(makeUser(), { tokenIssuedAt: START }, createdAt);
    const { manager, store, api, events } = setup({ stored });
    await manager.restore();
    await vi.advanceTimersByTimeAsync(12 * HOUR + HOUR);
    expect(api.refresh).toHaveBeenCalled();
    expect(store.value).toBeNull();
    expect(events.at(-1)).toEqual({ user: null, reason: 'expired' });
  });
});

describe('timers', () => {
  it('refreshes at the 30-minute check when less than 15 minutes remain', async () => {
    // A 40-minute token: 10 minutes are left at the first check.
    const stored = makeSession(makeUser(), {
      tokens: { accessToken: 'a', refreshToken: 'r', expiresIn: 40 * 60 },
    });
    const { manager, api } = setup({ stored });
    await manager.restore();
    await flush();
    api.refresh.mockClear();
    await vi.advanceTimersByTimeAsync(30 * MINUTE - 1);
    expect(api.refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    manager.dispose();
  });

  it('does not refresh at the 30-minute check while more than 15 minutes remain', async () => {
    const { manager, api } = setup(); // a 60-minute token: 30 minutes left at the check
    await manager.restore();
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(api.refresh).not.toHaveBeenCalled();
    manager.dispose();
  });

  it('refreshes on boot when the stored access token is already due', async () => {
    const stored = makeSession(makeUser(), { tokenIssuedAt: START - 50 * MINUTE });
    const { manager, api } = setup({ stored });
    await manager.restore();
    await flush();
    expect(api.refresh).toHaveBeenCalledTimes(1);
    manager.dispose();
  });

  it('runs the background check every hour: it asks for the user again', async () => {
    const stored = makeSession(makeUser(), {
      tokens: { accessToken: 'a', refreshToken: 'r', expiresIn: 24 * 3600 },
    });
    const { manager, api } = setup({ stored });
    await manager.restore();
    await flush();
    expect(api.me).toHaveBeenCalledTimes(1); // the boot check
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(api.me).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.me).toHaveBeenCalledTimes(2);
    expect(api.refresh).not.toHaveBeenCalled();
    manager.dispose();
  });

  it('ends a session at the hourly check once its 30 days are over', async () => {
    const stored = makeSession(makeUser(), {
      expiresAt: START + 30 * MINUTE,
      tokens: { accessToken: 'a', refreshToken: 'r', expiresIn: 24 * 3600 },
    });
    const { manager, store, events } = setup({ stored });
    await manager.restore();
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(store.value).toBeNull();
    expect(events.at(-1)).toEqual({ user: null, reason: 'expired' });
  });

  it('checks the token 1 s after the page becomes visible again', async () => {
    const stored = makeSession(makeUser(), { tokenIssuedAt: START });
    const { manager, api } = setup({ stored });
    await manager.restore();
    await flush();
    await vi.advanceTimersByTimeAsync(50 * MINUTE); // 10 minutes left, no check ran since 30 min
    api.refresh.mockClear();
    const visibility = vi.spyOn(document, 'visibilityState', 'get');

    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(SECOND - 1);
    expect(api.refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    manager.dispose();
  });

  it('cancels the visible check when the page is hidden again within 1 s', async () => {
    const stored = makeSession(makeUser(), { tokenIssuedAt: START - 50 * MINUTE });
    const { manager, api } = setup({ stored });
    await manager.restore();
    await flush();
    api.refresh.mockClear();
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    api.refresh.mockClear();
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(5 * SECOND);
    expect(api.refresh).not.toHaveBeenCalled();
    manager.dispose();
  });

  it('stops every timer and listener on sign-out and on dispose', async () => {
    const { manager } = setup();
    await manager.restore();
    expect(vi.getTimerCount()).toBe(2); // the 30-minute and the 1-hour intervals
    await manager.logout();
    expect(vi.getTimerCount()).toBe(0);

    const other = setup();
    await other.manager.restore();
    expect(vi.getTimerCount()).toBe(2);
    other.manager.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('checkUser (cached user trusted 5 minutes)', () => {
  it('asks GET /auth/me again only after 300000 ms', async () => {
    const { manager, api } = setup({ stored: null });
    await manager.restore();
    await manager.signIn({
      user: makeUser(),
      tokens: { accessToken: 'a', refreshToken: 'r', expiresIn: 3600 },
    });
    await manager.checkUser();
    expect(api.me).not.toHaveBeenCalled(); // signed in just now: the login reply is fresh
    await vi.advanceTimersByTimeAsync(300_000 - 1);
    await manager.checkUser();
    expect(api.me).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await manager.checkUser();
    expect(api.me).toHaveBeenCalledTimes(1);
    await manager.checkUser();
    expect(api.me).toHaveBeenCalledTimes(1);
    await manager.checkUser({ force: true });
    expect(api.me).toHaveBeenCalledTimes(2);
    manager.dispose();
  });

  it('stores and reports a changed user', async () => {
    const api = fakeApi({
      me: vi.fn(async () => ({ user: makeUser({ status: 'pending', name: 'Asha R.' }) })),
    });
    const { manager, events, store } = setup({ api });
    await manager.restore();
    const user = await manager.checkUser({ force: true });
    expect(user).toMatchObject({ name: 'Asha R.' });
    expect(events.at(-1)).toEqual({ user: expect.objectContaining({ name: 'Asha R.' }) });
    expect(store.value).toMatchObject({ user: { name: 'Asha R.' } });
    manager.dispose();
  });

  it('on an invalid reply logs "Invalid response from server", refreshes and asks again', async () => {
    const api = fakeApi({
      me: vi
        .fn<SessionApi['me']>()
        .mockResolvedValueOnce({ nope: true })
        .mockResolvedValue({ user: makeUser({ name: 'Fresh' }) }),
    });
    const { manager, logger } = setup({ api });
    await manager.restore();
    await flush();
    expect(logger.warn).toHaveBeenCalledWith(
      '[session] Invalid response from server',
      expect.any(Error),
    );
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(api.me).toHaveBeenCalledTimes(2);
    expect(await manager.checkUser()).toMatchObject({ name: 'Fresh' });
    manager.dispose();
  });

  it('clears the session when the user check and then the refresh both fail', async () => {
    const api = fakeApi({
      me: vi.fn(async () => Promise.reject(apiError(401, 'UNAUTHENTICATED'))),
      refresh: vi.fn(async () => Promise.reject(apiError(401, 'INVALID_REFRESH_TOKEN'))),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { manager, store, events } = setup({ api });
    await manager.restore();
    await flush();
    expect(store.value).toBeNull();
    expect(events.at(-1)).toEqual({ user: null, reason: 'expired' });
  });
});

describe('logout', () => {
  it('signs out locally even when the logout call fails', async () => {
    const api = fakeApi({
      logout: vi.fn(async () => Promise.reject(apiError(0, 'NETWORK_ERROR'))),
    });
    const { manager, store, events, logger } = setup({ api });
    await manager.restore();
    await manager.logout();
    expect(store.value).toBeNull();
    expect(events.at(-1)).toEqual({ user: null, reason: 'logout' });
    expect(await manager.getAccessToken()).toBeNull();
    expect(api.logout).toHaveBeenCalledWith(
      expect.objectContaining({ refreshToken: 'refresh-token-1' }),
      { pushEndpoint: null },
    );
    await flush();
    expect(logger.warn).toHaveBeenCalledWith(
      '[session] Logout call failed (ignored)',
      expect.any(ApiError),
    );
  });
});

describe('logout on a shared phone', () => {
  it('unsubscribes this browser from push and sends the endpoint, so the server removes it', async () => {
    const api = fakeApi();
    const store = memoryStore(makeSession(makeUser(), {}, START));
    const releaseDevice = vi.fn(async () => 'https://fcm.googleapis.com/fcm/send/this-phone');
    const manager = createSessionManager({
      store,
      api,
      logger: { warn: vi.fn(), error: vi.fn() },
      now: () => Date.now(),
      window: null,
      releaseDevice,
    });
    const events: SessionEvent[] = [];
    manager.subscribe((event) => events.push(event));
    await manager.restore();
    await manager.logout();
    expect(releaseDevice).toHaveBeenCalledTimes(1);
    expect(events.at(-1)).toEqual({ user: null, reason: 'logout' });
    expect(api.logout).toHaveBeenCalledWith(
      expect.objectContaining({ accessToken: expect.any(String), refreshToken: 'refresh-token-1' }),
      { pushEndpoint: 'https://fcm.googleapis.com/fcm/send/this-phone' },
    );
  });

  it('still signs out (and calls the server) when the browser cannot release the subscription', async () => {
    const api = fakeApi();
    const logger = { warn: vi.fn(), error: vi.fn() };
    const manager = createSessionManager({
      store: memoryStore(makeSession(makeUser(), {}, START)),
      api,
      logger,
      now: () => Date.now(),
      window: null,
      releaseDevice: async () => Promise.reject(new Error('push service unreachable')),
    });
    await manager.restore();
    await manager.logout();
    expect(await manager.getAccessToken()).toBeNull();
    expect(api.logout).toHaveBeenCalledWith(expect.anything(), { pushEndpoint: null });
    expect(logger.warn).toHaveBeenCalledWith(
      '[session] Could not release this device (ignored)',
      expect.any(Error),
    );
  });

  it('does not wait more than 3 seconds for a browser that never answers', async () => {
    const api = fakeApi();
    const manager = createSessionManager({
      store: memoryStore(makeSession(makeUser(), {}, START)),
      api,
      logger: { warn: vi.fn(), error: vi.fn() },
      now: () => Date.now(),
      window: null,
      releaseDevice: () => new Promise<string | null>(() => {}),
    });
    await manager.restore();
    const done = manager.logout();
    await vi.advanceTimersByTimeAsync(3000);
    await done;
    expect(api.logout).toHaveBeenCalledWith(expect.anything(), { pushEndpoint: null });
  });
});

describe('expire (the API client gave up on a 401)', () => {
  it('clears the session and reports it once', async () => {
    const { manager, store, events } = setup();
    await manager.restore();
    await manager.expire();
    await manager.expire();
    expect(store.value).toBeNull();
    expect(events.filter((event) => event.reason === 'expired')).toHaveLength(1);
  });
});

describe('another tab', () => {
  it('follows a sign-out in another tab (authState removed)', async () => {
    const store = memoryStore(makeSession(makeUser(), {}, START));
    const manager = createSessionManager({
      store,
      api: fakeApi(),
      logger: { warn: vi.fn(), error: vi.fn() },
    });
    const events: SessionEvent[] = [];
    manager.subscribe((event) => events.push(event));
    await manager.restore();
    window.dispatchEvent(new StorageEvent('storage', { key: 'authState', newValue: null }));
    await flush();
    expect(events.at(-1)).toEqual({ user: null, reason: 'other-tab' });
    expect(store.clear).not.toHaveBeenCalled();
    manager.dispose();
  });
});
