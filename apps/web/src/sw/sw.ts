/// <reference lib="webworker" />
/**
 * The service worker, built by vite-plugin-pwa (`injectManifest`) into /sw.js. What it caches and
 * why: docs/decisions/003-service-worker-inject-manifest.md. In short:
 * - the app shell and every hashed asset are precached (the list is injected at build time);
 * - page navigations go to the network first (with navigation preload); without an answer, a page
 *   seen before (or the start page) gets the precached app shell, any other the offline page;
 * - public content (education, policy pages, the facility directory, the public figures) is
 *   stale-while-revalidate, and the public config network-first, so they read offline;
 * - nothing sent with an Authorization header, and nothing else under /api, is ever cached;
 * - push messages become notifications; a click focuses the app or opens the notification's page;
 * - a new version waits until the page says "Update Now" (SKIP_WAITING).
 */
import { clientsClaim } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { CacheExpiration, ExpirationPlugin } from 'workbox-expiration';
import * as navigationPreload from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import type { WorkboxPlugin } from 'workbox-core/types';
import type { PrecacheEntry } from 'workbox-precaching/_types';
import {
  CACHE_NAMES,
  RUNTIME_CACHE_LIMITS,
  SW_MESSAGE,
  buildVersion,
  isCacheablePublicRequest,
  isConfigRequest,
  notificationFromPush,
  resolveNotificationUrl,
  visitKey,
} from './sw-rules';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

const SHELL_URL = '/index.html';
const OFFLINE_URL = '/offline.html';
const DAY_SECONDS = 24 * 60 * 60;

const manifest = self.__WB_MANIFEST;
/** The app version plus the shell's revision: differs for every build that changed anything. */
const VERSION = buildVersion(import.meta.env.VITE_APP_VERSION ?? '0.0.0', manifest, SHELL_URL);

// Navigations (even to "/") are not answered from the precache directly: the route below decides.
precacheAndRoute(manifest, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();
navigationPreload.enable();

// ---------------------------------------------------------------------------------------------
// Navigations: network first; offline, the app shell for pages seen before, else the offline page.

const visits = new CacheExpiration(CACHE_NAMES.visitedPages, {
  maxEntries: RUNTIME_CACHE_LIMITS.visitedPages.maxEntries,
  maxAgeSeconds: RUNTIME_CACHE_LIMITS.visitedPages.maxAgeDays * DAY_SECONDS,
});

/** Remembers that this page opened once, so it may open offline with the app shell. */
async function rememberVisit(path: string): Promise<void> {
  const key = visitKey(path);
  if (!key) return;
  const cache = await caches.open(CACHE_NAMES.visitedPages);
  await cache.put(key, new Response(null, { status: 204 }));
  await visits.updateTimestamp(key);
  await visits.expireEntries();
}

async function wasVisited(path: string): Promise<boolean> {
  const key = visitKey(path);
  if (!key) return false;
  if (key === '/') return true;
  const cache = await caches.open(CACHE_NAMES.visitedPages);
  return (await cache.match(key)) !== undefined;
}

/** Bad networks: after this long without an answer, a page seen before opens from the shell. */
const NAVIGATION_TIMEOUT_MS = 3000;

async function offlineAnswer(url: URL): Promise<Response> {
  if (await wasVisited(url.pathname)) {
    const shell = await matchPrecache(SHELL_URL);
    if (shell) return shell;
  }
  return (await matchPrecache(OFFLINE_URL)) ?? Response.error();
}

registerRoute(
  new NavigationRoute(
    async ({ request, url, event }) => {
      const fetchEvent = event as FetchEvent;
      const network = (async () => {
        const preloaded = (await fetchEvent.preloadResponse) as Response | undefined;
        return preloaded ?? (await fetch(request));
      })();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const slow = new Promise<'slow'>((resolve) => {
        timer = setTimeout(() => resolve('slow'), NAVIGATION_TIMEOUT_MS);
      });
      try {
        const first = await Promise.race([network, slow]);
        if (first === 'slow' && (await wasVisited(url.pathname))) {
          // Keep the request going (it may still remember the visit), answer from the shell.
          fetchEvent.waitUntil(network.then(() => undefined).catch(() => undefined));
          return await offlineAnswer(url);
        }
        const response = first === 'slow' ? await network : first;
        if (response.ok) fetchEvent.waitUntil(rememberVisit(url.pathname));
        return response;
      } catch {
        return offlineAnswer(url);
      } finally {
        clearTimeout(timer);
      }
    },
    { denylist: [/^\/api(\/|$)/, /^\/(healthz|readyz|livez)$/] },
  ),
);

// ---------------------------------------------------------------------------------------------
// Public API content: stale-while-revalidate; the public config: network first.

/** Never store a reply the server marked private, whatever the path. */
const notPrivate: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) =>
    /\bprivate\b/i.test(response.headers.get('cache-control') ?? '') ? null : response,
};

