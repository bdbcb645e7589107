import { PWA, PWA_STORAGE_KEYS } from '@bdms/shared';
import { SW_MESSAGE } from '../../sw/sw-rules';

/**
 * The update flow (product spec sections 4 and 9, "Update flow"):
 * - the worker is asked for a new version every hour;
 * - a new version waiting to take over, or a message that one has activated (another tab updated),
 *   shows "Update Available" 5 s later;
 * - "Later" hides it, and it comes back after 1 hour;
 * - "Update Now" tells the waiting worker to take over (SKIP_WAITING) and reloads when the
 *   controlling worker changes;
 * - after that reload the card says the update succeeded, and closes after 2 s.
 * States: available → updating → (reload) → success.
 */

export type UpdateStatus = 'idle' | 'available' | 'updating' | 'success';

export interface UpdateState {
  status: UpdateStatus;
  /** The card is on screen ("Later" hides it without changing the status). */
  isVisible: boolean;
}

export const INITIAL_UPDATE_STATE: UpdateState = { status: 'idle', isVisible: false };

export interface UpdateTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
}

const GLOBAL_TIMERS: UpdateTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (id) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
};

/** If the new worker never takes over (it crashed), reload anyway after this long. */
export const UPDATE_RELOAD_FALLBACK_MS = 10_000;

export interface SessionFlags {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface UpdateControllerOptions {
  /** `navigator.serviceWorker`; null where service workers are missing. */
  container: ServiceWorkerContainer | null;
  session: SessionFlags;
  reload: () => void;
  timers?: UpdateTimers;
}

/** Asks the controlling worker its version (sw.ts answers on the port); null without an answer. */
export function askWorkerVersion(worker: ServiceWorker, timeoutMs = 3000): Promise<string | null> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), timeoutMs);
    channel.port1.onmessage = (event: MessageEvent<{ version?: unknown }>) => {
      clearTimeout(timer);
      resolve(typeof event.data?.version === 'string' ? event.data.version : null);
    };
    worker.postMessage({ type: SW_MESSAGE.getVersion }, [channel.port2]);
  });
}

function safely<T>(run: () => T): T | null {
  try {
    return run();
  } catch {
    return null;
  }
}

