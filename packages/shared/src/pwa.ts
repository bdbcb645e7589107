import { APP_SLUG, DAY, HOUR, SECOND } from './constants';

/**
 * Constants of the installable app (product spec sections 2, 4 and 9: "Installation and updates",
 * "Logging and performance", "Preloading and motion"). Kept apart from constants.ts on purpose:
 * the web app's first page uses constants.ts, so everything in it ships in the first download,
 * while these are only read by code loaded after the first page (app/pwa, lib/logger, lib/preload).
 */

export const PWA = {
  dismissSuppressMs: 7 * DAY,
  minPromptIntervalMs: 1 * DAY,
  engagementInteractions: 3,
  engagementDelayMs: 2 * SECOND,
  engagementFallbackMs: 30 * SECOND,
  installBannerDelayMs: 3 * SECOND,
  updateCheckMs: 1 * HOUR,
  updateNotifyDelayMs: 5 * SECOND,
  updateLaterMs: 1 * HOUR,
  updateSuccessCloseMs: 2 * SECOND,
  /**
   * Extension: a saved app state older than this is not restored on a restart of the installed
   * app (the spec sets no limit; a week-old page is no longer "where I was").
   */
  appStateMaxAgeMs: 1 * DAY,
} as const;

/** Extension storage names (the spec's own keys are in STORAGE_KEYS). */
export const PWA_STORAGE_KEYS = {
  /** Log entries not yet sent to the server (at most `LOGGING.storedLogsMax`). */
  clientLogs: `${APP_SLUG}-logs`,
  /** The client log level an administrator chose in the debug panel (debugMode), this browser. */
  clientLogLevel: `${APP_SLUG}-log-level`,
  /** Learned next-page hints for navigation preloading. */
  preloadHints: `${APP_SLUG}-preload-hints`,
  /** sessionStorage: "Update Now" reloaded the page, so the success card shows. */
  pwaUpdateApplied: `${APP_SLUG}-update-applied`,
} as const;

export const LOGGING = {
  bufferSize: 1000,
  storedLogsMax: 100,
  flushIntervalMs: 30 * SECOND,
} as const;

/** [needs improvement above, poor above] */
export const WEB_VITAL_THRESHOLDS = {
  LCP: [2500, 4000],
  FID: [100, 300],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  FCP: [1800, 3000],
} as const;

export const PRELOAD = {
  hoverDelayMs: 100,
  idleAfterMs: 2000,
  idleBatchSize: 3,
  idleGapMs: 100,
  hintsPerPage: 3,
  hintsQueuedOnLoad: 2,
  /** Higher runs first: a hovered link (4), then hinted next pages (3), then the critical routes. */
  priority: { home: 1, emergency: 2, login: 2, related: 3, hover: 4 },
} as const;

/** Likely next navigations (product spec section 2, "Navigation preloading"). */
export const PRELOAD_NEXT_ROUTES: Readonly<Record<string, readonly string[]>> = {
  '/': ['/emergency', '/login', '/register'],
  '/login': ['/donor/dashboard'],
  '/register': ['/donor/onboarding'],
  '/emergency': ['/login', '/register'],
};
