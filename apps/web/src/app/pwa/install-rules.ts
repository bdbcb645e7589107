import { PWA, STORAGE_KEYS } from '@bdms/shared';

/**
 * When the app may offer to be installed (product spec sections 4 and 9, "Install prompt"):
 * - an explicit "Not now" (banner or card) suppresses every offer for 7 days (`pwa_install_dismissed`);
 * - the install card shows at most once per 24 hours (`pwa_install_info.lastPromptAt`);
 * - per browser session, a closed card (`pwa-prompt-dismissed`) or banner (`pwa-install-dismissed`)
 *   stays closed, even where local storage is unavailable;
 * - an installed app (or one running standalone) is never offered again.
 */

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface InstallInfo {
  /** When the install card was last shown (epoch ms). */
  lastPromptAt?: number;
  /** How many times the card was shown on this device. */
  promptCount?: number;
  /** When the app was installed (the browser's `appinstalled`, or an accepted prompt). */
  installedAt?: number;
  /** The last answer to the browser's own install dialog. */
  lastOutcome?: 'accepted' | 'dismissed';
}

function safeGet(store: KeyValueStore, key: string): string | null {
  try {
    return store.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(store: KeyValueStore, key: string, value: string): void {
  try {
    store.setItem(key, value);
  } catch {
    // Storage unavailable: the session flags and this page's memory still apply.
  }
}

export function readInstallInfo(local: KeyValueStore): InstallInfo {
  try {
    const value: unknown = JSON.parse(safeGet(local, STORAGE_KEYS.pwaInstallInfo) ?? 'null');
    return typeof value === 'object' && value !== null ? (value as InstallInfo) : {};
  } catch {
    return {};
  }
}

export function writeInstallInfo(local: KeyValueStore, update: Partial<InstallInfo>): InstallInfo {
  const next = { ...readInstallInfo(local), ...update };
  safeSet(local, STORAGE_KEYS.pwaInstallInfo, JSON.stringify(next));
  return next;
}

/** Milliseconds since the last "Not now"; Infinity when never dismissed. */
function sinceDismissed(local: KeyValueStore, now: number): number {
  const at = Number(safeGet(local, STORAGE_KEYS.pwaInstallDismissed));
  return Number.isFinite(at) && at > 0 ? now - at : Number.POSITIVE_INFINITY;
}

export function isDismissalActive(local: KeyValueStore, now: number): boolean {
  return sinceDismissed(local, now) < PWA.dismissSuppressMs;
}

export function recordDismissal(local: KeyValueStore, now: number): void {
  safeSet(local, STORAGE_KEYS.pwaInstallDismissed, String(now));
}

export interface InstallStores {
  local: KeyValueStore;
  session: KeyValueStore;
}

/** Neither installed nor suppressed: the banner or the card may show. */
export function canOffer({ local }: InstallStores, now: number): boolean {
  return readInstallInfo(local).installedAt === undefined && !isDismissalActive(local, now);
}

/** The 3-second banner: offerable, and not closed in this browser session. */
export function canShowBanner(stores: InstallStores, now: number): boolean {
  return (
    canOffer(stores, now) &&
    safeGet(stores.session, STORAGE_KEYS.pwaInstallDismissedSession) === null
  );
}

/** The engagement card: offerable, not closed this session, not shown in the last 24 hours. */
export function canShowPrompt(stores: InstallStores, now: number): boolean {
  if (!canOffer(stores, now)) return false;
  if (safeGet(stores.session, STORAGE_KEYS.pwaPromptDismissedSession) !== null) return false;
  const { lastPromptAt } = readInstallInfo(stores.local);
  return lastPromptAt === undefined || now - lastPromptAt >= PWA.minPromptIntervalMs;
}

export function recordPromptShown(local: KeyValueStore, now: number): void {
  const info = readInstallInfo(local);
  writeInstallInfo(local, { lastPromptAt: now, promptCount: (info.promptCount ?? 0) + 1 });
}

/** "Not now" on the banner: gone for this session, and every offer waits 7 days. */
export function dismissBanner(stores: InstallStores, now: number): void {
  safeSet(stores.session, STORAGE_KEYS.pwaInstallDismissedSession, 'true');
  recordDismissal(stores.local, now);
}

/** "Not now" on the card (or the browser's dialog cancelled): the same, for the card. */
export function dismissPrompt(stores: InstallStores, now: number): void {
  safeSet(stores.session, STORAGE_KEYS.pwaPromptDismissedSession, 'true');
  recordDismissal(stores.local, now);
}

// ---------------------------------------------------------------------------------------------

export interface EngagementTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
}

export const ENGAGEMENT_EVENTS = ['click', 'scroll', 'keydown'] as const;
export type EngagementEvent = (typeof ENGAGEMENT_EVENTS)[number];

/** A scroll gesture fires many events; it counts as one interaction per second. */
export const SCROLL_COUNT_INTERVAL_MS = 1000;

/**
 * Engagement (spec section 4): 3 interactions (click, scroll or keydown) followed by a 2 s wait;
 * or, once at least one interaction happened, 30 s after the first. `onEngaged` runs once.
 */
export function createEngagementTracker({
  timers,
  now,
  onEngaged,
}: {
  timers: EngagementTimers;
  now: () => number;
  onEngaged: () => void;
}) {
  let count = 0;
  let lastScrollAt = Number.NEGATIVE_INFINITY;
  let engaged = false;
  let delayTimer: unknown = null;
  let fallbackTimer: unknown = null;

  const finish = () => {
    if (engaged) return;
    engaged = true;
    if (delayTimer !== null) timers.clearTimeout(delayTimer);
    if (fallbackTimer !== null) timers.clearTimeout(fallbackTimer);
    delayTimer = fallbackTimer = null;
    onEngaged();
  };

  return {
    /** Call for every click, scroll and keydown. */
    record(event: EngagementEvent): void {
      if (engaged) return;
      if (event === 'scroll') {
        const at = now();
        if (at - lastScrollAt < SCROLL_COUNT_INTERVAL_MS) return;
        lastScrollAt = at;
      }
      count += 1;
      if (count === 1) fallbackTimer = timers.setTimeout(finish, PWA.engagementFallbackMs);
      if (count === PWA.engagementInteractions) {
        delayTimer = timers.setTimeout(finish, PWA.engagementDelayMs);
      }
    },
    get interactions(): number {
      return count;
    },
    get isEngaged(): boolean {
      return engaged;
    },
    dispose(): void {
      if (delayTimer !== null) timers.clearTimeout(delayTimer);
      if (fallbackTimer !== null) timers.clearTimeout(fallbackTimer);
      delayTimer = fallbackTimer = null;
    },
  };
}

export type EngagementTracker = ReturnType<typeof createEngagementTracker>;
