import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a media query matches, following changes. False on the server and while a
 * prerendered page is adopted (what the server drew), the real answer right after.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window !== 'undefined' && window.matchMedia?.(query).matches === true,
    () => false,
  );
}
