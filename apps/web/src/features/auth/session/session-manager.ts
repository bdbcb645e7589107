import { SESSION, STORAGE_KEYS } from '@bdms/shared';
import { isApiError } from '../../../lib/api-client';
import type { AuthTokens } from '@bdms/shared';
import type { User } from '../types';
import { httpSessionApi, type SessionApi } from './session-api';
import {
  SESSION_ERROR_MESSAGES,
  SessionError,
  checkSession,
  createSession,
  currentDeviceInfo,
  isRefreshDue,
  parseRefreshResult,
  parseTokens,
  parseUser,
  type DeviceInfo,
  type StoredSession,
} from './session-rules';
import { createSessionStore, readAuthStateHint, type SessionStore } from './session-store';

/**
 * The session's life (product spec sections 4, 5, 7, 8 and 9): restore on boot, sign in, refresh
 * tokens, trust the cached user for 5 minutes, check periodically, sign out. Clock, timers,
 * storage, network and document are injected, so every rule runs under fake timers in tests.
 */

export interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
}

/** Looked up at call time, so test fake timers installed later are honoured. */
const GLOBAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
};

/** Why the user is signed out; `expired` is the one the user is told about. */
export type SignOutReason = 'none' | 'invalid' | 'logout' | 'expired' | 'other-tab';

export interface SessionEvent {
  user: User | null;
  reason?: SignOutReason;
}

export interface SessionManagerOptions {
  store?: SessionStore;
  api?: SessionApi;
  now?: () => number;
  timers?: Timers;
  logger?: Pick<Console, 'warn' | 'error'>;
  /** Where `visibilitychange` is heard; null for none. */
  document?: Document | null;
  /** Where `storage` (another tab signing out) is heard; null for none. */
  window?: Window | null;
  newId?: () => string;
  deviceInfo?: () => DeviceInfo;
  /**
   * Called on sign-out to release what this device holds for the account: the app unsubscribes
   * the browser from web push and returns the subscription's endpoint (or null), which the
   * logout call sends so the server removes it too. The next person on a shared phone must never
   * get the previous donor's alerts (issue #14).
   */
  releaseDevice?: () => Promise<string | null>;
}

/** How long sign-out waits for the browser to drop its push subscription. */
const RELEASE_DEVICE_TIMEOUT_MS = 3000;

export interface SessionManager {
  /** Reads the stored session (boot). Clears it when incomplete or expired. */
  restore: () => Promise<User | null>;
  /** Stores the session for a `{user, tokens}` login reply; else "Invalid login data provided". */
  signIn: (loginData: unknown) => Promise<User>;
  /** `POST /auth/refresh`. Refused while one runs ("Refresh already in progress"). */
  refreshTokens: () => Promise<void>;
  /**
   * For the API client's 401 rule: joins a running refresh instead of being refused. true: new
   * access token; false: refused (the session has ended); `'unavailable'`: no answer or a 5xx,
   * the session is kept (docs/decisions/008-session-refresh.md).
   */
  refreshShared: () => Promise<boolean | 'unavailable'>;
  getAccessToken: () => Promise<string | null>;
  /** The user, from the 5-minute cache or `GET /auth/me`. */
  checkUser: (options?: { force?: boolean }) => Promise<User | null>;
  updateUser: (user: unknown) => Promise<void>;
  replaceTokens: (tokens: AuthTokens) => Promise<void>;
  /** Periodic rule: refresh when less than 15 minutes of access-token validity remain. */
  checkTokens: () => Promise<void>;
  /** Hourly and after the page is visible again: expiry, token and user checks. */
  runBackgroundCheck: () => Promise<void>;
  /** Clears the session after a failed refresh; tells listeners once, with reason `expired`. */
  expire: () => Promise<void>;
  /** Signs out locally at once; a failed server call is ignored. */
  logout: () => Promise<void>;
  subscribe: (listener: (event: SessionEvent) => void) => () => void;
  /** Stops every timer and listener (unmount). `restore` starts them again. */
  dispose: () => void;
}

/**
 * No answer (offline) or a server fault: the session may still be good, so it is kept. The spec
 * says a failed refresh clears the session; followed for a refusal only, since signing a donor out
 * on a flaky network is wrong (docs/decisions/008-session-refresh.md).
 */
function isTransient(error: unknown): boolean {
  return isApiError(error) && (error.status === 0 || error.status >= 500);
}

/** A session in storage that has not ended: the first render can say "Authenticating...". */
export function hasSessionHint(now = Date.now()): boolean {
  const hint = readAuthStateHint();
  return hint !== null && !(typeof hint.expiresAt === 'number' && hint.expiresAt <= now);
}

