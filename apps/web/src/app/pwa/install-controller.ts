import { PWA } from '@bdms/shared';
import { EARLY_INSTALL_PROMPT } from './early-install-prompt';
import {
  ENGAGEMENT_EVENTS,
  canShowBanner,
  canShowPrompt,
  createEngagementTracker,
  dismissBanner,
  dismissPrompt,
  recordPromptShown,
  writeInstallInfo,
  type EngagementTimers,
  type InstallStores,
} from './install-rules';
import { isStandaloneDisplay } from './standalone';

/** Chromium's `beforeinstallprompt` event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

/** The spec's install alerts (section 8). */
export type InstallAlert = 'unavailable' | 'failed';

export interface InstallState {
  /** The browser offered installation and the offer has not been used. */
  canInstall: boolean;
  showBanner: boolean;
  showPrompt: boolean;
  isInstalling: boolean;
  alert: InstallAlert | null;
}

export const INITIAL_INSTALL_STATE: InstallState = {
  canInstall: false,
  showBanner: false,
  showPrompt: false,
  isInstalling: false,
  alert: null,
};

export type InstallSource = 'banner' | 'prompt' | 'button';

export interface InstallControllerOptions {
  window: Window;
  stores: InstallStores;
  timers?: EngagementTimers;
  now?: () => number;
  /** Running as the installed app: nothing to offer. */
  isStandalone?: () => boolean;
}

const GLOBAL_TIMERS: EngagementTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
};

/**
 * The install prompt's life (spec sections 4, 8, 9): capture the browser's offer, show the banner
 * 3 s later and the card after engagement, at most as often as install-rules.ts allows, run the
 * browser's dialog, and raise the spec's alerts when it cannot.
 */
export function createInstallController(options: InstallControllerOptions) {
  const win = options.window;
  const { stores } = options;
  const timers = options.timers ?? GLOBAL_TIMERS;
  const now = options.now ?? Date.now;
  const isStandalone = options.isStandalone ?? (() => isStandaloneDisplay(win));

  let state: InstallState = INITIAL_INSTALL_STATE;
  let deferred: BeforeInstallPromptEvent | null = null;
  let bannerTimer: unknown = null;
  let engaged = false;
  /** Once the card has shown in this page, the banner does not come back. */
  let promptShownHere = false;
  const listeners = new Set<() => void>();

  const set = (patch: Partial<InstallState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };

  const maybeShowPrompt = () => {
    if (!deferred || !engaged || state.showPrompt || isStandalone()) return;
    if (!canShowPrompt(stores, now())) return;
    recordPromptShown(stores.local, now());
    promptShownHere = true;
    set({ showPrompt: true, showBanner: false });
  };

  const maybeShowBanner = () => {
    bannerTimer = null;
    if (!deferred || state.showPrompt || promptShownHere || isStandalone()) return;
    if (canShowBanner(stores, now())) set({ showBanner: true });
  };

  const onAvailable = (event: BeforeInstallPromptEvent) => {
    deferred = event;
    set({ canInstall: true });
    if (bannerTimer === null && !state.showBanner) {
      bannerTimer = timers.setTimeout(maybeShowBanner, PWA.installBannerDelayMs);
    }
    maybeShowPrompt();
  };

  const tracker = createEngagementTracker({
    timers,
    now,
    onEngaged: () => {
      engaged = true;
      maybeShowPrompt();
    },
  });

  const onBeforeInstallPrompt = (event: Event) => {
    // Keep the browser's own mini-infobar away: the app offers installation at a better moment.
    event.preventDefault();
    onAvailable(event as BeforeInstallPromptEvent);
  };
  const onInstalled = () => {
    deferred = null;
    writeInstallInfo(stores.local, { installedAt: now() });
    set({ canInstall: false, showBanner: false, showPrompt: false });
  };
  const onInteraction = (event: Event) => tracker.record(event.type as 'click');

  return {
    getState: (): InstallState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    start(): void {
      win.addEventListener('beforeinstallprompt', onBeforeInstallPrompt);
      win.addEventListener('appinstalled', onInstalled);
      for (const type of ENGAGEMENT_EVENTS) {
        win.addEventListener(type, onInteraction, { capture: true, passive: true });
      }
      const holder = win as unknown as Record<string, BeforeInstallPromptEvent | undefined>;
      const early = holder[EARLY_INSTALL_PROMPT];
      if (early) {
        holder[EARLY_INSTALL_PROMPT] = undefined;
        onAvailable(early);
      }
    },

    /** Runs the browser's install dialog; the spec's alerts when there is none or it fails. */
    async install(source: InstallSource): Promise<void> {
      const event = deferred;
      if (!event) {
        set({ alert: 'unavailable', showBanner: false, showPrompt: false });
        return;
      }
      // The browser's offer can be used once.
      deferred = null;
      set({ isInstalling: true });
      try {
        await event.prompt();
        const choice = await event.userChoice;
        writeInstallInfo(stores.local, {
          lastOutcome: choice.outcome,
          ...(choice.outcome === 'accepted' ? { installedAt: now() } : {}),
        });
        if (choice.outcome === 'dismissed') {
          if (source === 'banner') dismissBanner(stores, now());
          else dismissPrompt(stores, now());
        }
        set({ isInstalling: false, canInstall: false, showBanner: false, showPrompt: false });
      } catch {
        set({
          isInstalling: false,
          canInstall: false,
          showBanner: false,
          showPrompt: false,
          alert: 'failed',
        });
      }
    },

    closeBanner(): void {
      dismissBanner(stores, now());
      set({ showBanner: false });
    },

    closePrompt(): void {
      dismissPrompt(stores, now());
      set({ showPrompt: false });
    },

    dismissAlert(): void {
      set({ alert: null });
    },

    dispose(): void {
      tracker.dispose();
      if (bannerTimer !== null) timers.clearTimeout(bannerTimer);
      bannerTimer = null;
      win.removeEventListener('beforeinstallprompt', onBeforeInstallPrompt);
      win.removeEventListener('appinstalled', onInstalled);
      for (const type of ENGAGEMENT_EVENTS) {
        win.removeEventListener(type, onInteraction, { capture: true });
      }
    },
  };
}

export type InstallController = ReturnType<typeof createInstallController>;
