import { PWA, STORAGE_KEYS } from '@bdms/shared';

/**
 * Session restoration on a restart of the installed app (product spec sections 3, 4 and 9): while
 * running standalone, the app keeps `{currentPath, timestamp, theme, language}` under
 * `bdms-app-state`; when the installed app starts again (the page was reloaded, or opened with no
 * referrer: the home screen), it returns to that page and language, and restores the theme (light
 * only). The stored sign-in session is validated, and its tokens refreshed when due, by the
 * session layer on every start (features/auth/session/session-manager.ts `restore`).
 */

export interface SavedAppState {
  currentPath: string;
  timestamp: number;
  /** The product supports light mode only. */
  theme: 'light';
  language: string;
}

export interface AppStateStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Pages never reopened by themselves: sign-in screens, and links that carry one-time tokens. */
const NOT_RESTORED =
  /^\/(login|signin|admin\/login|hospital\/login|forgot-password|reset-password)(\/|$)/;

export function isRestorablePath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return false;
  const pathname = path.split(/[?#]/)[0] ?? '';
  return !NOT_RESTORED.test(pathname) && !/^\/api(\/|$)/.test(pathname);
}

export function saveAppState(
  storage: AppStateStorage,
  { path, language, now }: { path: string; language: string; now: number },
): void {
  if (!isRestorablePath(path)) return;
  const state: SavedAppState = { currentPath: path, timestamp: now, theme: 'light', language };
  try {
    storage.setItem(STORAGE_KEYS.appState, JSON.stringify(state));
  } catch {
    // Storage full or unavailable: the next start opens the start page.
  }
}

/** The saved state when it is complete, restorable and recent enough; else null. */
export function readAppState(storage: AppStateStorage, now: number): SavedAppState | null {
  let value: unknown;
  try {
    value = JSON.parse(storage.getItem(STORAGE_KEYS.appState) ?? 'null');
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { currentPath, timestamp, language } = value as Record<string, unknown>;
  if (typeof currentPath !== 'string' || !isRestorablePath(currentPath)) return null;
  if (typeof timestamp !== 'number' || now - timestamp > PWA.appStateMaxAgeMs || timestamp > now) {
    return null;
  }
  return {
    currentPath,
    timestamp,
    theme: 'light',
    language: typeof language === 'string' ? language : '',
  };
}

/** Standalone, and reloaded or opened without a referrer (spec section 4). */
export function shouldRestore({
  isStandalone,
  navigationType,
  referrer,
}: {
  isStandalone: boolean;
  navigationType: string | undefined;
  referrer: string;
}): boolean {
  return isStandalone && (navigationType === 'reload' || referrer === '');
}

export interface RestoreResult {
  /** The page the app returns to, when it differs from the one that opened. */
  path: string | null;
  /** The language to start in, when none was chosen on this device yet. */
  language: string | null;
}

/**
 * What to restore: the saved page when the app opened at its start page (a reload keeps its own
 * page), and the saved language when the device has no stored choice.
 */
export function planRestore(
  saved: SavedAppState | null,
  { currentPath, storedLanguage }: { currentPath: string; storedLanguage: string | null },
): RestoreResult {
  if (!saved) return { path: null, language: null };
  const path = currentPath === '/' && saved.currentPath !== '/' ? saved.currentPath : null;
  const language = storedLanguage === null && saved.language !== '' ? saved.language : null;
  return { path, language };
}