export function createSessionManager(options: SessionManagerOptions = {}): SessionManager {
  const store = options.store ?? createSessionStore();
  const sessionApi = options.api ?? httpSessionApi;
  const now = options.now ?? Date.now;
  const timers = options.timers ?? GLOBAL_TIMERS;
  const logger = options.logger ?? console;
  const doc = options.document === undefined ? globalThis.document : options.document;
  const win = options.window === undefined ? globalThis.window : options.window;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const deviceInfo = options.deviceInfo ?? currentDeviceInfo;

  let session: StoredSession | null = null;
  let ready: Promise<void> = Promise.resolve();
  let refreshing: Promise<void> | null = null;
  let userCheck: Promise<User | null> | null = null;
  /** When the server last confirmed the user; 0: not in this visit. */
  let userCheckedAt = 0;
  let stopTimers: (() => void) | null = null;
  const listeners = new Set<(event: SessionEvent) => void>();

  const emit = (event: SessionEvent) => {
    for (const listener of listeners) listener(event);
  };

  const save = async (next: StoredSession) => {
    session = next;
    await store.write(next);
  };

  /** The device's push endpoint once released; null when there is none, it fails or hangs. */
  const releaseDevice = async (release: () => Promise<string | null>): Promise<string | null> => {
    let timer: unknown;
    const timeout = new Promise<null>((resolve) => {
      timer = timers.setTimeout(() => resolve(null), RELEASE_DEVICE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        release().catch((error: unknown) => {
          logger.warn('[session] Could not release this device (ignored)', error);
          return null;
        }),
        timeout,
      ]);
    } finally {
      timers.clearTimeout(timer);
    }
  };

  const endSession = async (reason: SignOutReason, { clearStore = true } = {}) => {
    const hadSession = session !== null;
    session = null;
    userCheckedAt = 0;
    stopTimers?.();
    if (clearStore) await store.clear();
    if (hadSession) emit({ user: null, reason });
  };

  const refreshTokens = async (): Promise<void> => {
    if (refreshing) throw new SessionError('REFRESH_IN_PROGRESS');
    const current = session;
    if (!current?.tokens.refreshToken) throw new SessionError('NO_REFRESH_TOKEN');
    refreshing = (async () => {
      try {
        const result = parseRefreshResult(await sessionApi.refresh(current.tokens.refreshToken));
        if (!result) throw new SessionError('INVALID_SERVER_RESPONSE');
        // Signed out (or in as someone else) meanwhile: do not bring the old session back.
        if (session?.id !== current.id) return;
        await save({
          ...session,
          tokens: { ...session.tokens, ...result },
          tokenIssuedAt: now(),
          lastAccessed: now(),
        });
      } catch (error) {
        logger.error('[session] Token refresh failed', error);
        if (!isTransient(error) && session?.id === current.id) await endSession('expired');
        throw error;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  const fetchUser = async (): Promise<User | null> => {
    const current = session;
    if (!current) return null;
    const reply = await sessionApi.me(current.tokens.accessToken);
    const user = parseUser((reply as { user?: unknown } | null)?.user);
    if (!user) throw new SessionError('INVALID_SERVER_RESPONSE');
    if (session?.id !== current.id) return session?.user ?? null;
    await save({ ...session, user, userId: user.id, lastAccessed: now() });
    userCheckedAt = now();
    emit({ user });
    return user;
  };

  const checkUser = async ({ force = false } = {}): Promise<User | null> => {
    await ready;
    if (!session) return null;
    if (!force && userCheckedAt > 0 && now() - userCheckedAt < SESSION.userCacheMs) {
      return session.user;
    }
    userCheck ??= (async () => {
      try {
        return await fetchUser();
      } catch (error) {
        // Spec section 8: "Invalid response from server", then a refresh; a failed refresh
        // clears the session (refreshTokens does that).
        logger.warn(`[session] ${SESSION_ERROR_MESSAGES.INVALID_SERVER_RESPONSE}`, error);
        try {
          await (refreshing ?? refreshTokens());
        } catch {
          return session?.user ?? null;
        }
        try {
          return await fetchUser();
        } catch {
          return session?.user ?? null;
        }
      }
    })().finally(() => {
      userCheck = null;
    });
    return userCheck;
  };

  const checkTokens = async () => {
    if (!session || refreshing || !isRefreshDue(session, now())) return;
    await refreshTokens().catch(() => {});
  };

  const runBackgroundCheck = async () => {
    if (!session) return;
    if (now() >= session.expiresAt) {
      await endSession('expired');
      return;
    }
    await checkTokens();
    await checkUser().catch(() => null);
  };

  const startTimers = () => {
    if (stopTimers) return;
    const periodic = timers.setInterval(() => void checkTokens(), SESSION.periodicCheckMs);
    const background = timers.setInterval(
      () => void runBackgroundCheck(),
      SESSION.backgroundCheckMs,
    );
    let visibleTimer: unknown = null;
    const cancelVisibleCheck = () => {
      if (visibleTimer !== null) timers.clearTimeout(visibleTimer);
      visibleTimer = null;
    };
    const onVisibilityChange = () => {
      cancelVisibleCheck();
      if (doc?.visibilityState !== 'visible') return;
      visibleTimer = timers.setTimeout(() => {
        visibleTimer = null;
        void runBackgroundCheck();
      }, SESSION.visibilityCheckDelayMs);
    };
    // Signed out in another tab (it removed `authState`): follow it here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== STORAGE_KEYS.authState) return;
      if (event.newValue !== null && event.key !== null) return;
      void endSession('other-tab', { clearStore: false });
    };
    doc?.addEventListener('visibilitychange', onVisibilityChange);
    win?.addEventListener('storage', onStorage);
    stopTimers = () => {
      timers.clearInterval(periodic);
      timers.clearInterval(background);
      cancelVisibleCheck();
      doc?.removeEventListener('visibilitychange', onVisibilityChange);
      win?.removeEventListener('storage', onStorage);
      stopTimers = null;
    };
  };

  const restore = async (): Promise<User | null> => {
    ready = (async () => {
      let check;
      try {
        check = checkSession(await store.read(), now());
      } catch (error) {
        logger.warn('[session] The stored session could not be read', error);
        check = { ok: false, reason: 'incomplete' } as const;
      }
      if (!check.ok) {
        if (check.reason !== 'missing') {
          logger.warn(`[session] The stored session was cleared (${check.reason})`);
        }
        session = null;
        await store.clear();
        emit({ user: null, reason: check.reason === 'missing' ? 'none' : 'invalid' });
        return;
      }
      const restored = check.session;
      const { userAgent } = deviceInfo();
      if (restored.deviceInfo.userAgent && restored.deviceInfo.userAgent !== userAgent) {
        // Spec section 5: browsers update themselves, so this is only worth a warning.
        logger.warn('[session] The device user agent changed since sign-in');
      }
      await save({ ...restored, lastAccessed: now() });
      emit({ user: restored.user });
      startTimers();
    })();
    await ready;
    // The access token may be due, and the cached user is not yet confirmed in this visit.
    void runBackgroundCheck();
    return session?.user ?? null;
  };

  const signIn = async (loginData: unknown): Promise<User> => {
    await ready;
    const next = createSession(loginData, { now: now(), id: newId(), deviceInfo: deviceInfo() });
    await save(next);
    userCheckedAt = now();
    emit({ user: next.user });
    startTimers();
    return next.user;
  };

  return {
    restore,
    signIn,
    refreshTokens,
    refreshShared: () =>
      (refreshing ?? refreshTokens()).then(
        () => true as const,
        (error: unknown) => (isTransient(error) && session ? ('unavailable' as const) : false),
      ),
    getAccessToken: async () => {
      await ready;
      return session?.tokens.accessToken ?? null;
    },
    checkUser,
    async updateUser(value) {
      const user = parseUser(value);
      if (!user) throw new SessionError('INVALID_SERVER_RESPONSE');
      if (!session) return;
      await save({ ...session, user, userId: user.id });
      userCheckedAt = now();
      emit({ user });
    },
    async replaceTokens(value) {
      const tokens = parseTokens(value);
      if (!tokens) throw new SessionError('INVALID_SERVER_RESPONSE');
      if (!session) return;
      await save({ ...session, tokens, tokenIssuedAt: now(), lastAccessed: now() });
    },
    checkTokens,
    runBackgroundCheck,
    expire: () => endSession('expired'),
    async logout() {
      const ended = session;
      await endSession('logout');
      if (!ended) return;
      const pushEndpoint = options.releaseDevice
        ? await releaseDevice(options.releaseDevice)
        : null;
      // Spec section 4: a failed logout call is ignored; the local sign-out has already happened.
      sessionApi
        .logout(ended.tokens, { pushEndpoint })
        .catch((error: unknown) => logger.warn('[session] Logout call failed (ignored)', error));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      stopTimers?.();
    },
  };
}
