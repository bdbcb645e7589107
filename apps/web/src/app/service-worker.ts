import type { QueryClient } from '@tanstack/react-query';
import { FEATURE_FLAG_DEFAULTS } from '@bdms/shared';
import { env } from '../config/env';
import { loadConfig } from '../config/use-config';

/**
 * Registers /sw.js in production builds while the `pwaSupport` flag is on. Registration comes from
 * app code because the CSP allows no inline script. The install and update prompts come later.
 */
export async function registerServiceWorker(queryClient: QueryClient): Promise<void> {
  if (!env.isProduction || !('serviceWorker' in navigator)) return;
  // Offline, the config cannot load: keep the default (on), since offline is when the worker helps.
  const config = await loadConfig(queryClient).catch(() => null);
  if (!(config?.flags.pwaSupport ?? FEATURE_FLAG_DEFAULTS.pwaSupport)) return;
  const { registerSW } = await import('virtual:pwa-register');
  registerSW({ immediate: true });
}
