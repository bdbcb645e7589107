/**
 * The service worker's rules as plain functions: what may be cached, how a push payload becomes a
 * notification, which address a click opens. No worker globals, so unit tests run them directly;
 * the page imports the message names from here too (nothing else: keep this file tiny).
 */

/** Messages between pages and /sw.js. */
export const SW_MESSAGE = {
  /** Page → waiting worker: take over now ("Update Now"). */
  skipWaiting: 'SKIP_WAITING',
  /** Worker → every page: a new version has activated (`{type, version}`). */
  activated: 'SW_ACTIVATED',
  /** Page → worker (with a MessagePort): which version are you? */
  getVersion: 'GET_VERSION',
  /** Worker → page on that port: `{type, version}`. */
  version: 'SW_VERSION',
  /** Page → worker: the app showed this path (client-side navigation), so it may open offline. */
  pageVisited: 'PAGE_VISITED',
} as const;

export const CACHE_NAMES = {
  /** Paths that opened once (empty markers): offline, they open with the app shell. */
  visitedPages: 'bdms-visited-pages',
  /** Education articles, categories, FAQs and the policy pages. */
  publicContent: 'bdms-public-content',
  /** The facility (blood bank) directory and the public figures. */
  publicDirectory: 'bdms-public-directory',
  /** `GET /api/v1/config` (flags), for offline starts. */
  config: 'bdms-config',
} as const;

export const RUNTIME_CACHE_LIMITS = {
  visitedPages: { maxEntries: 200, maxAgeDays: 30 },
  publicContent: { maxEntries: 150, maxAgeDays: 14 },
  publicDirectory: { maxEntries: 150, maxAgeDays: 7 },
  config: { maxEntries: 2, maxAgeDays: 30 },
} as const;

const PUBLIC_CONTENT = /^\/api\/public\/(education|pages)\//;
const PUBLIC_DIRECTORY = /^\/api\/v1\/public\/(facilities\/|stats$)/;

/**
 * Which runtime cache may hold the reply to this request, or null. Only same-origin GETs of the
 * public content paths, and never a request that carries credentials: a reply to an
 * `Authorization` request may depend on who asked, and the cache is shared by everyone on the device.
 */
export function isCacheablePublicRequest(
  request: Pick<Request, 'method' | 'headers'>,
  url: URL,
  origin: string,
): (typeof CACHE_NAMES)['publicContent' | 'publicDirectory'] | null {
  if (request.method !== 'GET' || url.origin !== origin) return null;
  if (request.headers.has('authorization')) return null;
  if (PUBLIC_CONTENT.test(url.pathname)) return CACHE_NAMES.publicContent;
  if (PUBLIC_DIRECTORY.test(url.pathname)) return CACHE_NAMES.publicDirectory;
  return null;
}

/** `GET /api/v1/config` without credentials: network first, the last answer offline. */
export function isConfigRequest(
  request: Pick<Request, 'method' | 'headers'>,
  url: URL,
  origin: string,
): boolean {
  return (
    request.method === 'GET' &&
    url.origin === origin &&
    url.pathname === '/api/v1/config' &&
    !request.headers.has('authorization')
  );
}

/** The key a visited page is remembered under: its path, without query or trailing slash. */
export function visitKey(path: string): string | null {
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  const pathname = path.split(/[?#]/)[0] ?? '/';
  if (/^\/(api|healthz|readyz|livez)(\/|$)/.test(pathname)) return null;
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : '/';
}

/** The app version plus the shell's precache revision: different for every build. */
export function buildVersion(
  appVersion: string,
  manifest: readonly (string | { url: string; revision?: string | null })[],
  shellUrl: string,
): string {
  const shell = manifest.find(
    (entry) => typeof entry !== 'string' && entry.url.replace(/^\//, '') === shellUrl.slice(1),
  );
  const revision = typeof shell === 'object' ? shell.revision : null;
  return revision ? `${appVersion}+${revision.slice(0, 8)}` : appVersion;
}

/** A same-origin address for a notification click; anything else opens the app's notifications. */
export function resolveNotificationUrl(link: unknown, origin: string): string {
  const fallback = `${origin}/notifications`;
  if (typeof link !== 'string' || link === '') return fallback;
  try {
    const url = new URL(link, origin);
    return url.origin === origin ? url.href : fallback;
  } catch {
    return fallback;
  }
}

export interface PushNotification {
  title: string;
  body: string;
  tag: string | undefined;
  url: string;
}

const DEFAULT_TITLE = 'Blood Donation Management System';

/**
 * The server sends `{id, type, title, message, link}` (apps/server/src/features/notifications/notifier.ts:
 * only what a lock screen may show). A plain-text payload becomes the body.
 */
export function notificationFromPush(payload: unknown, origin: string): PushNotification {
  if (typeof payload === 'string') {
    return { title: DEFAULT_TITLE, body: payload, tag: undefined, url: `${origin}/notifications` };
  }
  const data = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<
    string,
    unknown
  >;
  const title = typeof data.title === 'string' && data.title !== '' ? data.title : DEFAULT_TITLE;
  const body = typeof data.message === 'string' ? data.message : '';
  const tag = typeof data.id === 'string' && data.id !== '' ? data.id : undefined;
  return { title, body, tag, url: resolveNotificationUrl(data.link, origin) };
}
