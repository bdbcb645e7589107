import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React adopts a prerendered page (and on the server that rendered it), true in
 * every render after that and in pages rendered in the browser from the start.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
