import { PRELOAD } from '@bdms/shared';
import type { RouteObject } from 'react-router';
import { hintsFor, normalisePath, readHints, recordNavigation, type HintStorage } from './hints';
import {
  GLOBAL_QUEUE_TIMERS,
  createIdleScheduler,
  createPreloadQueue,
  type QueueTimers,
} from './preload-queue';
import { createRoutePreloaders } from '../route-preloaders';

/**
 * Navigation preloading (product spec sections 2, 7 and 9): downloads the code (and texts) of
 * the screens likely to be opened next, never API data. Started after the first page has loaded
 * (app/pwa/start.ts).
 */

/** The routes the spec names critical, with their priorities (higher runs first). */
export const CRITICAL_ROUTES: readonly { path: string; priority: number }[] = [
  { path: '/emergency', priority: PRELOAD.priority.emergency },
  { path: '/login', priority: PRELOAD.priority.login },
  { path: '/', priority: PRELOAD.priority.home },
];

/** The part of a data router preloading listens to. */
export interface RouterLike {
  state: { location: { pathname: string } };
  subscribe: (listener: (state: { location: { pathname: string } }) => void) => () => void;
}

/** Save-Data or a 2G connection: every byte counts, so nothing is fetched ahead. */
export function isConstrainedNetwork(nav: Navigator = navigator): boolean {
  const connection = (
    nav as Navigator & {
      connection?: { saveData?: boolean; effectiveType?: string };
    }
  ).connection;
  return connection?.saveData === true || /(^|-)2g$/.test(connection?.effectiveType ?? '');
}

export interface PreloadingOptions {
  routes: RouteObject[];
  router: RouterLike;
  document?: Document;
  storage?: HintStorage;
  timers?: QueueTimers;
  /** Defaults to the Network Information API's Save-Data / 2G check. */
  isConstrained?: () => boolean;
}

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'scroll', 'touchstart'] as const;

function internalPath(anchor: HTMLAnchorElement, origin: string): string | null {
  if (anchor.target && anchor.target !== '_self') return null;
  if (anchor.hasAttribute('download')) return null;
  try {
    const url = new URL(anchor.href, origin);
    return url.origin === origin ? url.pathname : null;
  } catch {
    return null;
  }
}

export function startPreloading(options: PreloadingOptions): () => void {
  const doc = options.document ?? document;
  const storage = options.storage ?? window.localStorage;
  const timers = options.timers ?? GLOBAL_QUEUE_TIMERS;
  const isConstrained = options.isConstrained ?? (() => isConstrainedNetwork());
  const preloaderFor = createRoutePreloaders(options.routes);
  const queue = createPreloadQueue({ timers });
  const idle = createIdleScheduler({
    timers,
    onIdle: () => (isConstrained() ? Promise.resolve() : queue.runIdleBatch()),
    hasWork: () => queue.size > 0,
  });

  const enqueue = (path: string, priority: number) => {
    const preload = preloaderFor(path);
    if (preload) queue.enqueue(preload, priority);
  };

  const queuePage = (page: string) => {
    for (const next of hintsFor(page, readHints(storage))) enqueue(next, PRELOAD.priority.related);
    idle.wake();
  };

  // The page that opened is already loading; its likely successors and the critical routes wait.
  let current = normalisePath(options.router.state.location.pathname);
  for (const { path, priority } of CRITICAL_ROUTES) {
    if (path !== current) enqueue(path, priority);
  }
  queuePage(current);

  const unsubscribe = options.router.subscribe((state) => {
    const next = normalisePath(state.location.pathname);
    if (next === current) return;
    recordNavigation(storage, current, next);
    current = next;
    queuePage(next);
  });

  // A link hovered (or focused) for 100 ms is queued at priority 4 and fetched right away.
  let hoverTimer: unknown = null;
  let hovered: HTMLAnchorElement | null = null;
  const cancelHover = () => {
    if (hoverTimer !== null) timers.clearTimeout(hoverTimer);
    hoverTimer = null;
    hovered = null;
  };
  const onPointerOver = (event: Event) => {
    const anchor = (event.target as Element | null)?.closest?.(
      'a[href]',
    ) as HTMLAnchorElement | null;
    if (!anchor || anchor === hovered) return;
    cancelHover();
    const path = internalPath(anchor, doc.location?.origin ?? window.location.origin);
    const preload = path ? preloaderFor(path) : null;
    if (!preload || queue.hasStarted(preload) || isConstrained()) return;
    hovered = anchor;
    hoverTimer = timers.setTimeout(() => {
      hoverTimer = null;
      queue.enqueue(preload, PRELOAD.priority.hover);
      void queue.runNow(preload);
    }, PRELOAD.hoverDelayMs);
  };
  const onPointerOut = (event: Event) => {
    if (!hovered) return;
    const related = (event as MouseEvent).relatedTarget as Node | null;
    if (related && hovered.contains(related)) return;
    cancelHover();
  };
  const onActivity = () => idle.activity();

  doc.addEventListener('mouseover', onPointerOver, { passive: true });
  doc.addEventListener('focusin', onPointerOver);
  doc.addEventListener('mouseout', onPointerOut, { passive: true });
  doc.addEventListener('focusout', cancelHover);
  for (const type of ACTIVITY_EVENTS) {
    doc.addEventListener(type, onActivity, { capture: true, passive: true });
  }
  idle.activity();

  return () => {
    unsubscribe();
    cancelHover();
    idle.stop();
    doc.removeEventListener('mouseover', onPointerOver);
    doc.removeEventListener('focusin', onPointerOver);
    doc.removeEventListener('mouseout', onPointerOut);
    doc.removeEventListener('focusout', cancelHover);
    for (const type of ACTIVITY_EVENTS) {
      doc.removeEventListener(type, onActivity, { capture: true });
    }
  };
}