export function createUpdateController(options: UpdateControllerOptions) {
  const { container, session, reload } = options;
  const timers = options.timers ?? GLOBAL_TIMERS;

  let state: UpdateState = INITIAL_UPDATE_STATE;
  let registration: ServiceWorkerRegistration | null = null;
  /** The version this page loaded under; a different one activating means an update. */
  let loadedVersion: string | null = null;
  let notifyTimer: unknown = null;
  let laterTimer: unknown = null;
  let successTimer: unknown = null;
  let fallbackTimer: unknown = null;
  let checkInterval: unknown = null;
  let hasReloaded = false;
  let disposed = false;
  const listeners = new Set<() => void>();
  const cleanups: (() => void)[] = [];

  const set = (patch: Partial<UpdateState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };

  const reloadOnce = () => {
    if (hasReloaded) return;
    hasReloaded = true;
    reload();
  };

  /** A new version exists: "Update Available" 5 s later (once). */
  const scheduleNotice = () => {
    if (disposed || notifyTimer !== null) return;
    if (state.status === 'available' || state.status === 'updating') return;
    notifyTimer = timers.setTimeout(() => {
      notifyTimer = null;
      set({ status: 'available', isVisible: true });
    }, PWA.updateNotifyDelayMs);
  };

  const watchInstalling = (worker: ServiceWorker | null) => {
    if (!worker) return;
    const onStateChange = () => {
      // "installed" with a controller in place: a new version is waiting to take over.
      if (worker.state === 'installed' && container?.controller) scheduleNotice();
    };
    worker.addEventListener('statechange', onStateChange);
    cleanups.push(() => worker.removeEventListener('statechange', onStateChange));
  };

  const onMessage = (event: MessageEvent<{ type?: unknown; version?: unknown }>) => {
    if (event.data?.type !== SW_MESSAGE.activated || typeof event.data.version !== 'string') return;
    if (loadedVersion === null) {
      // This page arrived with the worker's first install: that version is this page's.
      loadedVersion = event.data.version;
      return;
    }
    if (event.data.version !== loadedVersion) scheduleNotice();
  };

  const onControllerChange = () => {
    if (state.status === 'updating') reloadOnce();
  };

  return {
    getState: (): UpdateState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async start(): Promise<void> {
      if (safely(() => session.getItem(PWA_STORAGE_KEYS.pwaUpdateApplied)) !== null) {
        safely(() => session.removeItem(PWA_STORAGE_KEYS.pwaUpdateApplied));
        set({ status: 'success', isVisible: true });
        successTimer = timers.setTimeout(() => {
          successTimer = null;
          set({ status: 'idle', isVisible: false });
        }, PWA.updateSuccessCloseMs);
      }
      // A partial stand-in (tests, odd embedded browsers) has nothing to watch.
      if (
        !container ||
        typeof container.addEventListener !== 'function' ||
        typeof container.getRegistration !== 'function'
      )
        return;
      container.addEventListener('message', onMessage as EventListener);
      container.addEventListener('controllerchange', onControllerChange);
      cleanups.push(() => {
        container.removeEventListener('message', onMessage as EventListener);
        container.removeEventListener('controllerchange', onControllerChange);
      });

      registration = (await container.getRegistration().catch(() => undefined)) ?? null;
      if (disposed || !registration) return;
      const current = registration;
      if (container.controller) {
        void askWorkerVersion(container.controller).then((version) => {
          loadedVersion ??= version;
        });
      }
      if (current.waiting && container.controller) scheduleNotice();
      watchInstalling(current.installing);
      const onUpdateFound = () => watchInstalling(current.installing);
      current.addEventListener('updatefound', onUpdateFound);
      cleanups.push(() => current.removeEventListener('updatefound', onUpdateFound));
      checkInterval = timers.setInterval(() => {
        void current.update().catch(() => undefined);
      }, PWA.updateCheckMs);
    },

    /** Hides the card; it returns after 1 hour if the update is still waiting. */
    later(): void {
      if (state.status !== 'available') return;
      set({ isVisible: false });
      if (laterTimer !== null) timers.clearTimeout(laterTimer);
      laterTimer = timers.setTimeout(() => {
        laterTimer = null;
        if (state.status === 'available') set({ isVisible: true });
      }, PWA.updateLaterMs);
    },

    /** SKIP_WAITING to the waiting worker, then a reload when it controls the page. */
    updateNow(): void {
      if (state.status !== 'available') return;
      set({ status: 'updating', isVisible: true });
      safely(() => session.setItem(PWA_STORAGE_KEYS.pwaUpdateApplied, String(Date.now())));
      const waiting = registration?.waiting;
      if (!waiting) {
        // Already active (another tab updated): this page only needs to load the new version.
        reloadOnce();
        return;
      }
      waiting.postMessage({ type: SW_MESSAGE.skipWaiting });
      fallbackTimer = timers.setTimeout(reloadOnce, UPDATE_RELOAD_FALLBACK_MS);
    },

    /** Closes the success card early (its close button). */
    closeSuccess(): void {
      if (state.status !== 'success') return;
      if (successTimer !== null) timers.clearTimeout(successTimer);
      successTimer = null;
      set({ status: 'idle', isVisible: false });
    },

    /** Checks for a new worker now (the hourly check does this by itself). */
    async checkNow(): Promise<void> {
      await registration?.update().catch(() => undefined);
    },

    dispose(): void {
      disposed = true;
      for (const timer of [notifyTimer, laterTimer, successTimer, fallbackTimer]) {
        if (timer !== null) timers.clearTimeout(timer);
      }
      notifyTimer = laterTimer = successTimer = fallbackTimer = null;
      if (checkInterval !== null) timers.clearInterval(checkInterval);
      checkInterval = null;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}

export type UpdateController = ReturnType<typeof createUpdateController>;
