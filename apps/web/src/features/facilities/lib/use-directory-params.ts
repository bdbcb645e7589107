import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  applyDirectoryChange,
  parseDirectoryParams,
  toSearchParams,
  withoutFilters,
  type DirectoryChange,
  type DirectoryParams,
} from './directory-params';

export interface UseDirectoryParams {
  params: DirectoryParams;
  /** The address's query string as it is ("state=…&page=2"), for links back to this view. */
  search: string;
  /** Applies a change; `replace` rewrites the current history entry instead of adding one. */
  update: (change: DirectoryChange, options?: { replace?: boolean }) => void;
  clearFilters: () => void;
}

/** The directory's state, read from and written to the address (lib/directory-params.ts). */
export function useDirectoryParams(): UseDirectoryParams {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const params = useMemo(() => parseDirectoryParams(new URLSearchParams(search)), [search]);

  const update = useCallback(
    (change: DirectoryChange, options: { replace?: boolean } = {}) => {
      setSearchParams(
        (current) => toSearchParams(applyDirectoryChange(parseDirectoryParams(current), change)),
        { replace: options.replace ?? false, preventScrollReset: true },
      );
    },
    [setSearchParams],
  );

  const clearFilters = useCallback(() => {
    setSearchParams((current) => toSearchParams(withoutFilters(parseDirectoryParams(current))), {
      preventScrollReset: true,
    });
  }, [setSearchParams]);

  return { params, search, update, clearFilters };
}
