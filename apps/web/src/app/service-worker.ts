import type { QueryClient } from '@tanstack/react-query';
import { FEATURE_FLAG_DEFAULTS } from '@bdms/shared';
import { env } from '../config/env';
import { loadConfig } from '../config/use-config';

/**
 * Registers /sw.js (src/sw/sw.ts) in production builds while the `pwaSupport` flag is on. Called
 * after the first page has loaded (app/pwa/start.ts), so the worker's precaching never competes
 * with the first page's own downloads. Registration comes from app code because the CSP allows
 * no inline script.
 */
export async function registerServiceWorker(
  queryClient: QueryClient,
): Promise<ServiceWorkerRegistration | null> {
  if (!env.isProduction || !('serviceWorker' in navigator)) return null;
  // Offline, the config cannot load: keep the default (on), since offline is when the worker helps.
  const config = await loadConfig(queryClient).catch(() => null);
  if (!(config?.flags.pwaSupport ?? FEATURE_FLAG_DEFAULTS.pwaSupport)) return null;
  try {
    // updateViaCache 'none': the hourly update check always asks the server for /sw.js.
    return await navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' });
  } catch (error) {
    console.warn('[pwa] The service worker could not be registered', error);
    return null;
  }
}
