import { STORAGE_KEYS } from '@bdms/shared';
import { planRestore, readAppState, shouldRestore } from './app-state';

/**
 * Runs before the router starts, only when the app runs standalone (main.tsx imports it then):
 * back to the saved page and language, and the light theme (spec section 4).
 */
export function restoreInstalledAppState(win: Window = window): void {
  const navigation = win.performance?.getEntriesByType?.('navigation')[0] as
    PerformanceNavigationTiming | undefined;
  if (
    !shouldRestore({
      isStandalone: true,
      navigationType: navigation?.type,
      referrer: win.document.referrer,
    })
  ) {
    return;
  }
  let storage: Storage;
  try {
    storage = win.localStorage;
  } catch {
    return;
  }
  // Light mode only: the theme preference is always light.
  try {
    storage.setItem(STORAGE_KEYS.theme, 'light');
  } catch {
    // Nothing to keep.
  }
  win.document.documentElement.style.colorScheme = 'light';

  const { location } = win;
  const plan = planRestore(readAppState(storage, Date.now()), {
    currentPath: location.pathname,
    storedLanguage: storage.getItem(STORAGE_KEYS.language),
  });
  if (plan.language) storage.setItem(STORAGE_KEYS.language, plan.language);
  if (plan.path) win.history.replaceState(null, '', plan.path);
}
