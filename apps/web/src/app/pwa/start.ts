import type { QueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@bdms/shared';
import { i18n } from '../../i18n';
import { startClientLogging } from '../../lib/logger';
import { startPreloading, type RouterLike } from '../../lib/preload';
import { SW_MESSAGE } from '../../sw/sw-rules';
import { routes } from '../router';
import { registerServiceWorker } from '../service-worker';
import { saveAppState } from './app-state';
import { isStandaloneDisplay } from './standalone';

export { restoreInstalledAppState } from './restore';

/** localStorage, or a stand-in where the browser refuses it (some private modes throw). */
function localStorageOrMemory(): Pick<Storage, 'getItem' | 'setItem'> {
  try {
    const storage = window.localStorage;
    storage.getItem(STORAGE_KEYS.appState);
    return storage;
  } catch {
    const memory = new Map<string, string>();
    return {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
    };
  }
}

/**
 * Everything the first page does not need, started once it has loaded and the browser is idle
 * (main.tsx): the logger and web vitals, the service worker, navigation preloading, and, in the
 * installed app, keeping the app state for the next start. None of it is in the initial download.
 */
export function start({ queryClient, router }: { queryClient: QueryClient; router: RouterLike }) {
  const storage = localStorageOrMemory();
  startClientLogging();
  void registerServiceWorker(queryClient);
  startPreloading({ routes, router, storage });

  const standalone = isStandaloneDisplay();
  const remember = (pathname: string, search = '') => {
    if (standalone) {
      saveAppState(storage, {
        path: `${pathname}${search}`,
        language: i18n.language,
        now: Date.now(),
      });
    }
    // Pages opened inside the app may open offline later with the app shell (src/sw/sw.ts).
    navigator.serviceWorker?.controller?.postMessage({
      type: SW_MESSAGE.pageVisited,
      path: pathname,
    });
  };
  const location = () => router.state.location as { pathname: string; search?: string };
  let last = `${location().pathname}${location().search ?? ''}`;
  remember(location().pathname, location().search);
  router.subscribe((state) => {
    const current = state.location as { pathname: string; search?: string };
    const key = `${current.pathname}${current.search ?? ''}`;
    if (key === last) return;
    last = key;
    remember(current.pathname, current.search);
  });
  i18n.on('languageChanged', () => remember(location().pathname, location().search));
}
