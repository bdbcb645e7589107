import type { ReactElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import type { Preloader } from './preload/preload-queue';

/**
 * The screen code behind a path, read from the router's own route table (app/router.tsx), so
 * the lazy importers are not listed twice. A route's preloader is, in order: `handle.preload`,
 * its lazy `Component.preload`, or the `page` of its element (`<Screen page={LazyPage} />`)
 * when that page was made by `lazyWithRetry` (which gives every lazy screen a `preload`).
 */

interface WithPreload {
  preload?: unknown;
}

function preloaderOf(route: RouteObject | undefined): Preloader | null {
  if (!route) return null;
  const candidates: unknown[] = [
    (route.handle as WithPreload | undefined)?.preload,
    (route.Component as WithPreload | null | undefined)?.preload,
    (route.element as ReactElement<{ page?: WithPreload }> | null | undefined)?.props?.page
      ?.preload,
  ];
  const found = candidates.find((candidate) => typeof candidate === 'function');
  return (found as Preloader | undefined) ?? null;
}

/** `path → preloader` for the app's routes (null for an unknown path or a screen without one). */
export function createRoutePreloaders(routes: RouteObject[]): (path: string) => Preloader | null {
  const cache = new Map<string, Preloader | null>();
  return (path) => {
    const pathname = path.split(/[?#]/)[0] ?? '/';
    if (cache.has(pathname)) return cache.get(pathname) ?? null;
    const matches = matchRoutes(routes, pathname);
    const leaf = matches?.[matches.length - 1]?.route;
    // The catch-all (not found) is not worth downloading ahead.
    const preloader = leaf && leaf.path !== '*' ? preloaderOf(leaf) : null;
    cache.set(pathname, preloader);
    return preloader;
  };
}