function publicCachePlugins(limits: { maxEntries: number; maxAgeDays: number }): WorkboxPlugin[] {
  return [
    new CacheableResponsePlugin({ statuses: [200] }),
    notPrivate,
    new ExpirationPlugin({
      maxEntries: limits.maxEntries,
      maxAgeSeconds: limits.maxAgeDays * DAY_SECONDS,
      purgeOnQuotaError: true,
    }),
  ];
}

registerRoute(
  ({ request, url }) =>
    isCacheablePublicRequest(request, url, self.location.origin) === CACHE_NAMES.publicContent,
  new StaleWhileRevalidate({
    cacheName: CACHE_NAMES.publicContent,
    plugins: publicCachePlugins(RUNTIME_CACHE_LIMITS.publicContent),
  }),
);

registerRoute(
  ({ request, url }) =>
    isCacheablePublicRequest(request, url, self.location.origin) === CACHE_NAMES.publicDirectory,
  new StaleWhileRevalidate({
    cacheName: CACHE_NAMES.publicDirectory,
    plugins: publicCachePlugins(RUNTIME_CACHE_LIMITS.publicDirectory),
  }),
);

registerRoute(
  ({ request, url }) => isConfigRequest(request, url, self.location.origin),
  new NetworkFirst({
    cacheName: CACHE_NAMES.config,
    networkTimeoutSeconds: 4,
    plugins: publicCachePlugins(RUNTIME_CACHE_LIMITS.config),
  }),
);

// ---------------------------------------------------------------------------------------------
// Versions and updates.

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: unknown; path?: unknown } | null;
  switch (data?.type) {
    case SW_MESSAGE.skipWaiting:
      void self.skipWaiting();
      break;
    case SW_MESSAGE.getVersion:
      event.ports[0]?.postMessage({ type: SW_MESSAGE.version, version: VERSION });
      break;
    case SW_MESSAGE.pageVisited:
      if (typeof data.path === 'string') event.waitUntil(rememberVisit(data.path));
      break;
  }
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await self.clients.claim();
      // Pages opened under an older version learn that a new one is in charge.
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) {
        client.postMessage({ type: SW_MESSAGE.activated, version: VERSION });
      }
    })(),
  );
});
clientsClaim();

// ---------------------------------------------------------------------------------------------
// Push notifications (the server's payload: {id, type, title, message, link}).

self.addEventListener('push', (event) => {
  let payload: unknown = null;
  try {
    payload = event.data?.json();
  } catch {
    payload = event.data?.text() ?? null;
  }
  const notification = notificationFromPush(payload, self.location.origin);
  event.waitUntil(
    self.registration.showNotification(notification.title, {
      body: notification.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: notification.tag,
      data: { url: notification.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = resolveNotificationUrl(
    (event.notification.data as { url?: unknown } | null)?.url,
    self.location.origin,
  );
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const sameOrigin = windows.filter(
        (client) => new URL(client.url).origin === self.location.origin,
      );
      const exact = sameOrigin.find((client) => client.url === target);
      if (exact) {
        await exact.focus();
        return;
      }
      const open = sameOrigin[0];
      if (open) {
        const focused = await open.focus();
        // navigate() works for pages this worker controls; otherwise open the page anew.
        const navigated = await focused.navigate(target).catch(() => null);
        if (navigated) return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
