import { PRELOAD, PRELOAD_NEXT_ROUTES, PWA_STORAGE_KEYS } from '@bdms/shared';

/**
 * Next-page hints: the spec's table of likely next navigations, plus what this device was seen
 * doing (at most 3 next pages kept per page, the most recent first). Kept in localStorage.
 */

export type LearnedHints = Record<string, string[]>;

export interface HintStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Pages remembered at most (oldest dropped), so the record stays small. */
export const MAX_HINTED_PAGES = 50;

/** `/articles/x/` and `/articles/x?y` are the page `/articles/x`. */
export function normalisePath(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '/';
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : '/';
}

export function readHints(storage: HintStorage): LearnedHints {
  try {
    const value: unknown = JSON.parse(storage.getItem(PWA_STORAGE_KEYS.preloadHints) ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const hints: LearnedHints = {};
    for (const [page, next] of Object.entries(value as Record<string, unknown>)) {
      if (Array.isArray(next)) {
        hints[page] = next
          .filter((item): item is string => typeof item === 'string')
          .slice(0, PRELOAD.hintsPerPage);
      }
    }
    return hints;
  } catch {
    return {};
  }
}

/** Records that `to` was opened from `from`. */
export function recordNavigation(storage: HintStorage, from: string, to: string): LearnedHints {
  const fromPage = normalisePath(from);
  const toPage = normalisePath(to);
  const hints = readHints(storage);
  if (fromPage === toPage) return hints;
  const next = [toPage, ...(hints[fromPage] ?? []).filter((page) => page !== toPage)].slice(
    0,
    PRELOAD.hintsPerPage,
  );
  // Re-inserted last: the most recently used pages are kept when the record is trimmed.
  delete hints[fromPage];
  hints[fromPage] = next;
  const pages = Object.keys(hints);
  for (const page of pages.slice(0, Math.max(0, pages.length - MAX_HINTED_PAGES))) {
    delete hints[page];
  }
  try {
    storage.setItem(PWA_STORAGE_KEYS.preloadHints, JSON.stringify(hints));
  } catch {
    // Storage full or unavailable: hints are only a speed-up.
  }
  return hints;
}

/** The pages to queue when `page` opens: learned ones first, then the spec's table; only 2. */
export function hintsFor(page: string, learned: LearnedHints): string[] {
  const key = normalisePath(page);
  const candidates = [...(learned[key] ?? []), ...(PRELOAD_NEXT_ROUTES[key] ?? [])];
  return [...new Set(candidates)]
    .filter((candidate) => candidate !== key)
    .slice(0, PRELOAD.hintsQueuedOnLoad);
}
