import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

function positiveInt(value: string | null): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : 1;
}

/**
 * Filters live in the address (`?status=pending&page=2`): a view can be bookmarked or shared
 * with another administrator, and Back undoes a filter change.
 */
export function useFilterParams<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => {
    const values = { page: positiveInt(params.get('page')) } as Record<K, string | undefined> & {
      page: number;
    };
    for (const key of keys) {
      const value = params.get(key)?.trim();
      (values as Record<string, string | number | undefined>)[key] = value || undefined;
    }
    return values;
    // keys is a constant list per screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);

  const setFilters = useCallback(
    (next: Partial<Record<K, string | undefined>> & { page?: number }) => {
      setParams((current) => {
        const updated = new URLSearchParams(current);
        for (const key of keys) {
          const value = next[key];
          if (value) updated.set(key, value);
          else updated.delete(key);
        }
        if (next.page && next.page > 1) updated.set('page', String(next.page));
        else updated.delete('page');
        return updated;
      });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setParams],
  );

  return { filters, setFilters, params, setParams };
}
